/* A plugin in plain C that exercises the host services through the C ABI,
 * for the capability tests (ServiceCapabilityTests.swift).
 *
 * It declares only some services and topics. Each action calls one service
 * with the action's value and records what happened; the "main" screen
 * renders that record as JSON, and the "events" screen renders every bus
 * event that reached on_event. So a test drives the plugin with actions and
 * reads back, as JSON, exactly what the host answered.
 *
 * Actions (value in brackets):
 *   service [ID]              host->get_service(ID) -> {"found": bool}
 *   publish [TOPIC PAYLOAD]   bus.publish -> {"status": n}
 *   subscribe [PATTERN]       bus.subscribe -> {"id": n}
 *   unsubscribe [ID]          bus.unsubscribe
 *   config [KEY] or none      config.get -> {"found": n, "value": json|null}
 *   store_get [KEY]           store.get -> {"status": n, "value": "text"|null}
 *   store_put [KEY=VALUE]     store.put -> {"status": n}
 *   store_remove [KEY]        store.remove -> {"status": n}
 *   clock                     clock.now_ms -> {"now": n}
 *   nav_push, nav_replace, nav_root [LINK], nav_pop -> {"status": n}
 *   log [MESSAGE]             log.log at warning level
 *   render_request            host->request_render
 *
 * -DPLUGIN_ID="..." changes the id; -DREQUIRE_FUTURE also requires a service
 * no host provides, so loading must fail. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "widget_host/widget_host.h"

#ifndef PLUGIN_ID
#define PLUGIN_ID "org.example.services"
#endif
#ifdef REQUIRE_FUTURE
#define EXTRA_REQUIRED ", \"widget-host.future/9\""
#else
#define EXTRA_REQUIRED ""
#endif

/* The store groups it declares; a hostile build declares none, or others. */
#ifndef STORE_GROUPS
#define STORE_GROUPS "\"shared\": \"read-write\", \"app\": \"read\", \"iso\": \"read-write\", \"missing\": \"read\""
#endif

/* Inline on purpose: the tests build variants by -D (PLUGIN_ID, EXTRA_REQUIRED, ...)
 * that change what the manifest declares, which a fixed file cannot. */
WH_MANIFEST("{"
    "\"abi\": \"1.0\","
    "\"id\": \"" PLUGIN_ID "\","
    "\"name\": \"Services\","
    "\"version\": \"1.0.0\","
    "\"vendor\": \"Example\","
    "\"description\": \"Exercises the host services.\","
    "\"screens\": ["
        "{\"id\": \"main\", \"title\": \"Last result\", \"actions\": [\"service\", \"publish\", \"subscribe\","
            " \"unsubscribe\", \"config\", \"store_get\", \"store_put\", \"store_remove\", \"clock\", \"nav_push\","
            " \"nav_replace\", \"nav_root\", \"nav_pop\", \"log\", \"render_request\"]},"
        "{\"id\": \"events\", \"title\": \"Events\"}"
    "],"
    "\"services\": {"
        "\"required\": [\"widget-host.log/1\"" EXTRA_REQUIRED "],"
        "\"optional\": [\"widget-host.bus/1\", \"widget-host.config/1\", \"widget-host.store/1\","
                      " \"widget-host.clock/1\", \"widget-host.navigator/1\", \"widget-host.future/8\"]"
    "},"
    "\"topics\": {\"publish\": [\"services.out\", \"services.status.*\"],"
                " \"subscribe\": [\"feed.*\", \"store.changed\"]},"
    "\"store\": {\"groups\": {" STORE_GROUPS "}}"
"}")

/* A growing text buffer that never overflows: it truncates instead. */
typedef struct text {
    char data[16384];
    size_t length;
} text;

static void append(text *t, const char *format, ...) {
    if (t->length >= sizeof t->data - 1) return;
    va_list args;
    va_start(args, format);
    int written = vsnprintf(t->data + t->length, sizeof t->data - t->length, format, args);
    va_end(args);
    if (written < 0) return;
    t->length += (size_t)written;
    if (t->length > sizeof t->data - 1) t->length = sizeof t->data - 1;
}

/* Appends bytes as a JSON string literal. */
static void append_json_string(text *t, const char *bytes, size_t count) {
    append(t, "\"");
    for (size_t i = 0; i < count; i++) {
        unsigned char c = (unsigned char)bytes[i];
        if (c == '"' || c == '\\') append(t, "\\%c", c);
        else if (c < 0x20) append(t, "\\u%04x", c);
        else append(t, "%c", c);
    }
    append(t, "\"");
}

