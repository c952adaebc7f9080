/* widget_host/view_writer.h: writes a view description into a wh_output,
 * escaping every string, so a title with a quote cannot break the view.
 *
 * Header-only and optional: a plugin that writes its JSON by hand need not
 * include it. The writer places the commas itself; a caller only opens and
 * closes nodes in order. Once a write fails (the host refused more output),
 * every later call does nothing and wh_view_end() returns WH_FAILED.
 *
 *     wh_view_writer w;
 *     wh_view_begin(&w, out);
 *     wh_node_begin(&w, "vstack");
 *     wh_children_begin(&w);
 *     wh_text(&w, title, "title");
 *     wh_button(&w, "Say \"hi\"", "greet", NULL);
 *     wh_children_end(&w);
 *     wh_node_end(&w);
 *     return wh_view_end(&w);
 *
 * [call-thread]: the thread that received `out`, during the call that received it.
 */
#ifndef WIDGET_HOST_VIEW_WRITER_H
#define WIDGET_HOST_VIEW_WRITER_H

#include <stdint.h>
#include <string.h>
#include "output.h"
#include "plugin.h"

WH_BEGIN_DECLS

typedef struct wh_view_writer {
    const wh_output *out;
    int32_t failed;     /* set once a write was refused */
    int32_t need_comma; /* a value just ended at this level */
} wh_view_writer;

static inline void wh_view_raw(wh_view_writer *w, const char *bytes, uint64_t len) {
    if (w->failed || len == 0) return;
    if (w->out->write(w->out, bytes, len) != 0) w->failed = 1;
}

static inline void wh_view_literal(wh_view_writer *w, const char *text) { wh_view_raw(w, text, strlen(text)); }

/* A JSON string: quotes, backslashes and control characters escaped; other
 * bytes (UTF-8 included) copied as they are, in runs. */
static inline void wh_view_string(wh_view_writer *w, const char *text) {
    static const char hex[] = "0123456789abcdef";
    const char *run = text;
    wh_view_raw(w, "\"", 1);
    for (const char *p = text; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        wh_view_raw(w, run, (uint64_t)(p - run));
        char escape[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
        if (c == '"' || c == '\\') { escape[1] = (char)c; wh_view_raw(w, escape, 2); }
        else if (c == '\n') wh_view_raw(w, "\\n", 2);
        else if (c == '\t') wh_view_raw(w, "\\t", 2);
        else wh_view_raw(w, escape, 6);
        run = p + 1;
    }
    wh_view_raw(w, run, strlen(run));
    wh_view_raw(w, "\"", 1);
}

static inline void wh_view_comma(wh_view_writer *w) {
    if (w->need_comma) wh_view_raw(w, ",", 1);
    w->need_comma = 0;
}

static inline void wh_view_begin(wh_view_writer *w, const wh_output *out) {
    w->out = out;
    w->failed = 0;
    w->need_comma = 0;
    wh_view_literal(w, "{\"view\":1,\"root\":");
}

/* Declares the screen an error state, the message `launch --format json`
 * carries as "error" (see docs/view-description.md). Call it after the root
 * node ends, before wh_view_end(). */
static inline void wh_view_error(wh_view_writer *w, const char *message) {
    wh_view_literal(w, ",\"error\":");
    wh_view_string(w, message);
}

/* Closes the description; WH_OK if every byte was accepted. */
static inline int32_t wh_view_end(wh_view_writer *w) {
    wh_view_raw(w, "}", 1);
    return w->failed ? WH_FAILED : WH_OK;
}

/* Opens a node of `kind` (vstack, hstack, section, text, button, field, list,
 * divider, spacer, badge, image, progress, link); attributes follow. */
static inline void wh_node_begin(wh_view_writer *w, const char *kind) {
    wh_view_comma(w);
    wh_view_literal(w, "{\"kind\":");
    wh_view_string(w, kind);
    w->need_comma = 1;
}

static inline void wh_node_end(wh_view_writer *w) {
    wh_view_raw(w, "}", 1);
    w->need_comma = 1;
}

/* A string attribute of the open node; a NULL value writes nothing. */
static inline void wh_attr(wh_view_writer *w, const char *key, const char *value) {
    if (!value) return;
    wh_view_comma(w);
    wh_view_string(w, key);
    wh_view_raw(w, ":", 1);
    wh_view_string(w, value);
    w->need_comma = 1;
}

/* The open node's "children" (or, with wh_array_begin, any array key). */
static inline void wh_array_begin(wh_view_writer *w, const char *key) {
    wh_view_comma(w);
    wh_view_string(w, key);
    wh_view_raw(w, ":[", 2);
}

static inline void wh_array_end(wh_view_writer *w) {
    wh_view_raw(w, "]", 1);
    w->need_comma = 1;
}

static inline void wh_children_begin(wh_view_writer *w) { wh_array_begin(w, "children"); }
static inline void wh_children_end(wh_view_writer *w) { wh_array_end(w); }

/* The common leaves in one call. `style` and `value` may be NULL. */
static inline void wh_text(wh_view_writer *w, const char *text, const char *style) {
    wh_node_begin(w, "text");
    wh_attr(w, "text", text);
    wh_attr(w, "style", style);
    wh_node_end(w);
}

static inline void wh_button(wh_view_writer *w, const char *title, const char *action, const char *value) {
    wh_node_begin(w, "button");
    wh_attr(w, "title", title);
    wh_attr(w, "action", action);
    wh_attr(w, "value", value);
    wh_node_end(w);
}

WH_END_DECLS

#endif
