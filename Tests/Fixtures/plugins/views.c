/* A plugin in plain C whose screens exercise the view description and the
 * host's renderers, for the view and launch tests (ViewDescriptionTests,
 * TerminalRendererTests, LaunchTests, LaunchInteractiveTests).
 *
 * Screens:
 *   main          every node kind once, with a button, a field, a list with
 *                 an action and a link: five actions in reading order
 *   unknown       a node of a kind no host knows, and a button without an
 *                 action, between two texts
 *   malformed     JSON cut off in the middle
 *   noview        valid JSON without "view": 1
 *   huge          a 2 MiB description (a text of 2 MiB)
 *   deep          vstacks nested 100 deep
 *   many          10,001 dividers (over the node limit)
 *   wide          CJK, Hangul, emoji, combining marks: in texts, a section,
 *                 a list with details, a button, a badge, an hstack
 *   long          long texts, titles and rows for narrow terminals
 *   form          a text field, a list and a button whose effects show
 *   links         a link to another plugin's screen and one to its own
 *   many_actions  eleven buttons that pick their number, and what was picked
 *   tall          sixty numbered lines, for a terminal shorter than that
 *   escape        text that carries terminal control characters
 *   crash         a button that makes the next render crash (SIGSEGV)
 *   ticker        a button that starts a thread which changes the state
 *                 three times and asks for a render each time
 *   store         the last store.changed event and the value it names
 *   secret        a secure field (action name) and how many characters it
 *                 was sent, never what they were
 *
 * Actions: wave, name [TEXT], pick [ROW], crash, tick. */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "widget_host/widget_host.h"

#ifndef PLUGIN_ID
#define PLUGIN_ID "org.example.views"
#endif

#define SCREENS(X) \
    X("main", "All kinds") \
    X("unknown", "Unknown kinds") \
    X("malformed", "Malformed") \
    X("noview", "No view") \
    X("huge", "Huge") \
    X("deep", "Deep") \
    X("many", "Many") \
    X("wide", "Wide text") \
    X("long", "Long text") \
    X("form", "Form") \
    X("links", "Links") \
    X("many_actions", "Many actions") \
    X("tall", "Tall") \
    X("escape", "Escapes") \
    X("crash", "Crash") \
    X("ticker", "Ticker") \
    X("store", "Store") \
    X("secret", "Secret")

#define MANIFEST_SCREEN(id, title) "{\"id\": \"" id "\", \"title\": \"" title "\", \"actions\": [\"wave\", \"name\", \"pick\", \"crash\", \"tick\"]},"

/* Inline on purpose: the screens come from the SCREENS list the code uses too,
 * so the manifest and the code cannot disagree; a file would state them twice. */
WH_MANIFEST("{"
    "\"abi\": \"1.0\","
    "\"id\": \"" PLUGIN_ID "\","
    "\"name\": \"Views\","
    "\"version\": \"1.0.0\","
    "\"vendor\": \"Example\","
    "\"description\": \"Screens that test the view description.\","
    "\"screens\": ["
        SCREENS(MANIFEST_SCREEN)
        "{\"id\": \"last\", \"title\": \"Last\"}"
    "],"
    "\"services\": {\"required\": [\"widget-host.log/1\"],"
                  " \"optional\": [\"widget-host.bus/1\", \"widget-host.store/1\"]},"
    "\"topics\": {\"publish\": [], \"subscribe\": [\"store.changed\"]},"
    "\"store\": {\"groups\": {\"views\": \"read\"}}"
"}")

struct wh_plugin {
    const wh_host *host;
    const wh_store_v1 *store;
    int waves;
    int crash_next_render;
    char name[256];
    char picked[64];
    char last_key[256];
    char last_value[512];
    _Atomic int ticks;
    _Atomic int ticking;
};

/* --- a growable text buffer, for building descriptions --- */

typedef struct { char *data; size_t length, capacity; int failed; } text_buffer;

