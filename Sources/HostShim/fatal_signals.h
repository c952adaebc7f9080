/* fatal_signals.h: catching the signals a crash raises, for the reports
 * that name what crashed (private to HostShim). */
#ifndef WIDGET_HOST_FATAL_SIGNALS_H
#define WIDGET_HOST_FATAL_SIGNALS_H

#include <signal.h>
#include <string.h>

static const int wh_fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
#define WH_FATAL_SIGNAL_COUNT (sizeof wh_fatal_signals / sizeof wh_fatal_signals[0])

/* Installs handler for every fatal signal, on a stack of its own (a stack
 * overflow must still be reported), with the default action restored as it
 * is entered. The replaced actions go to previous unless it is NULL.
 * Returns 0, or -1. */
static inline int wh_catch_fatal_signals(void (*handler)(int, siginfo_t *, void *), struct sigaction *previous) {
    static char alternate[64 * 1024];
    stack_t stack = {.ss_sp = alternate, .ss_size = sizeof alternate, .ss_flags = 0};
    if (sigaltstack(&stack, NULL) != 0) return -1;
    for (size_t i = 0; i < WH_FATAL_SIGNAL_COUNT; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = handler;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND | SA_NODEFER;
        if (sigaction(wh_fatal_signals[i], &action, previous ? &previous[i] : NULL) != 0) return -1;
    }
    return 0;
}

#endif
