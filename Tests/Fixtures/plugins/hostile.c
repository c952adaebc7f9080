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
 *   SELF_FLOOD           subscribes to its own topic in create, and publishes
 *                        SELF_FLOOD (a count) events to itself in render; the
 *                        view says how many were queued, how many refused
 *                        (and the last refusal's code), and how many arrived
 *   BIG_PUBLISH          publishes one payload of 100 MB and shows the result
 *   OVERSIZED_RENDER     writes 64 MiB of view, ignoring refusals
 *   FORGE_FRAME          writes a frame header announcing 1 GiB to descriptor 3,
 *                        where an isolated plugin's host connection lives
 *   CRASH_ONCE           crashes on its first render, unless its data
 *                        directory holds a marker it writes just before
 * Elsewhere:
 *   LYING_DESCRIPTOR     the descriptor says it is 4 GiB long
 *   CRASH_ON_LOAD        a constructor crashes as soon as the file is loaded
 *   CRASH_LATER          a thread it starts in create crashes 300 ms later
 *   SPIN_LATER           a thread it starts in create spins forever
 *   RING_FLOOD           a thread it starts in create rings descriptor 5, where an
 *                        isolated plugin's doorbell to the host lives, without end
 *                        and without sending a frame
 *   EXIT_ON_THREAD       a thread it starts in create calls exit(3) at once,
 *                        while render waits
 *   WRITE_INSIDE         render writes a file in its working directory (its
 *                        data directory when isolated) and says whether it could
 *   EXTRA_FIELD          JSON text appended to the manifest's object, such as
 *                        ', "htpp": {"hosts": ["*"]}' (a misspelt grant)
 *   UNDECLARED_ACTION    its view offers a button "steal" no screen declares, and
 *                        it counts every action that reaches it ("actions received: N")
 *   LOCKED_INSIDE        render leaves in its working directory a subdirectory
 *                        no one may list (mode 0300: the sandbox refuses chmod,
 *                        not mkdir's mode), holding another, holding a file
 *   HTTP_IN_RENDER       declares http.hosts [HTTP_HOSTS] (default "allowed.example"),
 *                        GETs HTTP_URL (default http://127.0.0.1:9/) and shows the status;
 *                        with HTTP_NO_HOSTS it declares no hosts at all, and
 *                        HTTP_SERVICE_ID (default WH_SERVICE_HTTP) names the service
 * Attacks on the sandbox, in render (the view says what happened if the
 * sandbox let the plugin carry on):
 *   PATH_ATTACK="call"   makes the symbolic link "outside" in its working
 *                        directory, pointing at VICTIM_DIR, then makes one
 *                        path call on outside/victim: chmod, fchmodat, chown,
 *                        lchown, fchownat, utimes, utimensat, truncate, rename,
 *                        link, unlink, setxattr, removexattr, open, fchmod
 *                        (on a descriptor opened for reading), fchmodat2,
 *                        lsetxattr, utime, renameat2; or creates outside/escape
 *                        with mkdir, symlink or mknod
 *   GATEWAY_ATTACK       finds the sandbox's gateway (its machine code, which
 *                        anyone can read in the host's source) in mapped
 *                        memory, asks it to replace the SIGSYS handler, then
 *                        to chmod VICTIM_DIR/victim
 *   UNIX_CONNECT         connects to the Unix socket at UNIX_PATH
 *   FORK_IN_RENDER       fork()s; the child exits at once
 *   SPAWN_IN_RENDER      posix_spawn()s /bin/true (glibc blocks every signal first)
 *   STEAL_DESCRIPTOR     takes its parent's (the host's) standard error with pidfd_getfd
 *   ATTACK_IN_CONSTRUCTOR  makes the attack above from a constructor instead, as
 *                        soon as the file is loaded (info, validate, create) */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <utime.h>
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
#ifndef HTTP_SERVICE_ID
#define HTTP_SERVICE_ID WH_SERVICE_HTTP
#endif
#define HTTP_SERVICE ", \"" HTTP_SERVICE_ID "\""
#ifndef HTTP_HOSTS
#define HTTP_HOSTS "\"allowed.example\""
#endif
#ifdef HTTP_NO_HOSTS
#define HTTP_FIELD ""
#else
#define HTTP_FIELD ", \"http\": {\"hosts\": [" HTTP_HOSTS "]}"
#endif
#else
#define HTTP_SERVICE ""
#define HTTP_FIELD ""
#endif

#ifndef EXTRA_FIELD
#define EXTRA_FIELD ""
#endif

#ifdef SELF_FLOOD
#define SUBSCRIBES "\"hostile.flood\""
#else
#define SUBSCRIBES ""
#endif

/* Inline on purpose: each misbehaviour is a -D switch that also changes the
 * manifest (PLUGIN_ID, the http grant, extra fields), which a fixed file cannot. */
WH_MANIFEST("{"
    "\"abi\": \"1.0\","
    "\"id\": \"" PLUGIN_ID "\","
    "\"name\": \"Hostile\","
    "\"version\": \"1.0.0\","
    "\"vendor\": \"Example\","
    "\"description\": \"Misbehaves on purpose.\","
    "\"screens\": [{\"id\": \"main\", \"title\": \"Hostile\", \"actions\": []}],"
    "\"services\": {\"required\": [\"widget-host.log/1\"], \"optional\": [\"widget-host.bus/1\"" HTTP_SERVICE "]},"
    "\"topics\": {\"publish\": [\"hostile.flood\"], \"subscribe\": [" SUBSCRIBES "]}"
    HTTP_FIELD EXTRA_FIELD
"}")

struct wh_plugin {
    const wh_host *host;
    const wh_bus_v1 *bus;
    long received;
    long actions;
};

#if defined(CRASH_LATER) || defined(SPIN_LATER) || defined(EXIT_ON_THREAD) || defined(RING_FLOOD)
static void *misbehave_later(void *unused) {
    (void)unused;
#ifdef EXIT_ON_THREAD
    exit(3);
#elif defined(RING_FLOOD)
    for (;;) send(5, "r", 1, MSG_NOSIGNAL);
#elif defined(CRASH_LATER)
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
#ifdef SELF_FLOOD
    if (!plugin->bus || plugin->bus->subscribe(host, "hostile.flood") <= 0) return NULL;
#endif
#if defined(CRASH_LATER) || defined(SPIN_LATER) || defined(EXIT_ON_THREAD) || defined(RING_FLOOD)
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


static int32_t emit(const wh_output *out, const char *text);

/* The view that says what the sandbox let through: "<what>: <result>". */
__attribute__((unused)) static int32_t report(const wh_output *out, const char *what, long result) {
    if (!out) return WH_OK;
    char view[256];
    snprintf(view, sizeof view, "{\"view\":1,\"root\":{\"kind\":\"text\",\"text\":\"%s returned %ld\"}}", what, result);
    return emit(out, view);
}

#ifdef PATH_ATTACK
static long path_attack(const char *call) {
    unlink("outside");
    if (symlink(VICTIM_DIR, "outside") != 0) return -1000;
    const char *target = "outside/victim";
    struct timeval times[2] = {{1, 0}, {1, 0}};
    if (!strcmp(call, "chmod")) return chmod(target, 0777);
    if (!strcmp(call, "fchmodat")) return fchmodat(AT_FDCWD, target, 0777, 0);
    if (!strcmp(call, "chown")) return chown(target, 12345, 12345);
    if (!strcmp(call, "lchown")) return lchown(target, 12345, 12345);
    if (!strcmp(call, "fchownat")) return fchownat(AT_FDCWD, target, 12345, 12345, 0);
    if (!strcmp(call, "utimes")) return utimes(target, times);
    if (!strcmp(call, "utimensat")) return utimensat(AT_FDCWD, target, NULL, 0);
    if (!strcmp(call, "truncate")) return truncate(target, 0);
    if (!strcmp(call, "rename")) return rename(target, "stolen");
    if (!strcmp(call, "link")) return linkat(AT_FDCWD, target, AT_FDCWD, "linked", AT_SYMLINK_FOLLOW);
    if (!strcmp(call, "unlink")) return unlink(target);
    if (!strcmp(call, "setxattr")) return setxattr(target, "user.hostile", "1", 1, 0);
    if (!strcmp(call, "removexattr")) return removexattr(target, "user.victim");
    if (!strcmp(call, "open")) return open(target, O_WRONLY | O_APPEND);
    if (!strcmp(call, "fchmodat2")) return syscall(452, AT_FDCWD, target, 0777, AT_SYMLINK_NOFOLLOW);
    if (!strcmp(call, "lsetxattr")) return lsetxattr(target, "user.hostile", "1", 1, 0);
    if (!strcmp(call, "utime")) return utime(target, NULL);
    if (!strcmp(call, "renameat2")) return syscall(SYS_renameat2, AT_FDCWD, target, AT_FDCWD, "stolen", 0);
    /* Creations beside the victim. */
    if (!strcmp(call, "mkdir")) return mkdir("outside/escape", 0755);
    if (!strcmp(call, "symlink")) return symlink("/etc/passwd", "outside/escape");
    if (!strcmp(call, "mknod")) return mknod("outside/escape", S_IFIFO | 0644, 0);
    if (!strcmp(call, "fchmod")) {
        int fd = open(target, O_RDONLY);
        return fd < 0 ? -2000 : fchmod(fd, 0777);
    }
    return -3000;
}
#endif

#ifdef GATEWAY_ATTACK
typedef long (*gateway_function)(long, long, long, long, long, long, long);

/* The gateway's machine code, as the host's source spells it. */
static const unsigned char gateway_code[] = {
    0x48, 0x89, 0xf8, 0x48, 0x89, 0xf7, 0x48, 0x89, 0xd6, 0x48, 0x89, 0xca,
    0x4d, 0x89, 0xc2, 0x4d, 0x89, 0xc8, 0x4c, 0x8b, 0x4c, 0x24, 0x08, 0x0f, 0x05, 0xc3,
};

static gateway_function find_gateway(void) {
    FILE *maps = fopen("/proc/self/maps", "r");
    if (!maps) return NULL;
    char line[512];
    gateway_function found = NULL;
    while (!found && fgets(line, sizeof line, maps)) {
        unsigned long start, end;
        char permissions[5];
        if (sscanf(line, "%lx-%lx %4s", &start, &end, permissions) != 3 || permissions[0] != 'r' || permissions[2] != 'x') continue;
        for (unsigned long at = start; at + sizeof gateway_code <= end; at++) {
            if (memcmp((const void *)at, gateway_code, sizeof gateway_code) == 0 && at != (unsigned long)gateway_code) {
                found = (gateway_function)at;
                break;
            }
        }
    }
    fclose(maps);
    return found;
}

static void swallow(int signal_number) { (void)signal_number; }
#endif

#if defined(PATH_ATTACK) || defined(GATEWAY_ATTACK) || defined(UNIX_CONNECT) || defined(FORK_IN_RENDER) \
    || defined(SPAWN_IN_RENDER) || defined(CONNECT_IN_RENDER) || defined(WRITE_OUTSIDE_IN_RENDER) || defined(STEAL_DESCRIPTOR)
#define ATTACK 1
/* The attack, from render, or from a constructor with ATTACK_IN_CONSTRUCTOR
 * (out is NULL then): plugin code that runs as soon as the file is loaded,
 * as in `info` and `validate`. */
static int32_t attack(const wh_output *out) {
#ifdef CONNECT_IN_RENDER
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(9);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return report(out, "connect", connect(fd, (struct sockaddr *)&address, sizeof address));
#endif
#ifdef WRITE_OUTSIDE_IN_RENDER
    int escape = open(ESCAPE_PATH, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (escape >= 0) {
        ssize_t ignored = write(escape, "escaped\n", 8);
        (void)ignored;
        close(escape);
    }
    return report(out, "open", escape);
#endif
#ifdef PATH_ATTACK
    return report(out, PATH_ATTACK, path_attack(PATH_ATTACK));
#endif
#ifdef GATEWAY_ATTACK
    gateway_function gateway = find_gateway();
    if (!gateway) return out ? emit(out, "{\"view\":1,\"root\":{\"kind\":\"text\",\"text\":\"no gateway found\"}}") : WH_OK;
    struct { void (*handler)(int); unsigned long flags; void *restorer; unsigned long mask; } action = {swallow, 0, NULL, 0};
    long replaced = gateway(SYS_rt_sigaction, SIGSYS, (long)&action, 0, 8, 0, 0);
    long changed = gateway(SYS_chmod, (long)VICTIM_DIR "/victim", 0777, 0, 0, 0, 0);
    char what[64];
    snprintf(what, sizeof what, "rt_sigaction %ld, chmod", replaced);
    return report(out, what, changed);
#endif
#ifdef UNIX_CONNECT
    int unix_socket = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un unix_address;
    memset(&unix_address, 0, sizeof unix_address);
    unix_address.sun_family = AF_UNIX;
    strncpy(unix_address.sun_path, UNIX_PATH, sizeof unix_address.sun_path - 1);
    return report(out, "connect", connect(unix_socket, (struct sockaddr *)&unix_address, sizeof unix_address));
#endif
#ifdef FORK_IN_RENDER
    pid_t child = fork();
    if (child == 0) _exit(0);
    return report(out, "fork", child);
#endif
#ifdef STEAL_DESCRIPTOR
    long pidfd = syscall(SYS_pidfd_open, getppid(), 0);
    return report(out, "pidfd_getfd", syscall(SYS_pidfd_getfd, pidfd, 2, 0));
#endif
#ifdef SPAWN_IN_RENDER
    pid_t spawned = 0;
    char *arguments[] = {"/bin/true", NULL};
    return report(out, "posix_spawn", posix_spawn(&spawned, "/bin/true", NULL, NULL, arguments, NULL));
#endif
    return WH_OK;
}
#endif

#ifdef CRASH_ON_LOAD
__attribute__((constructor)) static void crash_on_load(void) { *(volatile int *)0 = 1; }
#endif

#ifdef ATTACK_IN_CONSTRUCTOR
__attribute__((constructor)) static void attack_on_load(void) { attack(NULL); }
#endif

static int32_t render(wh_plugin *plugin, const char *screen, const char *params, const wh_output *out) {
    (void)params;
    if (strcmp(screen, "main") != 0) return WH_UNKNOWN_SCREEN;
#ifdef UNDECLARED_ACTION
    char offered[256];
    snprintf(offered, sizeof offered, "{\"view\":1,\"root\":{\"kind\":\"vstack\",\"children\":["
             "{\"kind\":\"text\",\"text\":\"actions received: %ld\"},{\"kind\":\"button\",\"title\":\"Steal\",\"action\":\"steal\"}]}}",
             plugin->actions);
    return emit(out, offered);
#endif
#if defined(ATTACK) && !defined(ATTACK_IN_CONSTRUCTOR)
    return attack(out);
#endif
#ifdef CRASH_IN_RENDER
    *(volatile int *)0 = 1;
#endif
#ifdef ABORT_IN_RENDER
    abort();
#endif
#ifdef EXIT_IN_RENDER
    exit(0);
#endif
#ifdef EXIT_ON_THREAD
    sleep(5);
#endif
#ifdef LOOP_IN_RENDER
    for (volatile uint64_t spin = 0;; spin++) {}
#endif
#ifdef HANG_IN_RENDER
    for (;;) pause();
#endif
#ifdef LOG_IN_RENDER
    const wh_log_v1 *log = plugin->host->get_service(plugin->host, WH_SERVICE_LOG);
    if (log) log->log(plugin->host, WH_LOG_WARNING, "rendering, and saying so on stderr in a line far longer than any card on this dashboard is wide");
#endif
#ifdef STDERR_IN_RENDER
    /* Raw, past the host's log: it must not draw over a screen the host owns. */
    fprintf(stderr, "raw stderr from the plugin, in a line far longer than any card on this dashboard is wide\n");
    fflush(stderr);
#endif
#ifdef ALLOCATE_IN_RENDER
    size_t size = (size_t)1 << 30;
    char *block = malloc(size);
    memset(block, 1, size);
    (void)block[size / 2];
#endif
#ifdef FLOOD_IN_RENDER
    for (int i = 0; i < 1000000 && plugin->bus; i++) plugin->bus->publish(plugin->host, "hostile.flood", "{}");
#endif
#ifdef SELF_FLOOD
    long queued = 0, refused = 0, last_refusal = 0;
    for (int i = 0; i < SELF_FLOOD; i++) {
        int32_t result = plugin->bus->publish(plugin->host, "hostile.flood", "{\"n\":1}");
        if (result == 0) queued++; else { refused++; last_refusal = result; }
    }
    char flood_view[160];
    snprintf(flood_view, sizeof flood_view,
             "{\"view\":1,\"root\":{\"kind\":\"text\",\"text\":\"queued %ld, refused %ld (%ld), received %ld\"}}",
             queued, refused, last_refusal, plugin->received);
    return emit(out, flood_view);
#endif
#ifdef BIG_PUBLISH
    size_t big = (size_t)100 << 20;
    char *payload = malloc(big + 1);
    if (!payload) return WH_FAILED;
    memset(payload, 'x', big);
    memcpy(payload, "{\"a\":\"", 6);
    memcpy(payload + big - 2, "\"}", 2);
    payload[big] = 0;
    char big_view[96];
    snprintf(big_view, sizeof big_view, "{\"view\":1,\"root\":{\"kind\":\"text\",\"text\":\"publish returned %d\"}}",
             (int)plugin->bus->publish(plugin->host, "hostile.flood", payload));
    free(payload);
    return emit(out, big_view);
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
#ifdef LOCKED_INSIDE
    int made = mkdir("locked", 0300) == 0 && mkdir("locked/deeper", 0300) == 0;
    int kept = open("locked/deeper/kept", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (kept >= 0) close(kept);
    made = made && kept >= 0;
    return emit(out, made ? "{\"view\":1,\"root\":{\"kind\":\"text\",\"text\":\"locked inside\"}}"
                          : "{\"view\":1,\"root\":{\"kind\":\"text\",\"text\":\"could not lock inside\"}}");
#endif
#ifdef HTTP_IN_RENDER
    const wh_http_v1 *http = plugin->host->get_service(plugin->host, HTTP_SERVICE_ID);
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
    (void)action; (void)value;
    plugin->actions++;
    return WH_UNKNOWN_ACTION;
}

static void on_event(wh_plugin *plugin, const char *topic, const char *payload) {
    (void)topic; (void)payload;
    plugin->received++;
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