static void put(text_buffer *buffer, const char *data, size_t length) {
    if (buffer->failed) return;
    if (buffer->length + length + 1 > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 1024;
        while (buffer->length + length + 1 > capacity) capacity *= 2;
        char *grown = realloc(buffer->data, capacity);
        if (!grown) { buffer->failed = 1; return; }
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, data, length);
    buffer->length += length;
    buffer->data[buffer->length] = 0;
}

static void puts_(text_buffer *buffer, const char *text) { put(buffer, text, strlen(text)); }

static void printf_(text_buffer *buffer, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void printf_(text_buffer *buffer, const char *format, ...) {
    char small[1024];
    va_list arguments;
    va_start(arguments, format);
    int count = vsnprintf(small, sizeof small, format, arguments);
    va_end(arguments);
    if (count < 0 || (size_t)count >= sizeof small) { buffer->failed = 1; return; }
    put(buffer, small, (size_t)count);
}

/* A JSON string literal, quotes included. */
static void json_string(text_buffer *buffer, const char *text) {
    puts_(buffer, "\"");
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c == '"' || *c == '\\') { char pair[3] = {'\\', (char)*c, 0}; puts_(buffer, pair); }
        else if (*c < 0x20) printf_(buffer, "\\u%04x", *c);
        else put(buffer, (const char *)c, 1);
    }
    puts_(buffer, "\"");
}

static int32_t emit(const wh_output *out, text_buffer *buffer) {
    int32_t status = WH_FAILED;
    if (!buffer->failed && buffer->data) {
        /* In chunks, as a plugin streaming a large view would. */
        size_t done = 0;
        status = WH_OK;
        while (done < buffer->length) {
            size_t chunk = buffer->length - done < 65536 ? buffer->length - done : 65536;
            if (out->write(out, buffer->data + done, chunk) != 0) { status = WH_FAILED; break; }
            done += chunk;
        }
    }
    free(buffer->data);
    return status;
}

/* --- the plugin --- */

static wh_plugin *create(const wh_host *host) {
    wh_plugin *plugin = calloc(1, sizeof *plugin);
    if (!plugin) return NULL;
    plugin->host = host;
    strcpy(plugin->picked, "none");
    strcpy(plugin->last_key, "none");
    plugin->store = host->get_service(host, WH_SERVICE_STORE);
    const wh_bus_v1 *bus = host->get_service(host, WH_SERVICE_BUS);
    if (bus) bus->subscribe(host, "store.changed");
    return plugin;
}

static void screen_main(wh_plugin *plugin, text_buffer *b) {
    puts_(b, "{\"view\":1,\"root\":{\"kind\":\"vstack\",\"children\":["
             "{\"kind\":\"text\",\"text\":\"Every kind\",\"style\":\"title\",\"color\":\"positive\"},"
             "{\"kind\":\"hstack\",\"children\":[{\"kind\":\"text\",\"text\":\"left\",\"style\":\"caption\"},"
                                             "{\"kind\":\"text\",\"text\":\"right\",\"color\":\"negative\"}]},"
             "{\"kind\":\"section\",\"header\":\"Details\",\"children\":["
                 "{\"kind\":\"badge\",\"text\":\"beta\",\"color\":\"warning\"},"
                 "{\"kind\":\"text\",\"text\":\"mono\",\"style\":\"monospaced\",\"color\":\"secondary\"}]},"
             "{\"kind\":\"button\",\"title\":\"Wave\",\"action\":\"wave\",\"value\":\"hand\"},"
             "{\"kind\":\"field\",\"label\":\"Name\",\"action\":\"name\",\"placeholder\":\"your name\",\"value\":");
    json_string(b, plugin->name);
    puts_(b, ",\"input\":\"text\"},"
             "{\"kind\":\"list\",\"action\":\"pick\",\"rows\":["
                 "{\"id\":\"a\",\"title\":\"Alpha\",\"detail\":\"first\",\"badge\":\"new\"},"
                 "{\"id\":\"b\",\"title\":\"Beta\"}]},"
             "{\"kind\":\"divider\"},"
             "{\"kind\":\"spacer\"},"
             "{\"kind\":\"image\",\"alt\":\"A cat\",\"url\":\"https://example.com/cat.png\"},"
             "{\"kind\":\"progress\",\"label\":\"Half\",\"value\":0.5},"
             "{\"kind\":\"link\",\"title\":\"About Hello\",\"target\":\"widget://org.example.hello/about\"}"
             "]}}");
}

