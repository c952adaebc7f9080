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

/* "widget-host.clock/2": clock/1's functions, then the user's time zone
 * (the host's `TZ`, else the system's), so that a widget shows a person
 * their own time in both modes: an isolated plugin's calls are answered by
 * the host, whose zone its child shares. */
#define WH_SERVICE_CLOCK_2 "widget-host.clock/2"

typedef struct wh_clock_v2 {
    /* As clock/1's now_ms. [any-thread] */
    int64_t (*now_ms)(const wh_host *host);
    /* As clock/1's wake_at. [any-thread] */
    int32_t (*wake_at)(const wh_host *host, int64_t at_ms);

    /* Seconds east of UTC in the user's zone at at_ms (daylight saving
     * included): 32400 in Tokyo, -14400 in New York in summer. [any-thread] */
    int32_t (*utc_offset_s)(const wh_host *host, int64_t at_ms);

    /* Writes the zone's abbreviation at at_ms ("JST", "CEST", "EDT"; "UTC"
     * when the user has no zone); returns 1 if written, 0 if not. [any-thread] */
    int32_t (*zone_abbreviation)(const wh_host *host, int64_t at_ms, const wh_output *out);
} wh_clock_v2;

WH_SERVICE_REF(clock2, wh_clock_v2, WH_SERVICE_CLOCK_2)

/* 0 (UTC) when the plugin has no clock/2. */
static inline int32_t wh_clock_utc_offset_s(wh_clock2_ref ref, int64_t at_ms) {
    return ref.table ? ref.table->utc_offset_s(ref.host, at_ms) : 0;
}
static inline int32_t wh_clock_zone_abbreviation(wh_clock2_ref ref, int64_t at_ms, const wh_output *out) {
    return ref.table ? ref.table->zone_abbreviation(ref.host, at_ms, out) : 0;
}

WH_END_DECLS

#endif
