/* Plugins that try the escapes of issue 23, one per -D switch, for
 * EscapeTests.swift. Each is the attacker; the test checks that nothing
 * outside changed.
 *
 *   OUTLIVE_HOST      org.example.outlive: in create, clears its parent-death
 *                     signal, and stops the child's "host-watcher" thread
 *                     (a signal whose handler never returns); its screen
 *                     says it is loading, forever, so the host keeps waiting.
 *                     The view says what the attempts returned.
 *   FORGE_VALIDATION  org.example.forger: in create, prints a passing line for
 *                     every check on standard output and standard error, as
 *                     the validator once read them; every render crashes.
 *   SLOW_PROVIDER     org.example.slow: provides org.example.slow/1 and answers
 *                     it after 400 ms.
 *   ASK_FOREVER       org.example.asker: requires org.example.slow/1 and asks
 *                     it again and again in render, never returning.
 *   BAD_UTF8_PROVIDER org.example.slow again, answering org.example.slow/1
 *                     at once with JSON whose string holds the bytes FF FE.
 *   READ_CONFIG       org.example.checkout, the shipped Checkout's last segment:
 *                     its text is "secret: VALUE" from its configuration,
 *                     or "secret: absent".
 *   ASK_ONCE          org.example.asker, asking org.example.slow/1 once per
 *                     render; its text is "status N".
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "widget_host/widget_host.h"

/* Each variant's manifest is a file beside this one, found by .incbin through
 * the assembler's -I that TestSupport.compileC passes. */
#if defined(OUTLIVE_HOST)
WH_MANIFEST_FILE("escapes.outlive.widget.json")
#elif defined(FORGE_VALIDATION)
WH_MANIFEST_FILE("escapes.forger.widget.json")
#elif defined(SLOW_PROVIDER) || defined(BAD_UTF8_PROVIDER)
WH_MANIFEST_FILE("escapes.slow.widget.json")
#elif defined(READ_CONFIG)
WH_MANIFEST_FILE("escapes.not-checkout.widget.json")
#elif defined(ASK_FOREVER) || defined(ASK_ONCE)
WH_MANIFEST_FILE("escapes.asker.widget.json")
#else
#error "build with one of the switches above"
#endif

struct wh_plugin {
    const wh_host *host;
    char said[256];
};

static int32_t view(const wh_output *out, const char *text, int loading) {
    char json[512];
    if (loading) {
        snprintf(json, sizeof json, "{\"view\":1,\"root\":{\"kind\":\"progress\",\"label\":\"%s\"}}", text);
    } else {
        snprintf(json, sizeof json, "{\"view\":1,\"root\":{\"kind\":\"text\",\"text\":\"%s\"}}", text);
    }
    return out->write(out, json, strlen(json)) == 0 ? WH_OK : WH_FAILED;
}

#ifdef OUTLIVE_HOST
static void never_return(int signal_number) {
    (void)signal_number;
    for (;;) pause();
}

/* Finds the thread named "host-watcher" and parks it in never_return. */
static int stop_watcher(void) {
    DIR *tasks = opendir("/proc/self/task");
    if (!tasks) return -1;
    int stopped = 0;
    struct dirent *entry;
    while ((entry = readdir(tasks)) != NULL) {
        char path[300], name[32] = {0};
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", entry->d_name);
        FILE *comm = fopen(path, "r");
        if (!comm) continue;
        if (fgets(name, sizeof name, comm) && strncmp(name, "host-watcher", 12) == 0) {
            signal(SIGUSR2, never_return);
            stopped = syscall(SYS_tgkill, getpid(), atoi(entry->d_name), SIGUSR2) == 0;
        }
        fclose(comm);
    }
    closedir(tasks);
    return stopped;
}
#endif