static void screen_wide(text_buffer *b) {
    puts_(b, "{\"view\":1,\"root\":{\"kind\":\"vstack\",\"children\":["
             "{\"kind\":\"text\",\"text\":\"東京タワー 🚀 cafe\xcc\x81 ＡＢＣ\",\"style\":\"title\"},"
             "{\"kind\":\"text\",\"text\":\"한국어 텍스트와 😀 e\xcc\x81\xcc\x82 ❤️ 👍🏽 🇫🇷 👨\xe2\x80\x8d👩\xe2\x80\x8d👧\"},"
             "{\"kind\":\"section\",\"header\":\"国際 Zu\xcc\x88rich\",\"children\":["
                 "{\"kind\":\"list\",\"rows\":["
                     "{\"id\":\"tokyo\",\"title\":\"東京\",\"detail\":\"Japan\"},"
                     "{\"id\":\"paris\",\"title\":\"Paris\",\"detail\":\"France\"},"
                     "{\"id\":\"seoul\",\"title\":\"서울특별시\",\"detail\":\"Korea\"},"
                     "{\"id\":\"cafe\",\"title\":\"Cafe\xcc\x81s\",\"detail\":\"Combining\"},"
                     "{\"id\":\"moon\",\"title\":\"🌙🌙\",\"detail\":\"Emoji\"}]}]},"
             "{\"kind\":\"hstack\",\"children\":[{\"kind\":\"text\",\"text\":\"左\"},{\"kind\":\"badge\",\"text\":\"新しい\"}]},"
             "{\"kind\":\"button\",\"title\":\"送信 ✅\",\"action\":\"wave\"},"
             "{\"kind\":\"text\",\"text\":\"日本語の長い文章は単語の区切りがないので途中で折り返さなければなりません。これは四十桁の端末でも読めるはずです。\"}"
             "]}}");
}

static void screen_long(text_buffer *b) {
    puts_(b, "{\"view\":1,\"root\":{\"kind\":\"vstack\",\"children\":["
             "{\"kind\":\"text\",\"text\":\"The quick brown fox jumps over the lazy dog while seven wizards quietly judge boxing matches in the park\"},"
             "{\"kind\":\"text\",\"text\":\"Supercalifragilisticexpialidocious-antidisestablishmentarianism-floccinaucinihilipilification\"},"
             "{\"kind\":\"button\",\"title\":\"Retrieve the latest prices from every exchange we know about\",\"action\":\"wave\"},"
             "{\"kind\":\"field\",\"label\":\"Delivery instructions\",\"action\":\"name\",\"placeholder\":\"leave the parcel with the neighbour at number twelve\"},"
             "{\"kind\":\"list\",\"action\":\"pick\",\"rows\":["
                 "{\"id\":\"a\",\"title\":\"Coinbase\",\"detail\":\"forty-three thousand two hundred dollars and fifteen cents\",\"badge\":\"BTC-USD\"},"
                 "{\"id\":\"b\",\"title\":\"Kraken\",\"detail\":\"spread against the average of the others\"}]},"
             "{\"kind\":\"image\",\"alt\":\"A photograph of the hotel lobby with its marble staircase\"},"
             "{\"kind\":\"progress\",\"label\":\"Downloading the exchange rates\",\"value\":0.25},"
             "{\"kind\":\"link\",\"title\":\"Open the booking page for this reservation\",\"target\":\"widget://org.example.views/form\"},"
             "{\"kind\":\"section\",\"header\":\"Upcoming departures from Madrid Barajas\",\"children\":[]},"
             "{\"kind\":\"badge\",\"text\":\"insufficient funds for this transaction\",\"color\":\"negative\"}"
             "]}}");
}

