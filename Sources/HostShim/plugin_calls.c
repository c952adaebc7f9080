/* Last words for a host whose in-process plugin ended it. A plugin loaded
 * into the host can end the whole process: exit() from inside a call, or a
 * crash. The host cannot survive either, but it can say which plugin did it
 * and what to do about it, instead of exiting 0 in silence or printing a
 * long backtrace of the host's own frames. The host marks each call into
 * plugin code (wh_shim_plugin_call_begin/end); an on_exit handler and a
 * fatal-signal handler read the mark. Everything here that a signal
 * handler touches is async-signal-safe: no malloc, no stdio, no locks. */
#define _GNU_SOURCE
#include "host_shim.h"
#include "fatal_signals.h"
#include "report_line.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Per thread: exit() runs its handlers, and a fault its signal handler, on
 * the thread that did it, so a plugin is blamed only for its own doing
 * (and calls on other threads, as tests make, never mix up the record). */
static _Thread_local const char *volatile current_plugin = NULL;
static _Thread_local const char *volatile current_call = NULL;

wh_shim_plugin_call wh_shim_plugin_call_begin(const char *plugin, const char *call) {
    wh_shim_plugin_call previous = {current_plugin, current_call};
    current_call = call;
    current_plugin = plugin;
    return previous;
}

const char *wh_shim_plugin_call_current(void) {
    return current_plugin;
}

void wh_shim_plugin_call_end(wh_shim_plugin_call previous) {
    current_plugin = previous.plugin;
    current_call = previous.call;
}

/* The loaded plugins' images: an entry is written before the count covers it. */
enum { MAX_IMAGES = 1024 };
static struct { const void *base; const char *plugin; } images[MAX_IMAGES];
static atomic_int image_count;
static pthread_mutex_t images_lock = PTHREAD_MUTEX_INITIALIZER;

void wh_shim_plugin_image(const void *address, const char *plugin) {
    Dl_info info;
    if (!dladdr(address, &info) || !info.dli_fbase) return;
    pthread_mutex_lock(&images_lock);
    int count = atomic_load(&image_count);
    if (count < MAX_IMAGES) {
        images[count].base = info.dli_fbase;
        images[count].plugin = strdup(plugin);
        atomic_store(&image_count, count + 1);
    }
    pthread_mutex_unlock(&images_lock);
}

/* The plugin whose code is on this thread's stack, innermost first, or NULL.
 * Not for a signal handler (backtrace and dladdr may lock): exit handlers
 * run in the thread's own context. */
static const char *plugin_on_stack(void) {
    void *frames[128];
    int depth = backtrace(frames, 128);
    int count = atomic_load(&image_count);
    for (int frame = 0; frame < depth; frame++) {
        Dl_info info;
        if (!dladdr(frames[frame], &info)) continue;
        for (int i = 0; i < count; i++) {
            if (images[i].base == info.dli_fbase && images[i].plugin) return images[i].plugin;
        }
    }
    return NULL;
}

/* "widget-host: plugin ID <what> during CALL, ending the host." and the advice. */
static void say_last_words(const char *plugin, const char *what, int64_t number, const char *after) {
    wh_shim_terminal_restore();
    wh_line line = {{0}, 0};
    wh_line_append(&line, "widget-host: plugin ");
    wh_line_append_bytes(&line, plugin, 200);
    wh_line_append(&line, what);
    if (after) {
        wh_line_append_signed(&line, number);
        wh_line_append(&line, after);
    }
    const char *call = current_call;
    if (call) {
        wh_line_append(&line, " during ");
        wh_line_append(&line, call);
    } else {
        wh_line_append(&line, " on a thread of its own");
    }
    wh_line_append(&line, ", ending the host.");
    wh_line_finish(&line);
    wh_line_append(&line, "widget-host: run it with --isolate (config: \"host\": {\"isolation\": \"always\"}) "
                          "so that it stops only itself.");
    wh_line_finish(&line);
    ssize_t ignored = write(STDERR_FILENO, line.text, line.length);
    (void)ignored;
}

static void on_exit_during_plugin_call(int status, void *unused) {
    (void)unused;
    const char *plugin = current_plugin;
    if (!plugin) plugin = plugin_on_stack();
    if (!plugin) return;
    say_last_words(plugin, " called exit(", status, ")");
    /* Whatever status the plugin chose, the host did not finish its work. */
    _exit(WH_SHIM_PLUGIN_EXIT_STATUS);
}

static struct sigaction previous_actions[WH_FATAL_SIGNAL_COUNT];

static const char *signal_name(int signal_number) {
    switch (signal_number) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    default: return "SIGTRAP";
    }
}

static void on_fatal_signal(int signal_number, siginfo_t *info, void *context) {
    (void)context;
    const char *plugin = current_plugin;
    if (plugin) {
        /* SA_RESETHAND made the action the default again: the report is
         * all that is said, and the process dies of the signal. */
        wh_line what = {{0}, 0};
        wh_line_append(&what, " crashed (");
        wh_line_append(&what, signal_name(signal_number));
        wh_line_append(&what, ")");
        what.text[what.length] = 0;
        say_last_words(plugin, what.text, 0, NULL);
    } else {
        /* The host's own crash: whoever handled it before (the Swift
         * runtime's backtracer, or the default action) does. */
        for (size_t i = 0; i < WH_FATAL_SIGNAL_COUNT; i++) {
            if (wh_fatal_signals[i] == signal_number) sigaction(signal_number, &previous_actions[i], NULL);
        }
    }
    /* A fault happens again when the handler returns, now with the full
     * context; a sent signal (abort, kill) or a trap that already moved past
     * its instruction must be raised again. */
    if (info && info->si_code > 0 && signal_number != SIGTRAP) return;
    raise(signal_number);
}

int wh_shim_guard_plugin_calls(void) {
    static int installed = 0;
    if (installed) return 0;
    installed = 1;
    if (on_exit(on_exit_during_plugin_call, NULL) != 0) return -1;
    return wh_catch_fatal_signals(on_fatal_signal, previous_actions);
}
