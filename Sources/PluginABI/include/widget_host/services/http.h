/* widget_host/services/http.h: HTTP GET, "widget-host.http/1".
 * The only network access a plugin should need; the host enforces a timeout
 * and a limit on the size of the response.
 *
 * This table never changes: how a service grows is the growth rule in version.h. */
#ifndef WIDGET_HOST_SERVICES_HTTP_H
#define WIDGET_HOST_SERVICES_HTTP_H

#include "../host.h"
#include "../output.h"

WH_BEGIN_DECLS

#define WH_SERVICE_HTTP "widget-host.http/1"

/* Failures, as negative results of get(). */
enum {
    WH_HTTP_BAD_URL = -1,      /* not an absolute http or https URL */
    WH_HTTP_UNREACHABLE = -2,  /* no connection: DNS, refused, no network */
    WH_HTTP_TIMEOUT = -3,      /* no complete response within timeout_ms */
    WH_HTTP_TOO_LARGE = -4,    /* the body passed max_bytes; nothing usable */
    WH_HTTP_FAILED = -5,       /* anything else, such as a broken connection */
};

typedef struct wh_http_v1 {
    /* GETs url and writes the response body to body, which the *plugin*
     * provides and the host calls from this same thread. Returns the HTTP
     * status (100 to 599; non-2xx bodies are written too) or a WH_HTTP_*
     * failure. Blocks up to timeout_ms (0 means the host's default), so call
     * it from a thread of your own, never from render, and then ask for a
     * render with wh_host.request_render.
     * url and body are borrowed for the call. [any-thread] */
    int32_t (*get)(const wh_host *host, const char *url, uint32_t timeout_ms,
                   uint64_t max_bytes, const wh_output *body);
} wh_http_v1;

WH_SERVICE_REF(http, wh_http_v1, WH_SERVICE_HTTP)

/* "widget-host.http/2": the same table, whose get() also says why no
 * connection was made where http/1 answers WH_HTTP_UNREACHABLE for every
 * cause (http/1 keeps that answer, so plugins built for it see no new code).
 * A plugin declares http/2 (or both, asking for http/2 first) in its
 * manifest's services. */
#define WH_SERVICE_HTTP_2 "widget-host.http/2"

/* More failures of http/2's get(); WH_HTTP_UNREACHABLE remains for a cause
 * it cannot name (no network at all, a refused host). */
enum {
    WH_HTTP_REFUSED = -6,        /* the server's port refused the connection */
    WH_HTTP_HOST_NOT_FOUND = -7, /* DNS: the host name did not resolve */
    WH_HTTP_NO_ROUTE = -8,       /* no route to the host's network */
};

typedef wh_http_v1 wh_http_v2;

WH_SERVICE_REF(http2, wh_http_v2, WH_SERVICE_HTTP_2)

/* "widget-host.http/3": the same table again, whose get() also answers
 * WH_HTTP_DENIED when the manifest does not grant the URL's host (its
 * "http": {"hosts": [...]}); nothing was sent. http/1 and http/2 keep
 * answering WH_HTTP_UNREACHABLE for a denial, so plugins built for them
 * see no new code. A plugin asks for http/3 first, then the older ids. */
#define WH_SERVICE_HTTP_3 "widget-host.http/3"

enum {
    WH_HTTP_DENIED = -9, /* the manifest does not grant this host; no connection was tried */
};

typedef wh_http_v1 wh_http_v3;

WH_SERVICE_REF(http3, wh_http_v3, WH_SERVICE_HTTP_3)

static inline int32_t wh_http_get(wh_http_ref ref, const char *url, uint32_t timeout_ms, uint64_t max_bytes,
                                  const wh_output *body) {
    return ref.table ? ref.table->get(ref.host, url, timeout_ms, max_bytes, body) : WH_NO_SERVICE;
}

static inline int32_t wh_http2_get(wh_http2_ref ref, const char *url, uint32_t timeout_ms, uint64_t max_bytes,
                                   const wh_output *body) {
    return ref.table ? ref.table->get(ref.host, url, timeout_ms, max_bytes, body) : WH_NO_SERVICE;
}

static inline int32_t wh_http3_get(wh_http3_ref ref, const char *url, uint32_t timeout_ms, uint64_t max_bytes,
                                   const wh_output *body) {
    return ref.table ? ref.table->get(ref.host, url, timeout_ms, max_bytes, body) : WH_NO_SERVICE;
}

WH_END_DECLS

#endif
