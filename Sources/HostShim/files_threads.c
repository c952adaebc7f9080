/* What Swift's Glibc module hides behind _GNU_SOURCE / _XOPEN_SOURCE. */
#define _GNU_SOURCE
#include "host_shim.h"

#include <ftw.h>
#include <pthread.h>
#include <stdio.h>

static int remove_entry(const char *path, const struct stat *status, int type, struct FTW *walk) {
    (void)status, (void)type, (void)walk;
    return remove(path);
}

int wh_shim_remove_tree(const char *path) {
    /* Depth first, and no symbolic link followed: a link is removed, never
     * what it points at. */
    return nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void wh_shim_name_thread(const char *name) {
    char shortened[16];
    snprintf(shortened, sizeof shortened, "%s", name);
    pthread_setname_np(pthread_self(), shortened);
}
