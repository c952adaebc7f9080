/* widget_host/services/store.h: the shared container, "widget-host.store/1".
 *
 * A key-value store shared by apps and widgets, like an App Group: the
 * `widget-host store` command (or an app) writes, widgets read. Keys are
 * 1 to 200 bytes of [A-Za-z0-9._-], starting with a letter or digit. Writes
 * are atomic: a reader sees the old value or the new one, never a mix. Each
 * write publishes "store.changed" on the bus with {"key": ..., "change":
 * "put"|"remove"}, so subscribed widgets can reload.
 *
 * Groups. A key's group is the part before its first dot ("trips" for
 * "trips.bookings"). A plugin reaches only keys of the groups its manifest
 * declares, "store": {"groups": {"trips": "read", "mine": "read-write"}},
 * and hears store.changed only for groups it may read. Any other key, or a
 * write to a group declared "read", answers WH_STORE_BAD_KEY (and the host
 * logs the denial); a key without a dot is the app's alone.
 *
 * This table never changes: how a service grows is the growth rule in version.h. */
#ifndef WIDGET_HOST_SERVICES_STORE_H
#define WIDGET_HOST_SERVICES_STORE_H

#include "../host.h"
#include "../output.h"

WH_BEGIN_DECLS

#define WH_SERVICE_STORE "widget-host.store/1"

enum {
    WH_STORE_MISSING = 0,
    WH_STORE_FOUND = 1,
    WH_STORE_BAD_KEY = -1,   /* the key breaks the rules above, or its group is not granted */
    WH_STORE_IO_ERROR = -2,  /* the disk refused; the old value is intact */
};

typedef struct wh_store_v1 {
    /* Writes the value of key to out. Returns WH_STORE_FOUND, WH_STORE_MISSING
     * or an error. [any-thread] */
    int32_t (*get)(const wh_host *host, const char *key, const wh_output *out);

    /* Replaces the value of key with len bytes from data, atomically.
     * Returns 0 or an error. data is borrowed for the call. [any-thread] */
    int32_t (*put)(const wh_host *host, const char *key, const char *data, uint64_t len);

    /* Removes key. Returns WH_STORE_FOUND if it existed, WH_STORE_MISSING if
     * not, or an error. [any-thread] */
    int32_t (*remove)(const wh_host *host, const char *key);
} wh_store_v1;

WH_SERVICE_REF(store, wh_store_v1, WH_SERVICE_STORE)

static inline int32_t wh_store_get(wh_store_ref ref, const char *key, const wh_output *out) {
    return ref.table ? ref.table->get(ref.host, key, out) : WH_NO_SERVICE;
}
static inline int32_t wh_store_put(wh_store_ref ref, const char *key, const char *data, uint64_t len) {
    return ref.table ? ref.table->put(ref.host, key, data, len) : WH_NO_SERVICE;
}
static inline int32_t wh_store_remove(wh_store_ref ref, const char *key) {
    return ref.table ? ref.table->remove(ref.host, key) : WH_NO_SERVICE;
}

WH_END_DECLS

#endif