static void screen_form(wh_plugin *plugin, text_buffer *b) {
    puts_(b, "{\"view\":1,\"root\":{\"kind\":\"vstack\",\"children\":[{\"kind\":\"text\",\"text\":");
    char line[400];
    snprintf(line, sizeof line, "Name: %s", plugin->name[0] ? plugin->name : "(none)");
    json_string(b, line);
    printf_(b, "},{\"kind\":\"text\",\"text\":\"Picked: %s\"},{\"kind\":\"text\",\"text\":\"Waves: %d\"},", plugin->picked, plugin->waves);
    puts_(b, "{\"kind\":\"button\",\"title\":\"Wave\",\"action\":\"wave\"},"
             "{\"kind\":\"field\",\"label\":\"Your name\",\"action\":\"name\",\"placeholder\":\"type a name\",\"value\":");
    json_string(b, plugin->name);
    puts_(b, "},{\"kind\":\"list\",\"action\":\"pick\",\"rows\":[{\"id\":\"a\",\"title\":\"Alpha\"},{\"id\":\"b\",\"title\":\"Beta\"}]},"
             "{\"kind\":\"link\",\"title\":\"Hello's about page\",\"target\":\"widget://org.example.hello/about\"}"
             "]}}");
}

static void *tick_thread(void *argument) {
    wh_plugin *plugin = argument;
    for (int i = 0; i < 3; i++) {
        struct timespec pause = {0, 150 * 1000 * 1000};
        nanosleep(&pause, NULL);
        atomic_fetch_add(&plugin->ticks, 1);
        plugin->host->request_render(plugin->host);
    }
    atomic_store(&plugin->ticking, 0);
    return NULL;
}

