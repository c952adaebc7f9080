/* The cheapest possible plugin: every call returns at once. The benchmark
 * measures the cost of the C-ABI call path against it. */
#include <stdlib.h>
#include "widget_host/widget_host.h"

/* The manifest is noop.widget.json beside this file: the test compiles with
 * -Wa,-I,<this directory> (TestSupport.compileC), so .incbin finds it. */
WH_MANIFEST_FILE("noop.widget.json")

struct wh_plugin { int unused; };

static const char view[] = "{\"view\":1,\"root\":{\"kind\":\"text\",\"text\":\"ok\"}}";

static wh_plugin *create(const wh_host *host) { (void)host; return calloc(1, sizeof(wh_plugin)); }
static int32_t render(wh_plugin *p, const char *s, const char *params, const wh_output *out) {
    (void)p; (void)s; (void)params;
    return out->write(out, view, sizeof view - 1) == 0 ? WH_OK : WH_FAILED;
}
static int32_t handle_action(wh_plugin *p, const char *a, const char *v) { (void)p; (void)a; (void)v; return WH_OK; }
static void on_event(wh_plugin *p, const char *t, const char *j) { (void)p; (void)t; (void)j; }
static void destroy(wh_plugin *p) { free(p); }

static const wh_screen screens[] = {{"main", "Main"}};
static const wh_plugin_descriptor descriptor = {
    WH_ABI_MAJOR, WH_ABI_MINOR, sizeof(wh_plugin_descriptor), 1,
    "org.bench.noop", "No-op", "1.0.0", "WidgetHost", "Does nothing, fast.", screens,
    create, render, handle_action, on_event, destroy,
    NULL, /* query: answers none */
};

WH_EXPORT const wh_plugin_descriptor *widget_host_entry(void) { return &descriptor; }
