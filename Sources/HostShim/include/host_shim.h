/* host_shim.h: the few system calls the host needs that Swift's Glibc
 * module does not offer, or that must run inside a signal handler. */
#ifndef WIDGET_HOST_SHIM_H
#define WIDGET_HOST_SHIM_H

#include <stddef.h>

/* pipe2(fds, O_CLOEXEC): a pipe whose ends no concurrently spawned child
 * can inherit. Returns 0, or -1 with errno set. */
int wh_shim_pipe_cloexec(int fds[2]);

/* Receives a response body as it arrives; returns 0 to go on, anything
 * else to stop the transfer (the body is over its limit). */
typedef int (*wh_shim_http_sink)(void *context, const char *data, size_t length);

/* No libcurl on this machine: the result of wh_shim_http_get. */
#define WH_SHIM_HTTP_NO_LIBRARY (-1)

/* GETs an http or https url with libcurl, following no redirect (the
 * caller judges each hop), giving up after timeout_ms. Returns 0 and sets
 * *status to the HTTP status and `redirect` to the absolute URL a redirect
 * points at ("" if none), or libcurl's error code (CURLcode) with a message
 * in error and the system's errno for it in *os_errno (0 if none), or
 * WH_SHIM_HTTP_NO_LIBRARY. Thread: any; blocks the caller in poll(). */
int wh_shim_http_get(const char *url, long timeout_ms, wh_shim_http_sink write, void *context,
                     long *status, char *redirect, size_t redirect_length, char *error, size_t error_length,
                     long *os_errno);

/* The host part of url as libcurl, which will fetch it, parses it
 * (percent-decoded, an IPv6 address in brackets), so the host an allow-list
 * judges is the host the request goes to. 0 and host filled in, or nonzero:
 * not a URL curl would fetch, or no libcurl (WH_SHIM_HTTP_NO_LIBRARY). */
int wh_shim_url_host(const char *url, char *host, size_t host_length);

/* The terminal's width in columns, or 0 if fd is not a terminal. */
int wh_shim_terminal_width(int fd);

/* The terminal's height in rows, or 0 if fd is not a terminal. */
int wh_shim_terminal_height(int fd);

/* Puts the terminal on fd into raw mode (no echo, no line buffering, keys
 * byte by byte) on the alternate screen with the cursor hidden, and arranges
 * for it to be restored on normal exit and on SIGTERM, SIGHUP, SIGINT,
 * SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT, which are then
 * raised again for the handler there was before. Returns 0, or -1 with errno set. */
int wh_shim_terminal_enter_raw(int fd);

/* Restores the terminal saved by wh_shim_terminal_enter_raw. Safe to call
 * more than once, and from a signal handler. */
void wh_shim_terminal_restore(void);

/* From now on, a resize of the terminal (SIGWINCH) writes one byte to fd, a
 * non-blocking pipe a loop polls: it redraws for the new size without
 * waking for anything else. Returns 0, or -1 with errno. */
int wh_shim_terminal_notify_resize(int fd);

/* Opens a new pseudo-terminal (for the benchmark, which runs a dashboard on
 * one): returns its primary side and writes the replica's path to name, or
 * returns -1 with errno. */
int wh_shim_open_pty(char *name, size_t size);

/* Removes path and everything under it, following no symbolic link; 0, or
 * -1 with errno set by the first removal that failed. */
int wh_shim_remove_tree(const char *path);

/* Names the calling thread (the first 15 bytes of name) for ps and gdb. */
void wh_shim_name_thread(const char *name);

/* Which plugin's code is running on this thread, and in which call:
 * plugin and call must stay valid until the matching end. */
typedef struct wh_shim_plugin_call {
    const char *plugin;
    const char *call;
} wh_shim_plugin_call;

/* Marks the start of a call into plugin code; returns the mark it replaces,
 * for wh_shim_plugin_call_end. */
wh_shim_plugin_call wh_shim_plugin_call_begin(const char *plugin, const char *call);
void wh_shim_plugin_call_end(wh_shim_plugin_call previous);
/* The plugin whose call this thread is inside, or NULL. */
const char *wh_shim_plugin_call_current(void);

/* Records that the shared object holding `address` (a loaded plugin's entry)
 * is `plugin`'s (copied), so that exit() on a thread the plugin started,
 * outside any marked call, is still put down to it: the handler finds the
 * plugin's code on the exiting thread's stack. */
void wh_shim_plugin_image(const void *address, const char *plugin);

/* The status of a host that a plugin ended with exit() during a call. */
#define WH_SHIM_PLUGIN_EXIT_STATUS 70

/* From now on, a plugin that ends the process during a marked call, with
 * exit() or a fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
 * SIGTRAP), gets two lines on standard error naming it and the call and
 * suggesting --isolate: after exit() the status is
 * WH_SHIM_PLUGIN_EXIT_STATUS, after a signal the process dies of it. A
 * signal outside a plugin call goes to the handler there was before (the
 * Swift runtime's backtracer). Call once, early. Returns 0, or -1. */
int wh_shim_guard_plugin_calls(void);

/* An epoll set of descriptors (watch.c). add: watched for input;
 * add_hangup: watched only for the peer's hang-up (or an error), never for
 * input. wait: up to `capacity` (at most 8) ready descriptors into `ready`;
 * returns their count, 0 on timeout, or -1 with errno. A nudge is a
 * descriptor (an eventfd) another thread makes readable to wake the
 * watching thread; take_nudges makes it unreadable again. The others
 * return 0, or -1 with errno. */
int wh_shim_watch_create(void);
int wh_shim_watch_add(int watch, int fd);
int wh_shim_watch_add_hangup(int watch, int fd);
int wh_shim_watch_remove(int watch, int fd);
int wh_shim_watch_nudge_create(void);
int wh_shim_watch_nudge(int nudge);
int wh_shim_watch_take_nudges(int nudge);
int wh_shim_watch_wait(int watch, int *ready, int capacity, int timeout_ms);

/* Isolated plugins: process plumbing, crash reports and the sandbox. (Also
 * included here so that a module cache built before it existed notices.) */
#include "host_shim_isolation.h"

#endif
