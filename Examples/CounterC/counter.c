#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "widget_host/widget_host.h"

WH_MANIFEST_FILE("widget.json")
struct wh_plugin { int count; };

static wh_plugin *create(const wh_host *host) { (void)host; return calloc(1, sizeof(wh_plugin)); }
static void destroy(wh_plugin *p) { free(p); }
static void on_event(wh_plugin *p, const char *topic, const char *json) { (void)p; (void)topic; (void)json; }

static int32_t render(wh_plugin *p, const char *screen, const char *params, const wh_output *out) {
    char count[16];
    snprintf(count, sizeof count, "%d", p->count);
    wh_view_writer w;
    wh_view_begin(&w, out);
    wh_node_begin(&w, "hstack"), wh_children_begin(&w);
    wh_button(&w, "-", "down", NULL), wh_text(&w, count, NULL), wh_button(&w, "+", "up", NULL);
    wh_children_end(&w), wh_node_end(&w);
    (void)params;
    return strcmp(screen, "main") == 0 ? wh_view_end(&w) : WH_UNKNOWN_SCREEN;
}

static int32_t handle(wh_plugin *p, const char *action, const char *value) {
    (void)value;
    int up = strcmp(action, "up") == 0, down = strcmp(action, "down") == 0;
    p->count += up - down;
    return up || down ? WH_OK : WH_UNKNOWN_ACTION;
}

static const wh_plugin_descriptor descriptor = WH_DESCRIPTOR(create, render, handle, on_event, destroy, NULL);
WH_EXPORT const wh_plugin_descriptor *widget_host_entry(void) { return &descriptor; }
