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

/* The terminal's width in columns, or 0 if fd is not a terminal. */
int wh_shim_terminal_width(int fd);

/* Puts the terminal on fd into raw mode (no echo, no line buffering, keys
 * byte by byte) on the alternate screen with the cursor hidden, and arranges
 * for it to be restored on normal exit and on SIGTERM, SIGHUP, SIGINT,
 * SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT, which are then
 * re-raised. Returns 0, or -1 with errno set. */
int wh_shim_terminal_enter_raw(int fd);

/* Restores the terminal saved by wh_shim_terminal_enter_raw. Safe to call
 * more than once, and from a signal handler. */
void wh_shim_terminal_restore(void);

/* Isolated plugins: process plumbing, crash reports and the sandbox. (Also
 * included here so that a module cache built before it existed notices.) */
#include "host_shim_isolation.h"

#endif
