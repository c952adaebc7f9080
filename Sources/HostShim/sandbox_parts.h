/* sandbox_parts.h: the pieces of the child's sandbox, shared between
 * sandbox.c and its parts (private to HostShim). */
#ifndef WIDGET_HOST_SANDBOX_PARTS_H
#define WIDGET_HOST_SANDBOX_PARTS_H

#include "host_shim_isolation.h"

/* Appends a phrase to status->missing. */
void wh_sandbox_missing(wh_sandbox_status *status, const char *phrase);

/* Restricts the file system and TCP with Landlock, as far as the kernel's
 * ABI allows. Fills the Landlock fields of `status`. */
void wh_landlock_apply(const char *data_dir, const char *const *read_paths, int read_count,
                       wh_sandbox_status *status);

/* Installs the seccomp filter and its SIGSYS handler, which reports
 * violations to `report_fd`. `landlock_enforces_files` says whether Landlock
 * already confines writes, so the handler only needs to report them.
 * Returns 1 if installed. */
int wh_seccomp_apply(const char *data_dir, int report_fd, int landlock_enforces_files,
                     wh_sandbox_status *status);

#endif
