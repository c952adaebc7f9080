/* widget_host/host.h: what the host offers a plugin instance.
 *
 * Every instance receives its own wh_host. The host uses it to tell plugins
 * apart, so a service reached through one instance's wh_host acts with that
 * plugin's grants and never another's.
 */
#ifndef WIDGET_HOST_HOST_H
#define WIDGET_HOST_HOST_H

#include <stdint.h>
#include "version.h"

WH_BEGIN_DECLS

typedef struct wh_host {
    /* The ABI the host speaks and sizeof(wh_host) as the host built it. A
     * plugin reads a field appended after these only when struct_size covers
     * it (the growth rule, version.h). */
    uint32_t abi_major;
    uint32_t abi_minor;
    uint32_t struct_size;

    /* Opaque to the plugin. */
    void *host_data;

    /* Looks up a host service by its versioned id, such as "widget-host.log/1"
     * (see services/). Returns a pointer to the service's table of functions,
     * or NULL if the host lacks the service or the plugin's manifest did not
     * declare it (capabilities are deny-by-default).
     * The table stays valid until the instance is destroyed. service_id is
     * borrowed for the call only.
     * [any-thread] */
    const void *(*get_service)(const struct wh_host *host, const char *service_id);

    /* Tells the host that the instance's state changed and its screen should
     * be rendered again (a price arrived, a timer fired). The host coalesces
     * requests and calls render() later on the main thread; never from inside
     * this call.
     * [any-thread] */
    void (*request_render)(const struct wh_host *host);
} wh_host;

/* What a typed wrapper answers when the plugin was not granted its service:
 * unlike every result a service itself gives. */
#define WH_NO_SERVICE (-100)

/* Typed wrappers. Each service header declares, through this macro, a
 * wh_NAME_ref (the service's table bound to the wh_host it came from) and
 * wh_use_NAME(host), which looks the table up once; its wrappers
 * wh_NAME_FUNCTION(ref, ...) then need no cast, no NULL check and no second
 * host, and answer WH_NO_SERVICE (or nothing) when the table is NULL:
 *
 *     wh_store_ref store = wh_use_store(host);          (in create)
 *     int32_t found = wh_store_get(store, "key", out);  (anywhere later)
 *
 * A service whose id the plugin names (a contract) declares the ref type
 * alone, WH_SERVICE_REF_TYPE, and a wh_use_NAME(host, id) of its own.
 */
#define WH_SERVICE_REF_TYPE(name, table_type)                                  \
    typedef struct wh_##name##_ref {                                           \
        const wh_host *host;                                                   \
        const table_type *table; /* NULL when not granted */                   \
    } wh_##name##_ref;

#define WH_SERVICE_REF(name, table_type, service_id)                           \
    WH_SERVICE_REF_TYPE(name, table_type)                                      \
    static inline wh_##name##_ref wh_use_##name(const wh_host *host) {         \
        wh_##name##_ref ref = {host, host ? (const table_type *)host->get_service(host, service_id) : NULL}; \
        return ref;                                                            \
    }

WH_END_DECLS

#endif
