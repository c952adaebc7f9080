/* A plugin that misbehaves on purpose, one way per -D switch, for the
 * isolation tests (IsolationHostileCorpusTests.swift). Built without a
 * switch it is a calm plugin whose text says VERSION.
 *
 * In render:
 *   CRASH_IN_RENDER      writes through a NULL pointer (SIGSEGV)
 *   ABORT_IN_RENDER      abort() (SIGABRT)
 *   EXIT_IN_RENDER       exit(0) in the middle of the call
 *   LOOP_IN_RENDER       never returns
 *   ALLOCATE_IN_RENDER   allocates 1 GiB and fills it, without checking
 *   CONNECT_IN_RENDER    opens a TCP socket and connects to 127.0.0.1:9
 *   WRITE_OUTSIDE_IN_RENDER  creates ESCAPE_PATH (default /tmp/widget-host-hostile-escape)
 *   FLOOD_IN_RENDER      publishes a million bus events
 *   OVERSIZED_RENDER     writes 64 MiB of view, ignoring refusals
 *   FORGE_FRAME          writes a frame header announcing 1 GiB to descriptor 3,
 *                        where an isolated plugin's host connection lives
 *   CRASH_ONCE           crashes on its first render, unless its data
 *                        directory holds a marker it writes just before
 * Elsewhere:
 *   LYING_DESCRIPTOR     the descriptor says it is 4 GiB long
 *   CRASH_LATER          a thread it starts in create crashes 300 ms later
 *   SPIN_LATER           a thread it starts in create spins forever
 *   WRITE_INSIDE         render writes a file in its working directory (its
 *                        data directory when isolated) and says whether it could
 *   HTTP_IN_RENDER       declares http.hosts ["allowed.example"], GETs HTTP_URL
 *                        (default http://127.0.0.1:9/) and shows the status */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "widget_host/widget_host.h"

#ifndef PLUGIN_ID
#define PLUGIN_ID "org.example.hostile"
#endif
#ifndef VERSION
#define VERSION "1"
#endif
#ifndef ESCAPE_PATH
#define ESCAPE_PATH "/tmp/widget-host-hostile-escape"
#endif
#ifdef LYING_DESCRIPTOR
#define STRUCT_SIZE 0xFFFFFFF0u
#else
#define STRUCT_SIZE sizeof(wh_plugin_descriptor)
#endif

#ifdef HTTP_IN_RENDER
#ifndef HTTP_URL
#define HTTP_URL "http://127.0.0.1:9/"
#endif
#define HTTP_SERVICE ", \"widget-host.http/1\""
#define HTTP_FIELD ", \"http\": {\"hosts\": [\"allowed.example\"]}"
#else
#define HTTP_SERVICE ""
#define HTTP_FIELD ""
#endif

WH_MANIFEST("{"
    "\"abi\": \"1.0\","
    "\"id\": \"" PLUGIN_ID "\","
    "\"name\": \"Hostile\","
    "\"version\": \"1.0.0\","
    "\"vendor\": \"Example\","
    "\"description\": \"Misbehaves on purpose.\","
    "\"screens\": [{\"id\": \"main\", \"title\": \"Hostile\", \"actions\": []}],"
    "\"services\": {\"required\": [\"widget-host.log/1\"], \"optional\": [\"widget-host.bus/1\"" HTTP_SERVICE "]},"
    "\"topics\": {\"publish\": [\"hostile.flood\"], \"subscribe\": []}"
    HTTP_FIELD
"}")

struct wh_plugin {
    const wh_host *host;
    const wh_bus_v1 *bus;
};

#if defined(CRASH_LATER) || defined(SPIN_LATER)
static void *misbehave_later(void *unused) {
    (void)unused;
#ifdef CRASH_LATER
    usleep(300 * 1000);
    *(volatile int *)0 = 1;
#else
    for (volatile uint64_t spin = 0;; spin++) {}
#endif
    return NULL;
}
#endif

static wh_plugin *create(const wh_host *host) {
    wh_plugin *plugin = calloc(1, sizeof *plugin);
    if (!plugin) return NULL;
    plugin->host = host;
    plugin->bus = host->get_service(host, WH_SERVICE_BUS);
#if defined(CRASH_LATER) || defined(SPIN_LATER)
    pthread_t thread;
    pthread_create(&thread, NULL, misbehave_later, NULL);
    pthread_detach(thread);
#endif
    return plugin;
}

#ifdef HTTP_IN_RENDER
static int32_t discard(const wh_output *out, const char *data, uint64_t length) {
    (void)out; (void)data; (void)length;
    return 0;
}
#endif

