/* widget_host/services/clock.h: the host's clock, "widget-host.clock/1".
 * Plugins read time here rather than from the system, so that `--now` and
 * tests can set it. */
#ifndef WIDGET_HOST_SERVICES_CLOCK_H
#define WIDGET_HOST_SERVICES_CLOCK_H

#include "../host.h"

#define WH_SERVICE_CLOCK "widget-host.clock/1"

typedef struct wh_clock_v1 {
    /* Milliseconds since 1970-01-01T00:00:00Z. Thread: any thread. */
    int64_t (*now_ms)(const wh_host *host);

    /* Asks the host to render the instance again once now_ms() reaches
     * at_ms (at once if it already has), as wh_host.request_render does:
     * how a timeline moves to its next entry. Timers are one-shot; setting
     * several is fine. Returns 0. Thread: any thread. */
    int32_t (*wake_at)(const wh_host *host, int64_t at_ms);
} wh_clock_v1;

#endif