/* A wh_output the plugin provides to the host (config and store write here). */
typedef struct sink {
    wh_output output; /* first, so a wh_output pointer is a sink pointer */
    char data[8192];
    size_t length;
    int refused;
} sink;

static int32_t sink_write(const wh_output *output, const char *data, uint64_t length) {
    sink *s = (sink *)output;
    if (length > sizeof s->data - 1 - s->length) {
        s->refused = 1;
        return -1;
    }
    memcpy(s->data + s->length, data, (size_t)length);
    s->length += (size_t)length;
    s->data[s->length] = 0;
    return 0;
}

static void sink_init(sink *s) {
    memset(s, 0, sizeof *s);
    s->output.write = sink_write;
}

struct wh_plugin {
    const wh_host *host;
    text last;
    text events;
    int event_count;
};

static wh_plugin *create(const wh_host *host) {
    wh_plugin *plugin = calloc(1, sizeof *plugin);
    if (!plugin) return NULL;
    plugin->host = host;
    append(&plugin->last, "{}");
    return plugin;
}

static int32_t emit(const wh_output *out, const char *data, size_t length) {
    return out->write(out, data, length);
}

static int32_t render(wh_plugin *plugin, const char *screen, const char *params, const wh_output *out) {
    (void)params;
    if (strcmp(screen, "main") == 0) {
        return emit(out, plugin->last.data, plugin->last.length) == 0 ? WH_OK : WH_FAILED;
    }
    if (strcmp(screen, "events") == 0) {
        text t = {0};
        append(&t, "{\"count\": %d, \"events\": [%s]}", plugin->event_count, plugin->events.data);
        return emit(out, t.data, t.length) == 0 ? WH_OK : WH_FAILED;
    }
    return WH_UNKNOWN_SCREEN;
}

/* Starts the record of an action: {"action": "NAME" */
static void begin(wh_plugin *plugin, const char *action) {
    plugin->last.length = 0;
    plugin->last.data[0] = 0;
    append(&plugin->last, "{\"action\": \"%s\"", action);
}

static const void *service(wh_plugin *plugin, const char *id) {
    return plugin->host->get_service(plugin->host, id);
}

static int32_t unavailable(wh_plugin *plugin) {
    append(&plugin->last, ", \"unavailable\": true}");
    return WH_OK;
}

