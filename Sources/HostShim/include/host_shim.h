/* host_shim.h: the few system calls the host needs that Swift's Glibc
 * module does not offer, or that must run inside a signal handler. */
#ifndef WIDGET_HOST_SHIM_H
#define WIDGET_HOST_SHIM_H

/* pipe2(fds, O_CLOEXEC): a pipe whose ends no concurrently spawned child
 * can inherit. Returns 0, or -1 with errno set. */
int wh_shim_pipe_cloexec(int fds[2]);

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
