/* A plugin whose descriptor leaves its identity to the manifest
 * (WH_DESCRIPTOR). Built with -DPARTIAL it states a name but no id: a
 * descriptor states all of its identity or none, so that one is refused. */
#include <stdlib.h>
#include <string.h>

#include "widget_host/widget_host.h"

/* The manifest is identity.widget.json beside this file: the test compiles with
 * -Wa,-I,<this directory> (TestSupport.compileC), so .incbin finds it. */
WH_MANIFEST_FILE("identity.widget.json")

struct wh_plugin { int unused; };

static wh_plugin *create(const wh_host *host) { (void)host; return calloc(1, sizeof(wh_plugin)); }

static int32_t render(wh_plugin *p, const char *screen, const char *params, const wh_output *out) {
    (void)p, (void)params;
    if (strcmp(screen, "main") != 0 && strcmp(screen, "more") != 0) return WH_UNKNOWN_SCREEN;
    const char *view = strcmp(screen, "main") == 0 ? "{\"view\":1,\"root\":{\"kind\":\"text\",\"text\":\"named by its manifest\"}}"
                                                   : "{\"view\":1,\"root\":{\"kind\":\"text\",\"text\":\"more\"}}";
    return out->write(out, view, strlen(view)) == 0 ? WH_OK : WH_FAILED;
}

static int32_t handle_action(wh_plugin *p, const char *a, const char *v) { (void)p, (void)a, (void)v; return WH_UNKNOWN_ACTION; }
static void on_event(wh_plugin *p, const char *t, const char *j) { (void)p, (void)t, (void)j; }
static void destroy(wh_plugin *p) { free(p); }

#ifdef PARTIAL
static const wh_plugin_descriptor descriptor = {
    WH_ABI_MAJOR, WH_ABI_MINOR, sizeof(wh_plugin_descriptor), 0, NULL, "Identity", NULL, NULL, NULL, NULL,
    create, render, handle_action, on_event, destroy, NULL,
};
#else
static const wh_plugin_descriptor descriptor = WH_DESCRIPTOR(create, render, handle_action, on_event, destroy, NULL);
#endif

WH_EXPORT const wh_plugin_descriptor *widget_host_entry(void) { return &descriptor; }
