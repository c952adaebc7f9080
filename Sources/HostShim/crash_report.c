/* Crash reports from an isolated plugin's process: a fatal signal is
 * written to the report descriptor as one line before the process dies of
 * it, with the faulting thread's errno, so the host can tell "the plugin
 * crashed" from "an allocation failed against the memory limit". */
#define _GNU_SOURCE
#include "host_shim_isolation.h"
#include "fatal_signals.h"
#include "report_line.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile int report_descriptor = -1;

static void on_fatal_signal(int signal_number, siginfo_t *info, void *context) {
    (void)context;
    int saved = errno;
    wh_line line = {{0}, 0};
    wh_line_append(&line, "crash ");
    wh_line_append_unsigned(&line, (uint64_t)signal_number, 10);
    wh_line_append(&line, " ");
    wh_line_append_unsigned(&line, (uint64_t)(uintptr_t)(info ? info->si_addr : 0), 16);
    wh_line_append(&line, " ");
    wh_line_append_unsigned(&line, (uint64_t)saved, 10);
    wh_line_finish(&line);
    if (report_descriptor >= 0) {
        ssize_t ignored = write(report_descriptor, line.text, line.length);
        (void)ignored;
    }
    /* SA_RESETHAND restored the default action: returning re-runs a
     * faulting instruction, and raise() covers abort() and kill(). */
    raise(signal_number);
}

int wh_shim_install_crash_reporter(int report_fd) {
    report_descriptor = report_fd;
    return wh_catch_fatal_signals(on_fatal_signal, NULL);
}
