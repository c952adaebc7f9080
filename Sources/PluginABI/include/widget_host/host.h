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

typedef struct wh_host {
    /* The ABI the host speaks and sizeof(wh_host) as the host built it. A
     * plugin built against a newer minor must check struct_size before it
     * reads a field appended after the ones it knows. */
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
     * Thread: any thread. */
    const void *(*get_service)(const struct wh_host *host, const char *service_id);

    /* Tells the host that the instance's state changed and its screen should
     * be rendered again (a price arrived, a timer fired). The host coalesces
     * requests and calls render() later on the main thread; never from inside
     * this call.
     * Thread: any thread. */
    void (*request_render)(const struct wh_host *host);
} wh_host;

#endif
