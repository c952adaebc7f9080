/* Process plumbing for isolated plugins: the socketpair to the child, a
 * pidfd to learn of its exit, and the child's own clean-up and limits. */
#define _GNU_SOURCE
#include "host_shim_isolation.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
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
