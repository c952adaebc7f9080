/* widget_host/services/bus.h: publish and subscribe, "widget-host.bus/1".
 *
 * Topics are dot-separated segments of [A-Za-z0-9_-], such as
 * "checkout.changed". Subscriptions may use "*" for one segment
 * ("checkout.*") and, last, "#" for any number ("nav.#", or "#" for all).
 * Payloads are UTF-8 JSON; an invalid one is refused and never delivered.
 * A plugin that publishes more than the host's limit of events in one
 * second (1000 unless configured) is stopped, in process as when isolated.
 * A plugin may publish and subscribe only to what its manifest's "topics"
 * declare (a declared "checkout.*" allows subscribing to "checkout.ready").
 *
 * Events reach the instance through its descriptor's on_event, on the
 * host's main thread, one at a time, in the order they were published.
 *
 * This table never changes: how a service grows is the growth rule in version.h. */
#ifndef WIDGET_HOST_SERVICES_BUS_H
#define WIDGET_HOST_SERVICES_BUS_H

#include "../host.h"

WH_BEGIN_DECLS

#define WH_SERVICE_BUS "widget-host.bus/1"

enum {
    WH_BUS_DENIED = -1,           /* the manifest does not declare the topic */
    WH_BUS_INVALID_TOPIC = -2,    /* the topic or pattern breaks the rules */
    WH_BUS_INVALID_PAYLOAD = -3,  /* the payload is not UTF-8 JSON */
    WH_BUS_TOO_LARGE = -4,        /* the payload is over WH_BUS_MAX_PAYLOAD_BYTES */
    WH_BUS_FLOODED = -5,          /* the plugin published more events in a second than
                                     the host allows, and is stopped: nothing more is
                                     published or delivered */
};

/* The largest payload the bus carries, in bytes: events are notices, not
 * bulk data (put that in the store and publish its key). */
#define WH_BUS_MAX_PAYLOAD_BYTES (1024 * 1024)

typedef struct wh_bus_v1 {
    /* Publishes an event. Returns 0 once it is queued, or a WH_BUS_* error.
     * Never waits for delivery, so it is safe inside on_event.
     * Both strings are borrowed for the call. [any-thread] */
    int32_t (*publish)(const wh_host *host, const char *topic, const char *payload_json);

    /* Subscribes the instance to pattern. Returns a subscription id (> 0)
     * or a WH_BUS_* error. [any-thread] */
    int64_t (*subscribe)(const wh_host *host, const char *pattern);

    /* Ends a subscription; no event for it is delivered after this returns
     * on the main thread. Unknown ids are ignored. [any-thread] */
    void (*unsubscribe)(const wh_host *host, int64_t subscription);
} wh_bus_v1;

WH_SERVICE_REF(bus, wh_bus_v1, WH_SERVICE_BUS)

static inline int32_t wh_bus_publish(wh_bus_ref ref, const char *topic, const char *payload_json) {
    return ref.table ? ref.table->publish(ref.host, topic, payload_json) : WH_NO_SERVICE;
}
static inline int64_t wh_bus_subscribe(wh_bus_ref ref, const char *pattern) {
    return ref.table ? ref.table->subscribe(ref.host, pattern) : WH_NO_SERVICE;
}
static inline void wh_bus_unsubscribe(wh_bus_ref ref, int64_t subscription) {
    if (ref.table) ref.table->unsubscribe(ref.host, subscription);
}

WH_END_DECLS

#endif
