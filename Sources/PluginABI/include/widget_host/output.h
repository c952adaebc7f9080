/* widget_host/output.h: a byte sink the host hands to the plugin.
 *
 * The host owns the sink and everything written to it; the plugin only calls
 * write(). This keeps allocation on one side of the boundary: no buffer ever
 * has to be freed by the side that did not allocate it.
 */
#ifndef WIDGET_HOST_OUTPUT_H
#define WIDGET_HOST_OUTPUT_H

#include <stdint.h>

typedef struct wh_output {
    /* Opaque to the plugin. */
    void *host_data;

    /* Appends len bytes from data. The host copies them before returning, so
     * data need only stay valid for the duration of the call.
     * Returns 0 on success, or -1 if the host refuses more output (the total
     * passed its size limit); the plugin should then stop writing.
     * Thread: only the thread that received this sink, and only until the call
     * that received it returns. */
    int32_t (*write)(const struct wh_output *output, const char *data, uint64_t len);
} wh_output;

#endif
