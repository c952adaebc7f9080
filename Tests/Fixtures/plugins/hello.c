/* A complete plugin in plain C: the proof that the contract needs no Swift.
 *
 * The tests compile it with cc into a good plugin, and again with -D switches
 * into a corpus of broken ones, each broken in exactly one way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "widget_host/widget_host.h"

#ifndef PLUGIN_ID
#define PLUGIN_ID "org.example.hello"
#endif
#ifndef PLUGIN_VERSION
#define PLUGIN_VERSION "1.0.0"
#endif
#ifndef PLUGIN_NAME
#define PLUGIN_NAME "Hello"
#endif
#ifndef GREETED
#define GREETED "world"
#endif
#ifndef DESCRIPTOR_NAME
#define DESCRIPTOR_NAME PLUGIN_NAME
#endif
#ifndef ABI_MAJOR
#define ABI_MAJOR 1
#endif
#ifndef ABI_MINOR
#define ABI_MINOR 0
#endif
#ifndef REQUIRED_SERVICE
#define REQUIRED_SERVICE "widget-host.log/1"
#endif
#ifndef SUBSCRIBE_TOPIC
#define SUBSCRIBE_TOPIC "hello.*"
#endif
#ifndef STRUCT_SIZE
#define STRUCT_SIZE sizeof(wh_plugin_descriptor)
#endif
#ifndef ENTRY_NAME
#define ENTRY_NAME widget_host_entry
#endif

#define STR2(x) #x
#define STR(x) STR2(x)

/* Inline on purpose: PluginCorpusTests build broken and odd plugins from this
 * file by -D (a bad id, another ABI, a disagreeing name), so the manifest is
 * made of those macros; a file cannot be. ManifestFileTests builds it with
 * MANIFEST_FILE to embed a file instead. */
#ifdef MANIFEST_FILE
WH_MANIFEST_FILE(MANIFEST_FILE)
#else
WH_MANIFEST("{"
    "\"abi\": \"" STR(ABI_MAJOR) "." STR(ABI_MINOR) "\","
    "\"id\": \"" PLUGIN_ID "\","
    "\"name\": \"" PLUGIN_NAME "\","
    "\"version\": \"" PLUGIN_VERSION "\","
    "\"vendor\": \"Example\","
    "\"description\": \"Says hello, in C.\","
    "\"screens\": ["
        "{\"id\": \"main\", \"title\": \"Hello\", \"actions\": [\"wave\", \"rename\"]},"
        "{\"id\": \"about\", \"title\": \"About\"}"
    "],"
    "\"services\": {\"required\": [\"" REQUIRED_SERVICE "\"], \"optional\": []},"
    "\"topics\": {\"publish\": [], \"subscribe\": [\"" SUBSCRIBE_TOPIC "\"]}"
"}")
#endif

struct wh_plugin {
    const wh_host *host;
    wh_log_ref log;
    int waves;
    char name[64];
};

static wh_plugin *create(const wh_host *host) {
    wh_plugin *plugin = calloc(1, sizeof *plugin);
    if (!plugin) return NULL;
    plugin->host = host;
    plugin->log = wh_use_log(host);
    strcpy(plugin->name, GREETED);
    return plugin;
}

static int32_t emit(const wh_output *out, const char *text) {
    return out->write(out, text, strlen(text));
}

/* The about screen's view description version; another one is refused by the host. */
#ifndef VIEW_VERSION
#define VIEW_VERSION "1"
#endif

static int32_t render(wh_plugin *plugin, const char *screen, const char *params, const wh_output *out) {
    (void)params;
#ifdef CRASH_IN_RENDER
    *(volatile int *)0 = 1;
#endif
#ifdef HANG_IN_RENDER
    for (;;) {}
#endif
#ifdef SLOW_RENDER_MS
    usleep(SLOW_RENDER_MS * 1000); /* a validation that lasts long enough to be watched */
#endif
    char text[160];
    if (strcmp(screen, "main") == 0) {
        snprintf(text, sizeof text,
                 "{\"view\":1,\"root\":{\"kind\":\"text\",\"text\":\"Hello, %s! Waves: %d\"}}", plugin->name, plugin->waves);
    } else if (strcmp(screen, "about") == 0) {
        snprintf(text, sizeof text, "{\"view\":" VIEW_VERSION ",\"root\":{\"kind\":\"text\",\"text\":\"A plugin written in C\"}}");
    } else {
        return WH_UNKNOWN_SCREEN;
    }
    return emit(out, text) == 0 ? WH_OK : WH_FAILED;
}

static int32_t handle_action(wh_plugin *plugin, const char *action, const char *value) {
    if (strcmp(action, "wave") == 0) {
        plugin->waves++;
        wh_log(plugin->log, WH_LOG_INFO, "waved");
        return WH_OK;
    }
    if (strcmp(action, "rename") == 0) {
        if (!value || !*value || strlen(value) >= sizeof plugin->name || strchr(value, '"') || strchr(value, '\\'))
            return WH_INVALID_VALUE;
        strcpy(plugin->name, value);
        return WH_OK;
    }
    return WH_UNKNOWN_ACTION;
}

static void on_event(wh_plugin *plugin, const char *topic, const char *payload) {
    (void)topic; (void)payload;
    plugin->waves = 0;
}

static void destroy(wh_plugin *plugin) { free(plugin); }

/* The host-level "status" query: the widget's state for scripts. */
static int32_t query(wh_plugin *plugin, const char *query_id, const wh_output *out) {
    if (strcmp(query_id, "status") != 0) return WH_UNKNOWN_QUERY;
    char text[128];
    snprintf(text, sizeof text, "{\"name\":\"%s\",\"waves\":%d}", plugin->name, plugin->waves);
    return emit(out, text) == 0 ? WH_OK : WH_FAILED;
}

static const wh_screen screens[] = {
    {"main", "Hello"},
    {"about", "About"},
};

static const wh_plugin_descriptor descriptor = {
    .abi_major = ABI_MAJOR,
    .abi_minor = ABI_MINOR,
    .struct_size = STRUCT_SIZE,
    .screen_count = 2,
    .id = PLUGIN_ID,
    .name = DESCRIPTOR_NAME,
    .version = PLUGIN_VERSION,
    .vendor = "Example",
    .description = "Says hello, in C.",
    .screens = screens,
    .create = create,
    .render = render,
    .handle_action = handle_action,
    .on_event = on_event,
    .destroy = destroy,
    .query = query,
};

WH_EXPORT const wh_plugin_descriptor *ENTRY_NAME(void) {
#ifdef CRASH_IN_ENTRY
    *(volatile int *)0 = 1;
#endif
#ifdef NULL_ENTRY
    return NULL;
#endif
    return &descriptor;
}

#ifdef CLASHING_SYMBOL
/* A symbol as a Swift plugin built without the PluginKit module alias
 * exports it: the host holds that module, so discovery refuses the file. */
WH_EXPORT void wh_clashing_symbol(void) __asm__("\"" CLASHING_SYMBOL "\"");
WH_EXPORT void wh_clashing_symbol(void) {}
#endif
