// A plugin written in C++ against the public headers alone, for
// CHeaderTests.swift: it must compile with g++ -Wall -Wextra -Werror, and it
// uses the typed service wrappers and the view writer.
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include "widget_host/widget_host.h"

/* The manifest is cxx_plugin.widget.json beside this file: the test compiles with
 * -Wa,-I,<this directory> (TestSupport.compileC), so .incbin finds it. */
WH_MANIFEST_FILE("cxx_plugin.widget.json")

struct wh_plugin {
    wh_log_ref log;
    wh_store_ref store;
    wh_bus_ref bus;
    int saved;
};

static wh_plugin *create(const wh_host *host) {
    wh_plugin *p = static_cast<wh_plugin *>(std::calloc(1, sizeof(wh_plugin)));
    if (!p) return nullptr;
    p->log = wh_use_log(host);
    p->store = wh_use_store(host);
    p->bus = wh_use_bus(host);
    return p;
}

static int32_t render(wh_plugin *p, const char *screen, const char *, const wh_output *out) {
    if (std::strcmp(screen, "main") != 0) return WH_UNKNOWN_SCREEN;
    char text[96];
    // The bus was not declared, so not granted: its wrapper says so.
    std::snprintf(text, sizeof text, "saved %d, bus %d", p->saved, static_cast<int>(wh_bus_publish(p->bus, "x", "{}")));
    wh_view_writer w;
    wh_view_begin(&w, out);
    wh_text(&w, text, nullptr);
    return wh_view_end(&w);
}

static int32_t handle_action(wh_plugin *p, const char *action, const char *value) {
    if (std::strcmp(action, "save") != 0) return WH_UNKNOWN_ACTION;
    const char *data = value ? value : "";
    if (wh_store_put(p->store, "cxx.value", data, std::strlen(data)) != 0) return WH_FAILED;
    p->saved++;
    wh_log(p->log, WH_LOG_INFO, "saved from C++");
    return WH_OK;
}

static void on_event(wh_plugin *, const char *, const char *) {}
static void destroy(wh_plugin *p) { std::free(p); }

static const wh_screen screens[] = {{"main", "C++"}};
static const wh_plugin_descriptor descriptor = {
    WH_ABI_MAJOR, WH_ABI_MINOR, sizeof(wh_plugin_descriptor), 1,
    "org.example.cxx", "C++", "1.0.0", nullptr, "A plugin in C++", screens,
    create, render, handle_action, on_event, destroy, nullptr,
};

WH_EXPORT const wh_plugin_descriptor *widget_host_entry(void) { return &descriptor; }