static int32_t handle_action(wh_plugin *plugin, const char *action, const char *value) {
    const wh_host *host = plugin->host;
    text *last = &plugin->last;

    if (strcmp(action, "service") == 0) {
        if (!value) return WH_INVALID_VALUE;
        begin(plugin, action);
        append(last, ", \"id\": ");
        append_json_string(last, value, strlen(value));
        append(last, ", \"found\": %s}", service(plugin, value) ? "true" : "false");
        return WH_OK;
    }
    if (strcmp(action, "publish") == 0 || strcmp(action, "subscribe") == 0 || strcmp(action, "unsubscribe") == 0) {
        if (!value) return WH_INVALID_VALUE;
        begin(plugin, action);
        const wh_bus_v1 *bus = service(plugin, WH_SERVICE_BUS);
        if (!bus) return unavailable(plugin);
        if (action[0] == 'p') {
            const char *space = strchr(value, ' ');
            if (!space) return WH_INVALID_VALUE;
            char topic[512];
            size_t length = (size_t)(space - value);
            if (length >= sizeof topic) return WH_INVALID_VALUE;
            memcpy(topic, value, length);
            topic[length] = 0;
            append(last, ", \"topic\": ");
            append_json_string(last, topic, length);
            append(last, ", \"status\": %d}", (int)bus->publish(host, topic, space + 1));
        } else if (action[0] == 's') {
            append(last, ", \"pattern\": ");
            append_json_string(last, value, strlen(value));
            append(last, ", \"id\": %lld}", (long long)bus->subscribe(host, value));
        } else {
            long long id = strtoll(value, NULL, 10);
            bus->unsubscribe(host, (int64_t)id);
            append(last, ", \"id\": %lld}", id);
        }
        return WH_OK;
    }
    if (strcmp(action, "config") == 0) {
        begin(plugin, action);
        const wh_config_v1 *config = service(plugin, WH_SERVICE_CONFIG);
        if (!config) return unavailable(plugin);
        sink s;
        sink_init(&s);
        int32_t found = config->get(host, value, &s.output);
        append(last, ", \"found\": %d, \"value\": %s}", (int)found, found == 1 && s.length > 0 ? s.data : "null");
        return WH_OK;
    }
    if (strncmp(action, "store_", 6) == 0) {
        if (!value) return WH_INVALID_VALUE;
        begin(plugin, action);
        const wh_store_v1 *store = service(plugin, WH_SERVICE_STORE);
        if (!store) return unavailable(plugin);
        if (strcmp(action, "store_get") == 0) {
            sink s;
            sink_init(&s);
            int32_t status = store->get(host, value, &s.output);
            append(last, ", \"status\": %d, \"value\": ", (int)status);
            if (status == WH_STORE_FOUND) append_json_string(last, s.data, s.length);
            else append(last, "null");
            append(last, "}");
        } else if (strcmp(action, "store_put") == 0) {
            const char *equals = strchr(value, '=');
            if (!equals) return WH_INVALID_VALUE;
            char key[512];
            size_t length = (size_t)(equals - value);
            if (length >= sizeof key) return WH_INVALID_VALUE;
            memcpy(key, value, length);
            key[length] = 0;
            append(last, ", \"status\": %d}", (int)store->put(host, key, equals + 1, strlen(equals + 1)));
        } else if (strcmp(action, "store_remove") == 0) {
            append(last, ", \"status\": %d}", (int)store->remove(host, value));
        } else {
            return WH_UNKNOWN_ACTION;
        }
        return WH_OK;
    }
    if (strcmp(action, "clock") == 0) {
        begin(plugin, action);
        const wh_clock_v1 *clock = service(plugin, WH_SERVICE_CLOCK);
        if (!clock) return unavailable(plugin);
        append(last, ", \"now\": %lld}", (long long)clock->now_ms(host));
        return WH_OK;
    }
    if (strncmp(action, "nav_", 4) == 0) {
        begin(plugin, action);
        const wh_navigator_v1 *nav = service(plugin, WH_SERVICE_NAVIGATOR);
        if (!nav) return unavailable(plugin);
        int32_t status;
        if (strcmp(action, "nav_pop") == 0) status = nav->pop(host);
        else if (!value) return WH_INVALID_VALUE;
        else if (strcmp(action, "nav_push") == 0) status = nav->push(host, value);
        else if (strcmp(action, "nav_replace") == 0) status = nav->replace(host, value);
        else if (strcmp(action, "nav_root") == 0) status = nav->root(host, value);
        else return WH_UNKNOWN_ACTION;
        append(last, ", \"status\": %d}", (int)status);
        return WH_OK;
    }
    if (strcmp(action, "log") == 0) {
        if (!value) return WH_INVALID_VALUE;
        begin(plugin, action);
        const wh_log_v1 *log = service(plugin, WH_SERVICE_LOG);
        if (!log) return unavailable(plugin);
        log->log(host, WH_LOG_WARNING, value);
        append(last, "}");
        return WH_OK;
    }
    if (strcmp(action, "render_request") == 0) {
        begin(plugin, action);
        host->request_render(host);
        append(last, "}");
        return WH_OK;
    }
    return WH_UNKNOWN_ACTION;
}

static void on_event(wh_plugin *plugin, const char *topic, const char *payload) {
    if (plugin->event_count > 0) append(&plugin->events, ", ");
    append(&plugin->events, "{\"topic\": ");
    append_json_string(&plugin->events, topic, strlen(topic));
    append(&plugin->events, ", \"payload\": %s}", payload);
    plugin->event_count++;
}

static void destroy(wh_plugin *plugin) { free(plugin); }

static const wh_screen screens[] = {
    {"main", "Last result"},
    {"events", "Events"},
};

static const wh_plugin_descriptor descriptor = {
    .abi_major = 1,
    .abi_minor = 0,
    .struct_size = sizeof(wh_plugin_descriptor),
    .screen_count = 2,
    .id = PLUGIN_ID,
    .name = "Services",
    .version = "1.0.0",
    .vendor = "Example",
    .description = "Exercises the host services.",
    .screens = screens,
    .create = create,
    .render = render,
    .handle_action = handle_action,
    .on_event = on_event,
    .destroy = destroy,
};

WH_EXPORT const wh_plugin_descriptor *widget_host_entry(void) {
    return &descriptor;
}
