/* widget_host/services/clock.h: the host's clock, "widget-host.clock/1".
 * Plugins read time here rather than from the system, so that `--now` and
 * tests can set it.
 *
 * This table never changes: how a service grows is the growth rule in version.h. */
#ifndef WIDGET_HOST_SERVICES_CLOCK_H
#define WIDGET_HOST_SERVICES_CLOCK_H

#include "../host.h"

WH_BEGIN_DECLS

#define WH_SERVICE_CLOCK "widget-host.clock/1"

typedef struct wh_clock_v1 {
    /* Milliseconds since 1970-01-01T00:00:00Z. [any-thread] */
    int64_t (*now_ms)(const wh_host *host);

    /* Asks the host to render the instance again once now_ms() reaches
     * at_ms (at once if it already has), as wh_host.request_render does:
     * how a timeline moves to its next entry. Timers are one-shot; setting
     * several is fine. Returns 0. [any-thread] */
    int32_t (*wake_at)(const wh_host *host, int64_t at_ms);
} wh_clock_v1;

WH_SERVICE_REF(clock, wh_clock_v1, WH_SERVICE_CLOCK)

/* 0 when the plugin has no clock. */
static inline int64_t wh_clock_now_ms(wh_clock_ref ref) {
    return ref.table ? ref.table->now_ms(ref.host) : 0;
}
static inline int32_t wh_clock_wake_at(wh_clock_ref ref, int64_t at_ms) {
    return ref.table ? ref.table->wake_at(ref.host, at_ms) : WH_NO_SERVICE;
}

WH_END_DECLS

#endif