static int32_t render(wh_plugin *plugin, const char *screen, const char *params, const wh_output *out) {
    (void)params;
    if (plugin->crash_next_render) {
        *(volatile int *)0 = 1;
    }
    text_buffer b = {0};
    if (strcmp(screen, "main") == 0) {
        screen_main(plugin, &b);
    } else if (strcmp(screen, "unknown") == 0) {
        puts_(&b, "{\"view\":1,\"root\":{\"kind\":\"vstack\",\"children\":["
                  "{\"kind\":\"text\",\"text\":\"Before the hologram\"},"
                  "{\"kind\":\"hologram\",\"beams\":3},"
                  "{\"kind\":\"button\",\"title\":\"Orphan button\"},"
                  "{\"kind\":\"text\",\"text\":\"After the hologram\"}]}}");
    } else if (strcmp(screen, "malformed") == 0) {
        puts_(&b, "{\"view\":1,\"root\":{\"kind\":\"text\",\"text\":\"cut off");
    } else if (strcmp(screen, "noview") == 0) {
        puts_(&b, "{\"root\":{\"kind\":\"text\",\"text\":\"no version\"}}");
    } else if (strcmp(screen, "huge") == 0) {
        puts_(&b, "{\"view\":1,\"root\":{\"kind\":\"text\",\"text\":\"");
        char chunk[4096];
        memset(chunk, 'x', sizeof chunk);
        for (int i = 0; i < 512; i++) put(&b, chunk, sizeof chunk);   /* 2 MiB */
        puts_(&b, "\"}}");
    } else if (strcmp(screen, "deep") == 0) {
        puts_(&b, "{\"view\":1,\"root\":");
        for (int i = 0; i < 100; i++) puts_(&b, "{\"kind\":\"vstack\",\"children\":[");
        puts_(&b, "{\"kind\":\"text\",\"text\":\"the bottom\"}");
        for (int i = 0; i < 100; i++) puts_(&b, "]}");
        puts_(&b, "}");
    } else if (strcmp(screen, "many") == 0) {
        puts_(&b, "{\"view\":1,\"root\":{\"kind\":\"vstack\",\"children\":[");
        for (int i = 0; i < 10001; i++) puts_(&b, i ? ",{\"kind\":\"divider\"}" : "{\"kind\":\"divider\"}");
        puts_(&b, "]}}");
    } else if (strcmp(screen, "wide") == 0) {
        screen_wide(&b);
    } else if (strcmp(screen, "long") == 0) {
        screen_long(&b);
    } else if (strcmp(screen, "secret") == 0) {
        puts_(&b, "{\"view\":1,\"root\":{\"kind\":\"vstack\",\"children\":["
                  "{\"kind\":\"securefield\",\"label\":\"Passphrase\",\"action\":\"name\",\"placeholder\":\"type it\",\"value\":");
        json_string(&b, plugin->name);
        printf_(&b, "},{\"kind\":\"text\",\"text\":\"Received: %zu characters\"}]}}", strlen(plugin->name));
    } else if (strcmp(screen, "form") == 0) {
        screen_form(plugin, &b);
    } else if (strcmp(screen, "links") == 0) {
        puts_(&b, "{\"view\":1,\"root\":{\"kind\":\"vstack\",\"children\":["
                  "{\"kind\":\"text\",\"text\":\"Where to?\"},"
                  "{\"kind\":\"link\",\"title\":\"Hello's about page\",\"target\":\"widget://org.example.hello/about\"},"
                  "{\"kind\":\"link\",\"title\":\"Our form\",\"target\":\"widget://views/form\"}]}}");
    } else if (strcmp(screen, "many_actions") == 0) {
        puts_(&b, "{\"view\":1,\"root\":{\"kind\":\"vstack\",\"children\":[");
        for (int i = 1; i <= 11; i++) printf_(&b, "{\"kind\":\"button\",\"title\":\"Action %d\",\"action\":\"pick\",\"value\":\"%d\"},", i, i);
        printf_(&b, "{\"kind\":\"text\",\"text\":\"Picked: %s\"}]}}", plugin->picked);
    } else if (strcmp(screen, "tall") == 0) {
        puts_(&b, "{\"view\":1,\"root\":{\"kind\":\"vstack\",\"children\":[");
        for (int i = 1; i <= 60; i++) printf_(&b, "%s{\"kind\":\"text\",\"text\":\"Line %d of 60\"}", i > 1 ? "," : "", i);
        puts_(&b, "]}}");
    } else if (strcmp(screen, "escape") == 0) {
        puts_(&b, "{\"view\":1,\"root\":{\"kind\":\"vstack\",\"children\":["
                  "{\"kind\":\"text\",\"text\":\"plain \\u001b[31mred\\u001b[0m \\u001b]0;pwned\\u0007bell\\ttab\"},"
                  "{\"kind\":\"button\",\"title\":\"\\u001b[2JWipe\",\"action\":\"wave\"}]}}");
    } else if (strcmp(screen, "crash") == 0) {
        puts_(&b, "{\"view\":1,\"root\":{\"kind\":\"vstack\",\"children\":["
                  "{\"kind\":\"text\",\"text\":\"Ready to crash\"},"
                  "{\"kind\":\"button\",\"title\":\"Crash now\",\"action\":\"crash\"}]}}");
    } else if (strcmp(screen, "ticker") == 0) {
        printf_(&b, "{\"view\":1,\"root\":{\"kind\":\"vstack\",\"children\":["
                    "{\"kind\":\"text\",\"text\":\"Ticks: %d\"},"
                    "{\"kind\":\"button\",\"title\":\"Start ticking\",\"action\":\"tick\"}]}}", atomic_load(&plugin->ticks));
    } else if (strcmp(screen, "store") == 0) {
        puts_(&b, "{\"view\":1,\"root\":{\"kind\":\"vstack\",\"children\":[{\"kind\":\"text\",\"text\":");
        char line[600];
        snprintf(line, sizeof line, "Last change: %s", plugin->last_key);
        json_string(&b, line);
        puts_(&b, "},{\"kind\":\"text\",\"text\":");
        snprintf(line, sizeof line, "Value: %s", plugin->last_value);
        json_string(&b, line);
        puts_(&b, "}]}}");
    } else if (strcmp(screen, "last") == 0) {
        puts_(&b, "{\"view\":1,\"root\":{\"kind\":\"text\",\"text\":\"The last screen\"}}");
    } else {
        return WH_UNKNOWN_SCREEN;
    }
    return emit(out, &b);
}

