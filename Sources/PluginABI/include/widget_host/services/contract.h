/* widget_host/services/contract.h: contracts between plugins.
 *
 * A contract is a query one plugin promises to answer for others, named by a
 * versioned id of its own choosing ("org.widgethost.crypto.price/1"; ids
 * starting "widget-host." are the host's). Both sides declare it in their
 * manifests, and the host refuses whatever is not declared:
 *
 *     provider: "contracts": {"provides": ["org.widgethost.crypto.price/1"]}
 *               and answers the query of that id (plugin.h's query) with JSON;
 *     consumer: "contracts": {"requires": ["org.widgethost.crypto.price/1"]}
 *               and asks get_service for the id, which gives a wh_contract_v1;
 *               wh_use_contract(host, id) wraps that in a wh_contract_ref,
 *               as every service header does (host.h's WH_SERVICE_REF).
 *
 * get_service answers NULL for a contract the consumer did not declare, or
 * that no installed plugin provides. The host starts the provider when it is
 * first asked, and runs it as it runs the consumer (in process, or isolated
 * in its own process with --isolate); the consumer never holds the
 * provider's code or memory, only its answers.
 *
 * This table never changes: how a service grows is the growth rule in version.h. */
#ifndef WIDGET_HOST_SERVICES_CONTRACT_H
#define WIDGET_HOST_SERVICES_CONTRACT_H

#include "../host.h"
#include "../output.h"

WH_BEGIN_DECLS

/* The id under which an isolated plugin's process forwards its asks. A
 * plugin never asks get_service for it: it asks for the contract's own id. */
#define WH_SERVICE_CONTRACT "widget-host.contract/1"

enum {
    WH_CONTRACT_OK = 0,
    WH_CONTRACT_UNAVAILABLE = -1, /* the provider could not start, or stopped */
    WH_CONTRACT_BUSY = -2,        /* the provider is itself waiting on this ask
                                     (a cycle, or a plugin asking itself) */
    WH_CONTRACT_NOT_NOW = -3,     /* asked outside a call from the host */
    WH_CONTRACT_FAILED = -4,      /* the provider does not answer, failed, or
                                     answered with something other than JSON */
    WH_CONTRACT_TOO_LARGE = -5,   /* out refused the answer */
};

typedef struct wh_contract_v1 {
    /* The contract's id, as the consumer asked for it. Owned by the host,
     * valid for the life of the process. */
    const char *id;

    /* Asks the provider and writes its answer, UTF-8 JSON, to out. Returns
     * WH_CONTRACT_OK or an error above; out holds nothing on an error.
     * Blocks while the provider answers (the host gives it the deadline of a
     * query). The provider never sees the consumer's identity.
     * [in-call]: from inside create, render, handle_action or on_event, so
     * that the provider, which the host calls on its own main thread, is
     * never called twice at once. */
    int32_t (*ask)(const wh_host *host, const struct wh_contract_v1 *contract, const wh_output *out);
} wh_contract_v1;

WH_SERVICE_REF_TYPE(contract, wh_contract_v1)

/* The contract `id`; its table is NULL when the contract was not declared
 * or no installed plugin provides it. */
static inline wh_contract_ref wh_use_contract(const wh_host *host, const char *id) {
    wh_contract_ref ref = {host, host ? (const wh_contract_v1 *)host->get_service(host, id) : NULL};
    return ref;
}

static inline int32_t wh_contract_ask(wh_contract_ref ref, const wh_output *out) {
    return ref.table ? ref.table->ask(ref.host, ref.table, out) : WH_NO_SERVICE;
}

WH_END_DECLS

#endif
