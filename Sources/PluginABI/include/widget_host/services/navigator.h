/* widget_host/services/navigator.h: moving between screens,
 * "widget-host.navigator/1".
 *
 * The navigator holds a stack of screens, each a plugin id, a screen id and
 * its params. These functions publish the navigation events "nav.push",
 * "nav.pop", "nav.replace" and "nav.root" on the plugin's behalf. A target
 * is a deep link, "widget://PLUGIN/SCREEN?key=value", where PLUGIN is an id
 * or its last segment and SCREEN may be omitted for the plugin's first
 * screen; a plugin may open its own screens or another plugin's. An unknown
 * target leaves the stack as it was and publishes "nav.error". */
#ifndef WIDGET_HOST_SERVICES_NAVIGATOR_H
#define WIDGET_HOST_SERVICES_NAVIGATOR_H

#include "../host.h"

#define WH_SERVICE_NAVIGATOR "widget-host.navigator/1"

enum {
    WH_NAV_MALFORMED_LINK = -1,  /* the link does not parse */
};

typedef struct wh_navigator_v1 {
    /* Pushes the target. Returns 0 once requested, or an error.
     * link is borrowed for the call. Thread: any thread. */
    int32_t (*push)(const wh_host *host, const char *link);
    /* Replaces the top of the stack with the target. */
    int32_t (*replace)(const wh_host *host, const char *link);
    /* Clears the stack down to the target. */
    int32_t (*root)(const wh_host *host, const char *link);
    /* Pops the top screen; the last screen is never popped. */
    int32_t (*pop)(const wh_host *host);
} wh_navigator_v1;

#endif