static wh_plugin *create(const wh_host *host) {
    wh_plugin *p = calloc(1, sizeof(wh_plugin));
    if (!p) return NULL;
    p->host = host;
#ifdef OUTLIVE_HOST
    int cleared = prctl(PR_SET_PDEATHSIG, 0);
    snprintf(p->said, sizeof p->said, "clearing the parent-death signal returned %d; watcher stopped: %d", cleared, stop_watcher());
#endif
#ifdef FORGE_VALIDATION
    const char *checks[] = {"load", "create", "render main", "render an undeclared screen", "destroy"};
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
        printf("{\"event\": \"pass\", \"check\": \"%s\"}\n", checks[i]);
        fprintf(stderr, "{\"event\": \"pass\", \"check\": \"%s\"}\n", checks[i]);
    }
    fflush(stdout);
#endif
    return p;
}

#if defined(ASK_FOREVER) || defined(ASK_ONCE)
static int32_t ignore(const wh_output *out, const char *data, uint64_t length) {
    (void)out, (void)data, (void)length;
    return 0;
}
#endif

#ifdef READ_CONFIG
/* Keeps the first bytes of a value, as text safe inside a JSON string. */
static int32_t keep_text(const wh_output *out, const char *data, uint64_t length) {
    char *text = out->host_data;
    size_t used = strlen(text);
    for (uint64_t i = 0; i < length && used < 100; i++) {
        if (data[i] != '"' && data[i] != '\\') text[used++] = data[i];
    }
    return 0;
}
#endif

static int32_t render(wh_plugin *p, const char *screen, const char *params, const wh_output *out) {
    (void)p, (void)params;
    if (strcmp(screen, "main") != 0) return WH_UNKNOWN_SCREEN;
#ifdef FORGE_VALIDATION
    *(volatile int *)0 = 1;
#endif
#ifdef ASK_FOREVER
    wh_contract_ref contract = wh_use_contract(p->host, "org.example.slow/1");
    wh_output discard = {NULL, ignore};
    for (;;) wh_contract_ask(contract, &discard);
#endif
#ifdef ASK_ONCE
    wh_output discard = {NULL, ignore};
    int32_t status = wh_contract_ask(wh_use_contract(p->host, "org.example.slow/1"), &discard);
    snprintf(p->said, sizeof p->said, "status %d", (int)status);
    return view(out, p->said, 0);
#endif
#ifdef READ_CONFIG
    const wh_config_v1 *config = p->host->get_service(p->host, WH_SERVICE_CONFIG);
    char value[128] = {0};
    wh_output keep = {value, keep_text};
    int32_t found = config ? config->get(p->host, "secret", &keep) : 0;
    snprintf(p->said, sizeof p->said, "secret: %s", found == 1 ? value : "absent");
    return view(out, p->said, 0);
#endif
#ifdef OUTLIVE_HOST
    return view(out, p->said, 1);
#else
    return view(out, "calm", 0);
#endif
}

static int32_t handle_action(wh_plugin *p, const char *a, const char *v) { (void)p, (void)a, (void)v; return WH_UNKNOWN_ACTION; }

static int32_t query(wh_plugin *p, const char *id, const wh_output *out) {
    (void)p;
    if (strcmp(id, "org.example.slow/1") != 0) return WH_UNKNOWN_QUERY;
#ifdef BAD_UTF8_PROVIDER
    static const char answer[] = "{\"price\": \"\xff\xfe\"}";
#else
    usleep(400 * 1000);
    static const char answer[] = "{\"price\": 1}";
#endif
    return out->write(out, answer, sizeof answer - 1) == 0 ? WH_OK : WH_FAILED;
}

static void on_event(wh_plugin *p, const char *t, const char *j) { (void)p, (void)t, (void)j; }
static void destroy(wh_plugin *p) { free(p); }

static const wh_plugin_descriptor descriptor = WH_DESCRIPTOR(create, render, handle_action, on_event, destroy, query);

WH_EXPORT const wh_plugin_descriptor *widget_host_entry(void) { return &descriptor; }
