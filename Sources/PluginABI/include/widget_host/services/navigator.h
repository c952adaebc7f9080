/* widget_host/services/navigator.h: moving between screens,
 * "widget-host.navigator/1".
 *
 * The navigator holds a stack of screens, each a plugin id, a screen id and
 * its params. These functions publish the navigation events "nav.push",
 * "nav.pop", "nav.replace" and "nav.root" on the plugin's behalf. A target
 * is a deep link, "widget://PLUGIN/SCREEN?key=value", where PLUGIN is an id
 * or its last segment and SCREEN may be omitted for the plugin's first
 * screen; a plugin may open its own screens or another plugin's. An unknown
 * target leaves the stack as it was and publishes "nav.error".
 *
 * This table never changes: how a service grows is the growth rule in version.h. */
#ifndef WIDGET_HOST_SERVICES_NAVIGATOR_H
#define WIDGET_HOST_SERVICES_NAVIGATOR_H

#include "../host.h"

WH_BEGIN_DECLS

#define WH_SERVICE_NAVIGATOR "widget-host.navigator/1"

enum {
    WH_NAV_MALFORMED_LINK = -1,  /* the link does not parse */
};

typedef struct wh_navigator_v1 {
    /* Pushes the target. Returns 0 once requested, or an error.
     * link is borrowed for the call. [any-thread] */
    int32_t (*push)(const wh_host *host, const char *link);
    /* Replaces the top of the stack with the target. [any-thread] */
    int32_t (*replace)(const wh_host *host, const char *link);
    /* Clears the stack down to the target. [any-thread] */
    int32_t (*root)(const wh_host *host, const char *link);
    /* Pops the top screen; the last screen is never popped. [any-thread] */
    int32_t (*pop)(const wh_host *host);
} wh_navigator_v1;

WH_SERVICE_REF(navigator, wh_navigator_v1, WH_SERVICE_NAVIGATOR)

static inline int32_t wh_navigator_push(wh_navigator_ref ref, const char *link) {
    return ref.table ? ref.table->push(ref.host, link) : WH_NO_SERVICE;
}
static inline int32_t wh_navigator_replace(wh_navigator_ref ref, const char *link) {
    return ref.table ? ref.table->replace(ref.host, link) : WH_NO_SERVICE;
}
static inline int32_t wh_navigator_root(wh_navigator_ref ref, const char *link) {
    return ref.table ? ref.table->root(ref.host, link) : WH_NO_SERVICE;
}
static inline int32_t wh_navigator_pop(wh_navigator_ref ref) {
    return ref.table ? ref.table->pop(ref.host) : WH_NO_SERVICE;
}

WH_END_DECLS

#endif
