/* Process plumbing for isolated plugins: the socketpair to the child, a
 * pidfd to learn of its exit, and the child's own clean-up and limits. */
#define _GNU_SOURCE
#include "host_shim_isolation.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

int wh_shim_socketpair_cloexec(int fds[2]) {
    return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds);
}

int wh_shim_pidfd_open(int pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

int wh_shim_close_from(int lowest) {
    if (syscall(SYS_close_range, (unsigned)lowest, ~0u, 0) == 0) return 0;
    /* Before Linux 5.9: walk /proc/self/fd (closing while reading is safe
     * because every closed descriptor is below the directory's own or not
     * yet visited, and the directory's own is skipped). */
    DIR *dir = opendir("/proc/self/fd");
    if (!dir) return -1;
    int own = dirfd(dir);
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        int fd = atoi(entry->d_name);
        if (entry->d_name[0] >= '0' && entry->d_name[0] <= '9' && fd >= lowest && fd != own) close(fd);
    }
    closedir(dir);
    return 0;
}

int wh_shim_set_limits(uint64_t address_space_bytes, uint64_t cpu_seconds) {
    if (address_space_bytes > 0) {
        struct rlimit limit = {address_space_bytes, address_space_bytes};
        if (setrlimit(RLIMIT_AS, &limit) != 0) return -1;
    }
    if (cpu_seconds > 0) {
        struct rlimit limit = {cpu_seconds, cpu_seconds + 1};
        if (setrlimit(RLIMIT_CPU, &limit) != 0) return -1;
    }
    return 0;
}

int wh_shim_die_with_parent(int expected_parent) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
    /* The parent may have died between fork and prctl: we were reparented. */
    if (getppid() != expected_parent) raise(SIGKILL);
    return 0;
}

#define MAX_CHILDREN 1024
static _Atomic int children[MAX_CHILDREN];
static const int ending_signals[] = {SIGTERM, SIGHUP, SIGINT};
static struct sigaction earlier_actions[sizeof ending_signals / sizeof ending_signals[0]];

/* Kills every remembered child's group, then lets the signal do what it did
 * before (the terminal's restoring handler, or the default: the host ends). */
static void on_ending_signal(int signal_number) {
    for (int i = 0; i < MAX_CHILDREN; i++) {
        int pid = atomic_load(&children[i]);
        if (pid > 0) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
        }
    }
    for (size_t i = 0; i < sizeof ending_signals / sizeof ending_signals[0]; i++) {
        if (ending_signals[i] == signal_number) sigaction(signal_number, &earlier_actions[i], NULL);
    }
    raise(signal_number);
}

static void watch_ending_signals(void) {
    static atomic_flag installed = ATOMIC_FLAG_INIT;
    if (atomic_flag_test_and_set(&installed)) return;
    for (size_t i = 0; i < sizeof ending_signals / sizeof ending_signals[0]; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_ending_signal;
        sigemptyset(&action.sa_mask);
        if (sigaction(ending_signals[i], NULL, &earlier_actions[i]) != 0) continue;
        if (earlier_actions[i].sa_handler == SIG_IGN) continue;
        sigaction(ending_signals[i], &action, &earlier_actions[i]);
    }
}

int wh_shim_children_add(int pid) {
    watch_ending_signals();
    for (int i = 0; i < MAX_CHILDREN; i++) {
        int empty = 0;
        if (atomic_compare_exchange_strong(&children[i], &empty, pid)) return 0;
    }
    return -1;
}

void wh_shim_children_remove(int pid) {
    for (int i = 0; i < MAX_CHILDREN; i++) {
        int found = pid;
        if (atomic_compare_exchange_strong(&children[i], &found, 0)) return;
    }
}