static int32_t handle_action(wh_plugin *plugin, const char *action, const char *value) {
    if (strcmp(action, "wave") == 0) {
        plugin->waves++;
        return WH_OK;
    }
    if (strcmp(action, "name") == 0) {
        if (!value || strlen(value) >= sizeof plugin->name) return WH_INVALID_VALUE;
        strcpy(plugin->name, value);
        return WH_OK;
    }
    if (strcmp(action, "pick") == 0) {
        if (!value || strlen(value) >= sizeof plugin->picked || strchr(value, '"') || strchr(value, '\\')) return WH_INVALID_VALUE;
        strcpy(plugin->picked, value);
        return WH_OK;
    }
    if (strcmp(action, "crash") == 0) {
        plugin->crash_next_render = 1;
        return WH_OK;
    }
    if (strcmp(action, "tick") == 0) {
        if (atomic_exchange(&plugin->ticking, 1)) return WH_OK;
        pthread_t thread;
        pthread_attr_t attributes;
        pthread_attr_init(&attributes);
        pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
        int failed = pthread_create(&thread, &attributes, tick_thread, plugin);
        pthread_attr_destroy(&attributes);
        if (failed) { atomic_store(&plugin->ticking, 0); return WH_FAILED; }
        return WH_OK;
    }
    return WH_UNKNOWN_ACTION;
}

/* A sink for the store's answer. */
typedef struct { wh_output output; char *data; size_t capacity, length; } value_sink;

static int32_t sink_write(const wh_output *output, const char *data, uint64_t length) {
    value_sink *sink = (value_sink *)output;
    for (uint64_t i = 0; i < length && sink->length + 1 < sink->capacity; i++) sink->data[sink->length++] = data[i];
    sink->data[sink->length] = 0;
    return 0;
}

static void on_event(wh_plugin *plugin, const char *topic, const char *payload) {
    if (strcmp(topic, "store.changed") != 0) return;
    const char *marker = "\"key\":\"";
    const char *start = strstr(payload, marker);
    if (!start) return;
    start += strlen(marker);
    const char *end = strchr(start, '"');
    if (!end || (size_t)(end - start) >= sizeof plugin->last_key) return;
    memcpy(plugin->last_key, start, (size_t)(end - start));
    plugin->last_key[end - start] = 0;
    plugin->last_value[0] = 0;
    if (plugin->store) {
        value_sink sink = {{NULL, sink_write}, plugin->last_value, sizeof plugin->last_value, 0};
        if (plugin->store->get(plugin->host, plugin->last_key, &sink.output) != WH_STORE_FOUND) strcpy(plugin->last_value, "(none)");
        /* One line: the value's trailing newline, if any, is dropped. */
        size_t length = strlen(plugin->last_value);
        while (length && (plugin->last_value[length - 1] == '\n' || plugin->last_value[length - 1] == '\r')) plugin->last_value[--length] = 0;
    }
}

static void destroy(wh_plugin *plugin) {
    /* A ticking thread still uses the instance: leak it rather than race. */
    if (atomic_load(&plugin->ticking)) return;
    free(plugin);
}

#define DESCRIPTOR_SCREEN(id, title) {id, title},
static const wh_screen screens[] = {
    SCREENS(DESCRIPTOR_SCREEN)
    {"last", "Last"},
};

static const wh_plugin_descriptor descriptor = {
    .abi_major = WH_ABI_MAJOR,
    .abi_minor = WH_ABI_MINOR,
    .struct_size = sizeof(wh_plugin_descriptor),
    .screen_count = sizeof screens / sizeof screens[0],
    .id = PLUGIN_ID,
    .name = "Views",
    .version = "1.0.0",
    .vendor = "Example",
    .description = "Screens that test the view description.",
    .screens = screens,
    .create = create,
    .render = render,
    .handle_action = handle_action,
    .on_event = on_event,
    .destroy = destroy,
};

WH_EXPORT const wh_plugin_descriptor *widget_host_entry(void) { return &descriptor; }
