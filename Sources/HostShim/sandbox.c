/* The isolated plugin's sandbox, in the order that matters: no_new_privs
 * (which seccomp needs without privileges, and which keeps a setuid
 * program from undoing the rest), then Landlock, then seccomp last, since
 * its filter would otherwise see our own set-up calls. */
#define _GNU_SOURCE
#include "sandbox_parts.h"

#include <linux/capability.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

void wh_sandbox_missing(wh_sandbox_status *status, const char *phrase) {
    size_t used = strlen(status->missing);
    if (used > 0 && used + 2 < sizeof status->missing) {
        strcat(status->missing, "; ");
        used += 2;
    }
    strncat(status->missing, phrase, sizeof status->missing - used - 1);
}

/* Root keeps its capabilities under no_new_privs; a plugin has no use for
 * them (mounting, raw devices, bypassing permissions), so they go. */
static void drop_capabilities(void) {
    if (geteuid() != 0) return;
    for (int cap = 0; cap <= 63; cap++) prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    syscall(SYS_capset, &header, data);
}

int wh_shim_sandbox_apply(const char *data_dir, const char *const *read_paths, int read_count,
                          int report_fd, int skip, wh_sandbox_status *status) {
    memset(status, 0, sizeof *status);
    status->no_new_privs = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0;
    if (!status->no_new_privs) wh_sandbox_missing(status, "no_new_privs");
    drop_capabilities();
    if (skip & WH_SANDBOX_SKIP_LANDLOCK) {
        wh_sandbox_missing(status, "Landlock (skipped on request)");
    } else {
        wh_landlock_apply(data_dir, read_paths, read_count, status);
    }
    if (skip & WH_SANDBOX_SKIP_SECCOMP) {
        wh_sandbox_missing(status, "seccomp (skipped on request)");
    } else if (status->no_new_privs) {
        status->seccomp = wh_seccomp_apply(data_dir, report_fd, status->landlock_abi > 0, status);
    } else {
        wh_sandbox_missing(status, "seccomp (needs no_new_privs)");
    }
    return (status->no_new_privs || status->landlock_abi > 0) ? 0 : -1;
}
