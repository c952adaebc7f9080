/* widget_host/output.h: a byte sink one side hands to the other.
 *
 * The side that makes the sink owns it and everything written to it; the
 * other side only calls write(). The host hands one to render() for the view
 * description; a plugin hands one to services that return data (config,
 * store, http). This keeps allocation on one side of the boundary: no buffer
 * ever has to be freed by the side that did not allocate it.
 */
#ifndef WIDGET_HOST_OUTPUT_H
#define WIDGET_HOST_OUTPUT_H

#include <stdint.h>
#include "version.h"

WH_BEGIN_DECLS

typedef struct wh_output {
    /* The owner's context; opaque to the side that calls write(). (The name
     * is historical: when a plugin makes the sink, this is the plugin's.) */
    void *host_data;

    /* Appends len bytes from data. The host copies them before returning, so
     * data need only stay valid for the duration of the call.
     * Returns 0 on success, or -1 if the host refuses more output (the total
     * passed its size limit); the plugin should then stop writing.
     * Returns -1 from the owner mean "stop".
     * [call-thread]: the thread that received this sink, until the call that
     * received it returns. */
    int32_t (*write)(const struct wh_output *output, const char *data, uint64_t len);
} wh_output;

WH_END_DECLS

#endif
