/* report_line.h: building a report line without malloc or stdio, so that
 * signal handlers can write one (private to HostShim). */
#ifndef WIDGET_HOST_REPORT_LINE_H
#define WIDGET_HOST_REPORT_LINE_H

#include <stddef.h>
#include <stdint.h>

typedef struct wh_line {
    char text[1024];
    size_t length;
} wh_line;

static inline void wh_line_append(wh_line *line, const char *text) {
    while (*text && line->length < sizeof line->text - 2) line->text[line->length++] = *text++;
}

/* Appends at most `count` bytes, replacing control characters (a path
 * is the plugin's text, and must not break the line). */
static inline void wh_line_append_bytes(wh_line *line, const char *bytes, size_t count) {
    for (size_t i = 0; i < count && bytes[i] && line->length < sizeof line->text - 2; i++) {
        unsigned char c = (unsigned char)bytes[i];
        line->text[line->length++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
    }
}

static inline void wh_line_append_unsigned(wh_line *line, uint64_t value, unsigned base) {
    char digits[24];
    int count = 0;
    do {
        unsigned digit = (unsigned)(value % base);
        digits[count++] = (char)(digit < 10 ? '0' + digit : 'a' + digit - 10);
        value /= base;
    } while (value > 0 && count < (int)sizeof digits);
    if (base == 16) wh_line_append(line, "0x");
    while (count > 0 && line->length < sizeof line->text - 2) line->text[line->length++] = digits[--count];
}

static inline void wh_line_append_signed(wh_line *line, int64_t value) {
    if (value < 0) {
        wh_line_append(line, "-");
        wh_line_append_unsigned(line, (uint64_t)(-(value + 1)) + 1, 10);
    } else {
        wh_line_append_unsigned(line, (uint64_t)value, 10);
    }
}

/* Ends the line with a newline. */
static inline void wh_line_finish(wh_line *line) {
    line->text[line->length++] = '\n';
}

#endif
