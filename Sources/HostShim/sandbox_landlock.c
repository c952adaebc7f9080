/* Landlock for an isolated plugin: reads only where the host says (the
 * system's libraries and data, the plugin's own directory), reads and
 * writes only in the plugin's data directory, no TCP bind or connect, and
 * no reaching outside through abstract Unix sockets or signals. Each
 * feature is used only if the kernel's Landlock ABI has it.
 *
 * The UAPI is spelt out here rather than taken from <linux/landlock.h>,
 * whose installed copy is often older than the running kernel. */
#define _GNU_SOURCE
#include "sandbox_parts.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

struct ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;   /* ABI 4 */
    uint64_t scoped;               /* ABI 6 */
};

struct path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

enum {
    RULE_PATH_BENEATH = 1,
    CREATE_RULESET_VERSION = 1,
};

#define FS_EXECUTE (1ULL << 0)
#define FS_WRITE_FILE (1ULL << 1)
#define FS_READ_FILE (1ULL << 2)
#define FS_READ_DIR (1ULL << 3)
#define FS_REMOVE_DIR (1ULL << 4)
#define FS_REMOVE_FILE (1ULL << 5)
#define FS_MAKE_CHAR (1ULL << 6)
#define FS_MAKE_DIR (1ULL << 7)
#define FS_MAKE_REG (1ULL << 8)
#define FS_MAKE_SOCK (1ULL << 9)
#define FS_MAKE_FIFO (1ULL << 10)
#define FS_MAKE_BLOCK (1ULL << 11)
#define FS_MAKE_SYM (1ULL << 12)
#define FS_REFER (1ULL << 13)      /* ABI 2 */
#define FS_TRUNCATE (1ULL << 14)   /* ABI 3 */
#define FS_IOCTL_DEV (1ULL << 15)  /* ABI 5 */
#define NET_BIND_TCP (1ULL << 0)
#define NET_CONNECT_TCP (1ULL << 1)
#define SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define SCOPE_SIGNAL (1ULL << 1)

/* Rights that may be granted on a file rather than a directory. */
#define FS_FILE_RIGHTS (FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV)

static int add_rule(int ruleset, const char *path, uint64_t access, uint64_t handled) {
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat info;
    if (fstat(fd, &info) != 0) {
        close(fd);
        return -1;
    }
    struct path_beneath_attr rule;
    rule.allowed_access = access & handled & (S_ISDIR(info.st_mode) ? ~0ULL : FS_FILE_RIGHTS);
    rule.parent_fd = fd;
    long added = syscall(SYS_landlock_add_rule, ruleset, RULE_PATH_BENEATH, &rule, 0);
    close(fd);
    return added == 0 ? 0 : -1;
}

void wh_landlock_apply(const char *data_dir, const char *const *read_paths, int read_count,
                       wh_sandbox_status *status) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, CREATE_RULESET_VERSION);
    if (abi <= 0) {
        wh_sandbox_missing(status, errno == EOPNOTSUPP ? "Landlock (built in but disabled at boot)"
                                                       : "Landlock (file and TCP confinement)");
        return;
    }
    uint64_t fs = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_READ_DIR | FS_REMOVE_DIR | FS_REMOVE_FILE
        | FS_MAKE_CHAR | FS_MAKE_DIR | FS_MAKE_REG | FS_MAKE_SOCK | FS_MAKE_FIFO | FS_MAKE_BLOCK | FS_MAKE_SYM;
    if (abi >= 2) fs |= FS_REFER;
    if (abi >= 3) fs |= FS_TRUNCATE;
    if (abi >= 5) fs |= FS_IOCTL_DEV;
    struct ruleset_attr attr = {fs, 0, 0};
    size_t size = sizeof attr.handled_access_fs;
    if (abi >= 4) {
        attr.handled_access_net = NET_BIND_TCP | NET_CONNECT_TCP;
        size = offsetof(struct ruleset_attr, scoped);
    } else {
        wh_sandbox_missing(status, "Landlock TCP rules (ABI 4)");
    }
    if (abi >= 6) {
        attr.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL;
        size = sizeof attr;
    } else {
        wh_sandbox_missing(status, "Landlock scoping of signals and abstract sockets (ABI 6)");
    }
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
    if (ruleset < 0) {
        wh_sandbox_missing(status, "Landlock (the ruleset was refused)");
        return;
    }
    uint64_t read = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR;
    for (int i = 0; i < read_count; i++) add_rule(ruleset, read_paths[i], read, fs);
    /* Many libraries open /dev/null for writing; it holds nothing. */
    add_rule(ruleset, "/dev/null", FS_READ_FILE | FS_WRITE_FILE | FS_TRUNCATE, fs);
    if (add_rule(ruleset, data_dir, fs, fs) != 0) {
        wh_sandbox_missing(status, "Landlock (the data directory could not be granted)");
        close(ruleset);
        return;
    }
    if (syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) {
        wh_sandbox_missing(status, "Landlock (restrict_self failed)");
        close(ruleset);
        return;
    }
    close(ruleset);
    status->landlock_abi = (int)abi;
    status->landlock_network = abi >= 4;
    status->landlock_scoped = abi >= 6;
}
