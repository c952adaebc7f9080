/* Contracts between plugins (contract.h), for ContractTests.swift. Built
 * twice from this file:
 *
 *   -DPROVIDER  org.example.provider: provides org.example.answer/1
 *               ({"answer": 42}), org.example.broken/1 (not JSON) and
 *               org.example.cycle/1, whose answer asks the consumer's own
 *               contract back ({"inner": status of that ask}).
 *   otherwise   org.example.consumer: provides org.example.self/1 and
 *               requires all of the above plus org.example.missing/1,
 *               which nothing provides.
 *
 * Actions: "ask" [ID] makes the "main" screen ask contract ID when it
 * renders; "ask_thread" [ID] asks it from a thread of the plugin's own,
 * outside any call from the host. "main" renders what the last ask got:
 * {"contract": ID, "found": bool, "status": n, "answer": "text"}. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "widget_host/widget_host.h"

/* Each variant's manifest is a file beside this one, found by .incbin through
 * the assembler's -I that TestSupport.compileC passes. */
#ifdef PROVIDER
WH_MANIFEST_FILE("contracts.provider.widget.json")
#else
WH_MANIFEST_FILE("contracts.consumer.widget.json")
#endif

typedef struct buffer {
    char data[4096];
    size_t length;
} buffer;

static int32_t collect(const wh_output *out, const char *data, uint64_t len) {
    buffer *b = (buffer *)out->host_data;
    if (b->length + len >= sizeof b->data) return -1;
    memcpy(b->data + b->length, data, len);
    b->length += len;
    b->data[b->length] = 0;
    return 0;
}

struct wh_plugin {
    const wh_host *host;
    char contract[128];
    int pending; /* ask at the next render */
    int found;
    int32_t status;
    buffer answer;
};

/* Asks contract `id` and records what came back. */
static void ask(wh_plugin *p, const char *id) {
    if (id != p->contract) snprintf(p->contract, sizeof p->contract, "%s", id);
    memset(&p->answer, 0, sizeof p->answer);
    wh_contract_ref contract = wh_use_contract(p->host, id);
    p->found = contract.table != NULL;
    wh_output out = {&p->answer, collect};
    p->status = wh_contract_ask(contract, &out);
}

static void *ask_on_thread(void *context) {
    wh_plugin *p = context;
    ask(p, p->contract);
    return NULL;
}

static wh_plugin *create(const wh_host *host) {
    wh_plugin *p = calloc(1, sizeof(wh_plugin));
    if (p) p->host = host;
    return p;
}

static int32_t render(wh_plugin *p, const char *screen, const char *params, const wh_output *out) {
    (void)params;
    if (strcmp(screen, "main") != 0) return WH_UNKNOWN_SCREEN;
    if (p->pending) {
        p->pending = 0;
        ask(p, p->contract);
    }
    wh_view_writer w;
    wh_view_begin(&w, out);
    wh_node_begin(&w, "text");
    char text[4600];
    snprintf(text, sizeof text, "{\"contract\": \"%s\", \"found\": %s, \"status\": %d, \"answer\": \"", p->contract,
             p->found ? "true" : "false", (int)p->status);
    /* The answer as a JSON string: escape the quotes it holds. */
    size_t used = strlen(text);
    for (size_t i = 0; i < p->answer.length && used < sizeof text - 4; i++) {
        if (p->answer.data[i] == '"' || p->answer.data[i] == '\\') text[used++] = '\\';
        text[used++] = p->answer.data[i];
    }
    snprintf(text + used, sizeof text - used, "\"}");
    wh_attr(&w, "text", text);
    wh_node_end(&w);
    return wh_view_end(&w);
}

static int32_t handle_action(wh_plugin *p, const char *action, const char *value) {
    if (!value) return WH_INVALID_VALUE;
    if (strcmp(action, "ask") == 0) {
        snprintf(p->contract, sizeof p->contract, "%s", value);
        p->pending = 1;
        return WH_OK;
    }
    if (strcmp(action, "ask_thread") == 0) {
        snprintf(p->contract, sizeof p->contract, "%s", value);
        pthread_t thread;
        if (pthread_create(&thread, NULL, ask_on_thread, p) != 0) return WH_FAILED;
        pthread_join(thread, NULL);
        return WH_OK;
    }
    return WH_UNKNOWN_ACTION;
}

static int32_t query(wh_plugin *p, const char *id, const wh_output *out) {
    const char *answer;
    char inner[64];
    if (strcmp(id, "org.example.answer/1") == 0) {
        answer = "{\"answer\": 42}";
    } else if (strcmp(id, "org.example.broken/1") == 0) {
        answer = "forty-two";
    } else if (strcmp(id, "org.example.cycle/1") == 0) {
        ask(p, "org.example.self/1");
        snprintf(inner, sizeof inner, "{\"inner\": %d}", (int)p->status);
        answer = inner;
    } else if (strcmp(id, "org.example.self/1") == 0) {
        answer = "{\"self\": true}";
    } else {
        return WH_UNKNOWN_QUERY;
    }
    return out->write(out, answer, strlen(answer)) == 0 ? WH_OK : WH_FAILED;
}

static void on_event(wh_plugin *p, const char *t, const char *j) { (void)p, (void)t, (void)j; }
static void destroy(wh_plugin *p) { free(p); }

static const wh_plugin_descriptor descriptor = WH_DESCRIPTOR(create, render, handle_action, on_event, destroy, query);

WH_EXPORT const wh_plugin_descriptor *widget_host_entry(void) { return &descriptor; }
