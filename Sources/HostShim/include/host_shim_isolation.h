/* host_shim_isolation.h: the system calls behind isolated plugins, which
 * Swift's Glibc module lacks (prctl, syscall, seccomp, Landlock) or which
 * must run in a signal handler (crash and sandbox reports). */
#ifndef WIDGET_HOST_SHIM_ISOLATION_H
#define WIDGET_HOST_SHIM_ISOLATION_H

#include <stdint.h>

/* ---- Process plumbing (host and child) ---- */

/* socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC). Returns 0, or -1 with errno. */
int wh_shim_socketpair_cloexec(int fds[2]);

/* pidfd_open(pid, 0): a descriptor that polls readable once the process has
 * exited. Returns the descriptor (close-on-exec), or -1 with errno (ENOSYS
 * before Linux 5.3). */
int wh_shim_pidfd_open(int pid);

/* Closes every descriptor from `lowest` up. Returns 0, or -1 with errno. */
int wh_shim_close_from(int lowest);

/* Sets RLIMIT_AS to `address_space_bytes` and RLIMIT_CPU to `cpu_seconds`
 * (soft; the hard limit is one second more, so SIGXCPU comes first). Zero
 * leaves a limit alone. Returns 0, or -1 with errno. */
int wh_shim_set_limits(uint64_t address_space_bytes, uint64_t cpu_seconds);

/* The kernel kills this process (SIGKILL) when its parent ends, and at once
 * if the parent is no longer `expected_parent` (it died before this call).
 * The parent is the *thread* that forked us, so the host spawns from a
 * thread that lives as long as it does (`Spawn`). Returns 0, or -1 with errno. */
int wh_shim_die_with_parent(int expected_parent);

/* The host's children, so that the signals that end the host end them too:
 * their process groups get SIGKILL on SIGTERM, SIGHUP or SIGINT, and then
 * the signal takes its earlier course (a signal ignored stays ignored, and
 * is not watched). At most 1024 children are remembered; remembering more
 * returns -1. */
int wh_shim_children_add(int pid);
void wh_shim_children_remove(int pid);

/* ---- Reports from the child ----
 *
 * The child writes one line per event to its report descriptor, each with a
 * single write(2), from signal handlers:
 *   "crash SIGNO ADDRESS ERRNO\n"  a fatal signal (ERRNO is the faulting
 *                                  thread's errno, so ENOMEM names a failed
 *                                  allocation)
 *   "violation TEXT\n"             the sandbox stopped the plugin; TEXT says
 *                                  what it tried
 * and then the process dies. */

/* Installs handlers for SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT and SIGTRAP
 * that report and then die of the same signal. Returns 0, or -1 with errno. */
int wh_shim_install_crash_reporter(int report_fd);

/* ---- The sandbox (child only, before the plugin is loaded) ---- */

typedef struct wh_sandbox_status {
    /* 1 if prctl(PR_SET_NO_NEW_PRIVS) succeeded. */
    int no_new_privs;
    /* 1 if the seccomp filter is installed. */
    int seccomp;
    /* The Landlock ABI in force, 0 if none. */
    int landlock_abi;
    /* 1 if Landlock also denies TCP bind and connect (ABI 4). */
    int landlock_network;
    /* 1 if Landlock also scopes abstract Unix sockets and signals (ABI 6). */
    int landlock_scoped;
    /* What the kernel lacked, as "; "-separated phrases. */
    char missing[512];
} wh_sandbox_status;

/* Features wh_shim_sandbox_apply may be told to leave out, to see how the
 * rest copes on a kernel that lacks them. */
enum {
    WH_SANDBOX_SKIP_LANDLOCK = 1,
    WH_SANDBOX_SKIP_SECCOMP = 2,
};

/* Confines this process for good: no_new_privs, then a Landlock ruleset
 * (reads only under `read_paths`, reads and writes only under `data_dir`,
 * no TCP), then a seccomp filter (x86-64 only: no new sockets of any family,
 * no new programs or processes, no tracing, no permission, owner, time or
 * attribute changes; writes to files are checked and one that resolves
 * outside `data_dir` is reported as a violation). `data_dir` must be an
 * absolute, canonical path. Whatever the kernel lacks, or `skip` names, is left out
 * and named in `status->missing`. Returns 0, or -1 if nothing at all could be applied. */
int wh_shim_sandbox_apply(const char *data_dir, const char *const *read_paths, int read_count,
                          int report_fd, int skip, wh_sandbox_status *status);

#endif
