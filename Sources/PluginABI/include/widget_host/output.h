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

/* A sink a plugin hands to a service that answers with bytes (store get,
 * http get, contract ask, config get): an array of the plugin's own, kept
 * NUL-terminated, that notes an answer too long for it.
 *
 *   char bytes[256];
 *   wh_buffer answer;
 *   if (wh_store_get(store, "count", wh_buffer_init(&answer, bytes, sizeof bytes)) == WH_STORE_FOUND
 *       && !answer.truncated)
 *       use(answer.data, answer.len);
 *
 * A write that does not fit keeps what does, sets truncated and returns -1,
 * so the service stops. Reuse it by calling wh_buffer_init again. */
typedef struct wh_buffer {
    wh_output output;
    char *data;         /* the plugin's array; data[len] is always 0 */
    uint64_t len;       /* bytes written, not counting the 0 */
    uint64_t capacity;  /* the array's size, the 0 included */
    int truncated;      /* 1 once an answer did not fit */
} wh_buffer;

static inline int32_t wh_buffer_write_(const wh_output *output, const char *data, uint64_t len) {
    wh_buffer *buffer = (wh_buffer *)output->host_data;
    uint64_t room = buffer->capacity - 1 - buffer->len;
    if (len > room) {
        len = room;
        buffer->truncated = 1;
    }
    for (uint64_t i = 0; i < len; i++) buffer->data[buffer->len + i] = data[i];
    buffer->len += len;
    buffer->data[buffer->len] = 0;
    return buffer->truncated ? -1 : 0;
}

/* Empties buffer over storage (capacity bytes, at least 1) and returns the
 * sink to pass to a service. */
static inline const wh_output *wh_buffer_init(wh_buffer *buffer, char *storage, uint64_t capacity) {
    buffer->output.host_data = buffer;
    buffer->output.write = wh_buffer_write_;
    buffer->data = storage;
    buffer->len = 0;
    buffer->capacity = capacity;
    buffer->truncated = 0;
    storage[0] = 0;
    return &buffer->output;
}

WH_END_DECLS

#endif