static int32_t emit(const wh_output *out, const char *text) {
    return out->write(out, text, strlen(text)) == 0 ? WH_OK : WH_FAILED;
}

static int32_t render(wh_plugin *plugin, const char *screen, const char *params, const wh_output *out) {
    (void)params;
    if (strcmp(screen, "main") != 0) return WH_UNKNOWN_SCREEN;
#ifdef CRASH_IN_RENDER
    *(volatile int *)0 = 1;
#endif
#ifdef ABORT_IN_RENDER
    abort();
#endif
#ifdef EXIT_IN_RENDER
    exit(0);
#endif
#ifdef LOOP_IN_RENDER
    for (volatile uint64_t spin = 0;; spin++) {}
#endif
#ifdef ALLOCATE_IN_RENDER
    size_t size = (size_t)1 << 30;
    char *block = malloc(size);
    memset(block, 1, size);
    (void)block[size / 2];
#endif
#ifdef CONNECT_IN_RENDER
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(9);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connect(fd, (struct sockaddr *)&address, sizeof address);
#endif
#ifdef WRITE_OUTSIDE_IN_RENDER
    int escape = open(ESCAPE_PATH, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (escape >= 0) {
        ssize_t ignored = write(escape, "escaped\n", 8);
        (void)ignored;
        close(escape);
    }
#endif
#ifdef FLOOD_IN_RENDER
    for (int i = 0; i < 1000000 && plugin->bus; i++) plugin->bus->publish(plugin->host, "hostile.flood", "{}");
#endif
#ifdef OVERSIZED_RENDER
    static char chunk[1 << 20];
    memset(chunk, ' ', sizeof chunk);
    for (int i = 0; i < 64; i++) out->write(out, chunk, sizeof chunk);
#endif
#ifdef FORGE_FRAME
    /* length 1 GiB, kind 3 (result), id 1 */
    const unsigned char header[9] = {0, 0, 0, 0x40, 3, 1, 0, 0, 0};
    ssize_t ignored = write(3, header, sizeof header);
    (void)ignored;
    sleep(5);
#endif
#ifdef CRASH_ONCE
    if (access("crashed-once", F_OK) != 0) {
        int marker = open("crashed-once", O_WRONLY | O_CREAT, 0644);
        if (marker >= 0) close(marker);
        *(volatile int *)0 = 1;
    }
#endif
#ifdef WRITE_INSIDE
    int inside = open("written-inside", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (inside >= 0) close(inside);
    return emit(out, inside >= 0 ? "{\"view\":1,\"root\":{\"kind\":\"text\",\"text\":\"wrote inside\"}}"
                                 : "{\"view\":1,\"root\":{\"kind\":\"text\",\"text\":\"could not write inside\"}}");
#endif
#ifdef HTTP_IN_RENDER
    const wh_http_v1 *http = plugin->host->get_service(plugin->host, WH_SERVICE_HTTP);
    if (!http) return emit(out, "{\"view\":1,\"root\":{\"kind\":\"text\",\"text\":\"no http service\"}}");
    wh_output sink = {NULL, discard};
    char view[128];
    snprintf(view, sizeof view, "{\"view\":1,\"root\":{\"kind\":\"text\",\"text\":\"http status %d\"}}",
             (int)http->get(plugin->host, HTTP_URL, 2000, 0, &sink));
    return emit(out, view);
#endif
    (void)plugin;
    return emit(out, "{\"view\":1,\"root\":{\"kind\":\"text\",\"text\":\"Hostile: calm, version " VERSION "\"}}");
}

static int32_t handle_action(wh_plugin *plugin, const char *action, const char *value) {
    (void)plugin; (void)action; (void)value;
    return WH_UNKNOWN_ACTION;
}

static void on_event(wh_plugin *plugin, const char *topic, const char *payload) {
    (void)plugin; (void)topic; (void)payload;
}

static void destroy(wh_plugin *plugin) { free(plugin); }

static const wh_screen screens[] = {{"main", "Hostile"}};

static const wh_plugin_descriptor descriptor = {
    .abi_major = WH_ABI_MAJOR,
    .abi_minor = WH_ABI_MINOR,
    .struct_size = STRUCT_SIZE,
    .screen_count = 1,
    .id = PLUGIN_ID,
    .name = "Hostile",
    .version = "1.0.0",
    .vendor = "Example",
    .description = "Misbehaves on purpose.",
    .screens = screens,
    .create = create,
    .render = render,
    .handle_action = handle_action,
    .on_event = on_event,
    .destroy = destroy,
};

WH_EXPORT const wh_plugin_descriptor *widget_host_entry(void) { return &descriptor; }
