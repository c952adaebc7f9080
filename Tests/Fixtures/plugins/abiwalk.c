/* A plugin in plain C that calls every function of every host service table
 * with NULL and bad arguments (and a few good ones, to reach the paths that
 * write output or refuse it), for ServiceParityTests.swift.
 *
 * The action "walk" makes the calls; the screen "main" renders what each
 * answered, as {"calls": [{"call": "SERVICE FUNCTION(ARGS)", "result": ...}]}.
 * The test runs it in process and isolated and requires the same answers,
 * and that every function of the host's service catalog was called. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "widget_host/widget_host.h"

/* The manifest is abiwalk.widget.json beside this file: the test compiles with
 * -Wa,-I,<this directory> (TestSupport.compileC), so .incbin finds it. */
WH_MANIFEST_FILE("abiwalk.widget.json")

struct wh_plugin {
    const wh_host *host;
    char record[32768];
    size_t length;
    int calls;
};

static void add(wh_plugin *p, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void add(wh_plugin *p, const char *format, ...) {
    if (p->length >= sizeof p->record - 1) return;
    va_list args;
    va_start(args, format);
    int n = vsnprintf(p->record + p->length, sizeof p->record - p->length, format, args);
    va_end(args);
    if (n > 0) p->length += (size_t)n;
    if (p->length > sizeof p->record - 1) p->length = sizeof p->record - 1;
}

/* One answer: CALL is the call as written in this file, as a JSON string. */
static void answer(wh_plugin *p, const char *call, long long result) {
    add(p, "%s{\"call\": \"", p->calls++ ? ", " : "");
    for (const char *c = call; *c; c++) {
        if (*c == '"' || *c == '\\') add(p, "\\%c", *c);
        else if ((unsigned char)*c < 0x20) add(p, "\\u%04x", (unsigned char)*c);
        else add(p, "%c", *c);
    }
    add(p, "\", \"result\": %lld}", result);
}

/* A sink that keeps what it is given, and one that refuses everything. */
typedef struct sink {
    wh_output output;
    char data[4096];
    size_t length;
} sink;

static int32_t keep(const wh_output *output, const char *data, uint64_t length) {
    sink *s = (sink *)output;
    if (length > sizeof s->data - 1 - s->length) return -1;
    memcpy(s->data + s->length, data, (size_t)length);
    s->length += (size_t)length;
    return 0;
}

static int32_t refuse(const wh_output *output, const char *data, uint64_t length) {
    (void)output, (void)data, (void)length;
    return -1;
}

static sink kept(void) { sink s; memset(&s, 0, sizeof s); s.output.write = keep; return s; }
static const wh_output refusing = {NULL, refuse};

/* The answer and, when the call wrote any, how many bytes. */
static void answer_output(wh_plugin *p, const char *call, long long result, const sink *s) {
    char named[256];
    snprintf(named, sizeof named, "%s wrote %zu", call, s->length);
    answer(p, named, result);
}

#define CALL(p, call) answer(p, #call, (long long)(call))
#define VOID_CALL(p, call) ((call), answer(p, #call, 0))

static void walk(wh_plugin *p) {
    const wh_host *h = p->host;
    CALL(p, h->get_service(h, NULL) != NULL);
    CALL(p, h->get_service(h, "") != NULL);
    CALL(p, h->get_service(h, "widget-host.nope/1") != NULL);
    CALL(p, h->get_service(h, "widget-host.future/8") != NULL);
    CALL(p, h->get_service(h, "widget-host.log/2") != NULL);

    const wh_log_v1 *log = h->get_service(h, WH_SERVICE_LOG);
    VOID_CALL(p, log->log(h, WH_LOG_INFO, NULL));
    VOID_CALL(p, log->log(h, 99, "level out of range"));
    VOID_CALL(p, log->log(h, -1, "invalid \xff UTF-8"));
    VOID_CALL(p, log->log(NULL, WH_LOG_INFO, "no host"));

    const wh_clock_v1 *clock = h->get_service(h, WH_SERVICE_CLOCK);
    CALL(p, clock->now_ms(h) > 0);
    CALL(p, clock->now_ms(NULL));
    CALL(p, clock->wake_at(h, -5));
    CALL(p, clock->wake_at(h, INT64_MAX));
    CALL(p, clock->wake_at(NULL, 0));

    /* clock/2: the zone's answers are the host's in both modes. */
    const wh_clock_v2 *clock2 = h->get_service(h, WH_SERVICE_CLOCK_2);
    CALL(p, clock2->now_ms(h) > 0);
    CALL(p, clock2->now_ms(NULL));
    CALL(p, clock2->wake_at(NULL, 0));
    CALL(p, clock2->utc_offset_s(h, 0));
    CALL(p, clock2->utc_offset_s(h, INT64_MIN));
    CALL(p, clock2->utc_offset_s(NULL, 0));
    CALL(p, clock2->zone_abbreviation(h, 0, NULL));
    CALL(p, clock2->zone_abbreviation(h, 0, &refusing));
    CALL(p, clock2->zone_abbreviation(NULL, 0, &refusing));
    {
        sink zone = kept();
        answer_output(p, "clock2->zone_abbreviation(h, 0, out)", clock2->zone_abbreviation(h, 0, &zone.output), &zone);
    }

    const wh_config_v1 *config = h->get_service(h, WH_SERVICE_CONFIG);
    sink s = kept();
    CALL(p, config->get(h, NULL, NULL));
    CALL(p, config->get(h, "absent", NULL));
    CALL(p, config->get(NULL, NULL, &s.output));
    s = kept();
    answer_output(p, "config->get(h, \"absent\", out)", config->get(h, "absent", &s.output), &s);
    s = kept();
    answer_output(p, "config->get(h, NULL, out)", config->get(h, NULL, &s.output), &s);
    CALL(p, config->get(h, NULL, &refusing));
    CALL(p, config->get(h, "answer", &refusing));

    const wh_store_v1 *store = h->get_service(h, WH_SERVICE_STORE);
    s = kept();
    CALL(p, store->get(h, NULL, &s.output));
    CALL(p, store->get(h, "walk.key", NULL));
    CALL(p, store->get(h, "bad key!", &s.output));
    CALL(p, store->get(h, "", &s.output));
    CALL(p, store->get(h, "walk.missing", &s.output));
    CALL(p, store->get(NULL, "walk.key", &s.output));
    CALL(p, store->put(h, NULL, "x", 1));
    CALL(p, store->put(h, "walk.key", NULL, 5));
    CALL(p, store->put(h, "bad key!", "x", 1));
    CALL(p, store->put(h, "walk.key", "x", UINT64_MAX));
    CALL(p, store->put(NULL, "walk.key", "x", 1));
    CALL(p, store->put(h, "walk.key", "value", 5));
    s = kept();
    answer_output(p, "store->get(h, \"walk.key\", out)", store->get(h, "walk.key", &s.output), &s);
    CALL(p, store->get(h, "walk.key", &refusing));
    CALL(p, store->put(h, "walk.key", NULL, 0));
    s = kept();
    answer_output(p, "store->get(h, \"walk.key\", out) of an empty value", store->get(h, "walk.key", &s.output), &s);
    CALL(p, store->remove(h, NULL));
    CALL(p, store->remove(h, "bad key!"));
    CALL(p, store->remove(NULL, "walk.key"));
    CALL(p, store->remove(h, "walk.key"));
    CALL(p, store->remove(h, "walk.key"));
    /* Ill-formed UTF-8 (an overlong '/') names nothing, in every service. */
    CALL(p, store->put(h, "walk.\xc0\xaf", "x", 1));
    CALL(p, store->get(h, "walk.\xc0\xaf", &s.output));
    CALL(p, store->remove(h, "walk.\xc0\xaf"));
    CALL(p, store->get(h, "other.key", &s.output));
    CALL(p, config->get(h, "answer\xc0\xaf", &s.output));

    const wh_http_v1 *http = h->get_service(h, WH_SERVICE_HTTP);
    s = kept();
    CALL(p, http->get(h, NULL, 0, 0, &s.output));
    CALL(p, http->get(h, "http://127.0.0.1:1/", 0, 0, NULL));
    CALL(p, http->get(h, "not a url", 0, 0, &s.output));
    CALL(p, http->get(h, "ftp://127.0.0.1/", 0, 0, &s.output));
    CALL(p, http->get(h, "http://undeclared.invalid/", 1000, 0, &s.output));
    CALL(p, http->get(NULL, "http://127.0.0.1:1/", 0, 0, &s.output));
    CALL(p, http->get(h, "http://127.0.0.1:1/\xc0\xaf", 0, 0, &s.output));
    /* http/2: the same calls, and a refused connection named as such. */
    const wh_http_v2 *http2 = h->get_service(h, WH_SERVICE_HTTP_2);
    CALL(p, http2->get(h, NULL, 0, 0, &s.output));
    CALL(p, http2->get(h, "http://127.0.0.1:1/", 0, 0, NULL));
    CALL(p, http2->get(h, "http://127.0.0.1:1/", 5000, 0, &s.output));
    CALL(p, http->get(h, "http://127.0.0.1:1/", 5000, 0, &s.output));
    /* http/3: the same calls, and an undeclared host answered as denied. */
    const wh_http_v3 *http3 = h->get_service(h, WH_SERVICE_HTTP_3);
    CALL(p, http3->get(h, NULL, 0, 0, &s.output));
    CALL(p, http3->get(h, "http://127.0.0.1:1/", 0, 0, NULL));
    CALL(p, http3->get(h, "http://undeclared.invalid/", 1000, 0, &s.output));

    const wh_bus_v1 *bus = h->get_service(h, WH_SERVICE_BUS);
    CALL(p, bus->publish(h, NULL, "{}"));
    CALL(p, bus->publish(h, "walk.out", NULL));
    CALL(p, bus->publish(h, NULL, NULL));
    CALL(p, bus->publish(h, "", "{}"));
    CALL(p, bus->publish(h, "bad topic!", "{}"));
    CALL(p, bus->publish(h, "walk.out", "{bad"));
    CALL(p, bus->publish(h, "walk.out", "{\"a\":\"\xc0\xaf\"}"));
    CALL(p, bus->publish(h, "walk.\xc0\xaf", "{}"));
    CALL(p, bus->publish(h, "undeclared", "{}"));
    CALL(p, bus->publish(NULL, "walk.out", "{}"));
    CALL(p, bus->publish(h, "walk.out", "{}"));
    CALL(p, bus->subscribe(h, NULL));
    CALL(p, bus->subscribe(h, ""));
    CALL(p, bus->subscribe(h, "bad..pattern"));
    CALL(p, bus->subscribe(h, "secret.*"));
    CALL(p, bus->subscribe(NULL, "walk.*"));
    CALL(p, bus->subscribe(h, "walk.\xed\xa0\x80"));
    int64_t id = bus->subscribe(h, "walk.*");
    answer(p, "bus->subscribe(h, \"walk.*\") > 0", id > 0);
    VOID_CALL(p, bus->unsubscribe(h, id));
    VOID_CALL(p, bus->unsubscribe(h, id));
    VOID_CALL(p, bus->unsubscribe(h, -1));
    VOID_CALL(p, bus->unsubscribe(NULL, 1));

    const wh_navigator_v1 *nav = h->get_service(h, WH_SERVICE_NAVIGATOR);
    CALL(p, nav->push(h, NULL));
    CALL(p, nav->push(h, ""));
    CALL(p, nav->push(h, "not a link"));
    CALL(p, nav->push(NULL, "widget://abiwalk/main"));
    CALL(p, nav->push(h, "widget://abiwalk/main"));
    CALL(p, nav->replace(h, NULL));
    CALL(p, nav->replace(h, "::"));
    CALL(p, nav->replace(h, "widget://abiwalk/main"));
    CALL(p, nav->root(h, NULL));
    CALL(p, nav->root(h, "widget:"));
    CALL(p, nav->root(h, "widget://abiwalk"));
    CALL(p, nav->push(h, "widget://abiwalk/\xc0\xaf"));
    CALL(p, nav->pop(NULL));
    CALL(p, nav->pop(h));

    answer(p, "wh_use_contract(h, \"org.example.undeclared/1\").table != NULL", wh_use_contract(h, "org.example.undeclared/1").table != NULL);
    const wh_contract_v1 *contract = wh_use_contract(h, "org.example.walk/1").table;
    answer(p, "wh_use_contract(h, \"org.example.walk/1\").table != NULL", contract != NULL);
    if (contract) {
        CALL(p, contract->ask(h, NULL, &refusing));
        CALL(p, contract->ask(h, contract, NULL));
        CALL(p, contract->ask(NULL, contract, &refusing));
        CALL(p, contract->ask(h, contract, &refusing));
        s = kept();
        answer_output(p, "contract->ask(h, contract, out)", contract->ask(h, contract, &s.output), &s);
    }
}

static wh_plugin *create(const wh_host *host) {
    wh_plugin *plugin = calloc(1, sizeof *plugin);
    if (plugin) plugin->host = host;
    return plugin;
}

static int32_t render(wh_plugin *p, const char *screen, const char *params, const wh_output *out) {
    (void)params;
    if (strcmp(screen, "main") != 0) return WH_UNKNOWN_SCREEN;
    char head[] = "{\"calls\": [";
    if (out->write(out, head, sizeof head - 1) != 0 || out->write(out, p->record, p->length) != 0) return WH_FAILED;
    return out->write(out, "]}", 2) == 0 ? WH_OK : WH_FAILED;
}

static int32_t handle_action(wh_plugin *p, const char *action, const char *value) {
    (void)value;
    if (strcmp(action, "walk") != 0) return WH_UNKNOWN_ACTION;
    p->length = 0;
    p->calls = 0;
    walk(p);
    return WH_OK;
}

static void on_event(wh_plugin *p, const char *topic, const char *payload) { (void)p, (void)topic, (void)payload; }
static void destroy(wh_plugin *p) { free(p); }

static const wh_screen screens[] = {{"main", "Answers"}};

static const wh_plugin_descriptor descriptor = {
    .abi_major = WH_ABI_MAJOR, .abi_minor = WH_ABI_MINOR, .struct_size = sizeof(wh_plugin_descriptor),
    .screen_count = 1, .id = "org.example.abiwalk", .name = "ABI walk", .version = "1.0.0", .vendor = NULL,
    .description = "Calls every service function with bad arguments.", .screens = screens,
    .create = create, .render = render, .handle_action = handle_action, .on_event = on_event, .destroy = destroy,
};

WH_EXPORT const wh_plugin_descriptor *widget_host_entry(void) { return &descriptor; }
