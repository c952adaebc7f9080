/* HTTP GET through libcurl's easy interface, loaded with dlopen.
 *
 * Why not Foundation's URLSession: on this platform it busy-polls while it
 * waits, so one slow server costs seconds of CPU, while curl_easy_perform
 * waits in poll(). Why dlopen: the system has libcurl (Foundation itself
 * links it) but not its headers, so the few stable ABI numbers we use are
 * spelled out below. */
#include "host_shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

enum {
    OPT_WRITEDATA = 10001, OPT_URL = 10002, OPT_ERRORBUFFER = 10010, OPT_WRITEFUNCTION = 20011,
    OPT_FOLLOWLOCATION = 52, OPT_NOSIGNAL = 99, OPT_TIMEOUT_MS = 155, OPT_PROTOCOLS = 181,
    PROTO_HTTP_HTTPS = 1 | 2,
    INFO_RESPONSE_CODE = 0x200002, INFO_REDIRECT_URL = 0x100000 + 31, INFO_OS_ERRNO = 0x200000 + 25,
    GLOBAL_DEFAULT = 3,
    URLPART_URL = 0, URLPART_HOST = 5, URL_DECODE = 1 << 6,
    ERROR_SIZE = 256,
};

static struct {
    int (*global_init)(long);
    void *(*easy_init)(void);
    int (*easy_setopt)(void *, int, ...);
    int (*easy_perform)(void *);
    int (*easy_getinfo)(void *, int, ...);
    void (*easy_cleanup)(void *);
    void *(*url)(void);
    int (*url_set)(void *, int, const char *, unsigned int);
    int (*url_get)(void *, int, char **, unsigned int);
    void (*url_cleanup)(void *);
    void (*free)(void *);
    int loaded;
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    curl.global_init = (int (*)(long))dlsym(library, "curl_global_init");
    curl.easy_init = (void *(*)(void))dlsym(library, "curl_easy_init");
    curl.easy_setopt = (int (*)(void *, int, ...))dlsym(library, "curl_easy_setopt");
    curl.easy_perform = (int (*)(void *))dlsym(library, "curl_easy_perform");
    curl.easy_getinfo = (int (*)(void *, int, ...))dlsym(library, "curl_easy_getinfo");
    curl.easy_cleanup = (void (*)(void *))dlsym(library, "curl_easy_cleanup");
    curl.url = (void *(*)(void))dlsym(library, "curl_url");
    curl.url_set = (int (*)(void *, int, const char *, unsigned int))dlsym(library, "curl_url_set");
    curl.url_get = (int (*)(void *, int, char **, unsigned int))dlsym(library, "curl_url_get");
    curl.url_cleanup = (void (*)(void *))dlsym(library, "curl_url_cleanup");
    curl.free = (void (*)(void *))dlsym(library, "curl_free");
    if (curl.global_init && curl.easy_init && curl.easy_setopt && curl.easy_perform && curl.easy_getinfo &&
        curl.easy_cleanup && curl.url && curl.url_set && curl.url_get && curl.url_cleanup && curl.free &&
        curl.global_init(GLOBAL_DEFAULT) == 0)
        curl.loaded = 1;
}

struct sink {
    wh_shim_http_sink write;
    void *context;
};

static size_t on_data(char *data, size_t size, size_t count, void *userdata) {
    struct sink *sink = userdata;
    size_t length = size * count;
    /* Returning less than length makes curl stop with a write error. */
    return sink->write(sink->context, data, length) == 0 ? length : 0;
}

int wh_shim_http_get(const char *url, long timeout_ms, wh_shim_http_sink write, void *context,
                     long *status, char *redirect, size_t redirect_length, char *error, size_t error_length,
                     long *os_errno) {
    if (redirect_length > 0) redirect[0] = 0;
    *os_errno = 0;
    pthread_once(&load_once, load);
    if (!curl.loaded) {
        snprintf(error, error_length, "libcurl.so.4 could not be loaded");
        return WH_SHIM_HTTP_NO_LIBRARY;
    }
    void *handle = curl.easy_init();
    if (!handle) {
        snprintf(error, error_length, "curl_easy_init failed");
        return WH_SHIM_HTTP_NO_LIBRARY;
    }
    char buffer[ERROR_SIZE] = {0};
    struct sink sink = {write, context};
    curl.easy_setopt(handle, OPT_URL, url);
    curl.easy_setopt(handle, OPT_ERRORBUFFER, buffer);
    curl.easy_setopt(handle, OPT_WRITEFUNCTION, on_data);
    curl.easy_setopt(handle, OPT_WRITEDATA, &sink);
    curl.easy_setopt(handle, OPT_TIMEOUT_MS, timeout_ms);
    curl.easy_setopt(handle, OPT_NOSIGNAL, 1L);   /* signals and threads do not mix */
    /* Each hop is the caller's to allow: a plugin's allowed hosts hold for
     * every one of them, not just the first. */
    curl.easy_setopt(handle, OPT_FOLLOWLOCATION, 0L);
    curl.easy_setopt(handle, OPT_PROTOCOLS, (long)PROTO_HTTP_HTTPS);
    int result = curl.easy_perform(handle);
    *status = 0;
    curl.easy_getinfo(handle, INFO_RESPONSE_CODE, status);
    /* Why a connection failed (refused, no route), which the error code alone does not say. */
    if (result != 0) curl.easy_getinfo(handle, INFO_OS_ERRNO, os_errno);
    char *location = NULL;
    if (result == 0 && curl.easy_getinfo(handle, INFO_REDIRECT_URL, &location) == 0 && location && redirect_length > 0)
        snprintf(redirect, redirect_length, "%s", location);
    snprintf(error, error_length, "%s", buffer);
    curl.easy_cleanup(handle);
    return result;
}

int wh_shim_url_host(const char *url, char *host, size_t host_length) {
    pthread_once(&load_once, load);
    if (!curl.loaded) return WH_SHIM_HTTP_NO_LIBRARY;
    void *parsed = curl.url();
    if (!parsed) return WH_SHIM_HTTP_NO_LIBRARY;
    char *part = NULL;
    int result = curl.url_set(parsed, URLPART_URL, url, 0);
    if (result == 0) result = curl.url_get(parsed, URLPART_HOST, &part, URL_DECODE);
    if (result == 0) {
        if (strlen(part) < host_length) snprintf(host, host_length, "%s", part);
        else result = -1;
        curl.free(part);
    }
    curl.url_cleanup(parsed);
    return result;
}
