/* What Swift's Glibc module hides behind _GNU_SOURCE / _XOPEN_SOURCE. */
#define _GNU_SOURCE
#include "host_shim.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int remove_at(int parent, const char *name);

/* Removes everything in the directory open as `fd`, and closes it. */
static int empty_directory(int fd) {
    DIR *directory = fdopendir(fd);
    if (!directory) {
        close(fd);
        return -1;
    }
    int result = 0;
    struct dirent *entry;
    while ((entry = readdir(directory))) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        if (remove_at(dirfd(directory), entry->d_name) != 0) result = -1;
    }
    closedir(directory);
    return result;
}

/* Depth first, and no symbolic link followed: a link is removed, never what
 * it points at. A directory its owner cannot read or write (a plugin may
 * leave one, mode 000, in its data directory) is given the owner's
 * permissions back first, so that it goes too. */
static int remove_at(int parent, const char *name) {
    if (unlinkat(parent, name, 0) == 0 || errno == ENOENT) return 0;
    if (errno != EISDIR) return -1;
    int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
    int fd = openat(parent, name, flags);
    if (fd < 0 && errno == EACCES && fchmodat(parent, name, S_IRWXU, AT_SYMLINK_NOFOLLOW) == 0) fd = openat(parent, name, flags);
    if (fd < 0) return -1;
    (void)fchmod(fd, S_IRWXU); /* if it is not ours, removing what it holds fails below */
    int result = empty_directory(fd);
    if (unlinkat(parent, name, AT_REMOVEDIR) != 0 && errno != ENOENT) result = -1;
    return result;
}

int wh_shim_remove_tree(const char *path) {
    return remove_at(AT_FDCWD, path);
}

void wh_shim_name_thread(const char *name) {
    char shortened[16];
    snprintf(shortened, sizeof shortened, "%s", name);
    pthread_setname_np(pthread_self(), shortened);
}
