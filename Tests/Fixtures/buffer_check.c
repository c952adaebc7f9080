/* wh_buffer (output.h) as a service would drive it: an answer that fits,
 * one that does not, and the buffer reused. Prints what it holds after
 * each, for CHeaderTests to compare. */
#include <stdio.h>
#include "widget_host/widget_host.h"

static void show(const wh_buffer *buffer, int32_t status) {
    printf("%d [%s] %llu %d\n", status, buffer->data, (unsigned long long)buffer->len, buffer->truncated);
}

int main(void) {
    char bytes[8];
    wh_buffer answer;
    const wh_output *out = wh_buffer_init(&answer, bytes, sizeof bytes);
    show(&answer, out->write(out, "abc", 3));
    show(&answer, out->write(out, "defgh", 5));
    out = wh_buffer_init(&answer, bytes, sizeof bytes);
    show(&answer, out->write(out, "", 0));
    return 0;
}
