/* The seccomp filter of an isolated plugin, and the SIGSYS handler that
 * turns what it catches into a report.
 *
 * Caught and fatal, whoever makes them: every new socket (network or Unix:
 * socket, socketpair, connect, bind; the host link is a socketpair made
 * before the sandbox), running programs, starting processes, tracing or
 * signalling other processes, io_uring, namespace and mount calls, and a
 * few privileged calls. The handler writes "violation tried to ..." to the
 * report descriptor and ends the process.
 *
 * Caught and refused: calls that change a file's metadata (chmod, chown,
 * utimes, setxattr, removexattr and their f*, l* and *at forms). Landlock
 * does not govern them, and the handler cannot perform them safely (any
 * system call it may make, the plugin may make too), so none is ever
 * performed: one aimed at the data directory fails with EPERM, one whose
 * target resolves outside it (through a symbolic link, say) is reported.
 *
 * Caught and checked: calls that write to the file system (open for
 * writing, create, rename, delete, link, truncate...). Landlock decides
 * them; the handler re-issues each through a gateway, a syscall
 * instruction whose address the filter recognises, and reports a refusal
 * whose target resolves outside the data directory. The plugin can find
 * and call the gateway itself, so the gateway lets through nothing but
 * these Landlock-judged calls: no decision rests on the caller's address.
 * Without Landlock (--allow-weak-sandbox) the handler judges writes by the
 * path they resolve to, which a plugin that calls the gateway directly
 * skips: that cage is weak, and the host says so. (The handler only words
 * reports and is no authority, so it can live in the plugin's process; a
 * supervisor outside, SECCOMP_RET_USER_NOTIF, would be needed only for
 * decisions the kernel cannot make, and none is left.)
 *
 * SIGSYS must reach the handler: rt_sigaction(SIGSYS) is refused by the
 * filter itself, and a blocking rt_sigprocmask is done by the handler on
 * the mask the thread returns to, without SIGSYS (a blocked SIGSYS would
 * kill the process unexplained, as glibc's posix_spawn blocks everything).
 *
 * Built for x86-64 only; elsewhere the filter is reported as missing. */
#define _GNU_SOURCE
#include "sandbox_parts.h"
#include "report_line.h"

#if defined(__x86_64__)

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#endif
#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif
#ifndef SECCOMP_RET_KILL_PROCESS
#define SECCOMP_RET_KILL_PROCESS 0x80000000U
#endif

#ifndef SYS_setxattrat
#define SYS_setxattrat 463
#endif
#ifndef SYS_removexattrat
#define SYS_removexattrat 466
#endif

/* ---- The gateway: a syscall instruction whose calls the handler makes ---- */

long wh_seccomp_gateway(long nr, long a0, long a1, long a2, long a3, long a4, long a5);
extern const char wh_seccomp_gateway_return[];

__asm__(
    ".text\n"
    ".globl wh_seccomp_gateway\n"
    ".hidden wh_seccomp_gateway\n"
    ".type wh_seccomp_gateway,@function\n"
    "wh_seccomp_gateway:\n"
    "    movq %rdi, %rax\n"
    "    movq %rsi, %rdi\n"
    "    movq %rdx, %rsi\n"
    "    movq %rcx, %rdx\n"
    "    movq %r8, %r10\n"
    "    movq %r9, %r8\n"
    "    movq 8(%rsp), %r9\n"
    "    syscall\n"
    ".globl wh_seccomp_gateway_return\n"
    ".hidden wh_seccomp_gateway_return\n"
    "wh_seccomp_gateway_return:\n"
    "    ret\n"
    ".size wh_seccomp_gateway, .-wh_seccomp_gateway\n");

/* ---- State the handler reads ---- */

static char data_directory[4096];
static size_t data_directory_length;
static int report_descriptor = -1;
static int landlock_enforces = 0;

/* ---- The filter ---- */

static struct sock_filter program[512];
static unsigned short program_length;

static void emit(struct sock_filter instruction) {
    if (program_length < sizeof program / sizeof program[0]) program[program_length++] = instruction;
}

#define LOAD(field) emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field)))
#define LOAD_ARG_LOW(n) emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[n])))
#define LOAD_ARG_HIGH(n) emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[n]) + 4))
#define JUMP(op, k, t, f) emit((struct sock_filter)BPF_JUMP(BPF_JMP | (op) | BPF_K, (k), (t), (f)))
#define RETURN(value) emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, (value)))

static void trap_if(int nr) {
    JUMP(BPF_JEQ, nr, 0, 1);
    RETURN(SECCOMP_RET_TRAP);
}

static void allow_if(int nr) {
    JUMP(BPF_JEQ, nr, 0, 1);
    RETURN(SECCOMP_RET_ALLOW);
}

static void fail_if(int nr, int error) {
    JUMP(BPF_JEQ, nr, 0, 1);
    RETURN(SECCOMP_RET_ERRNO | (error & SECCOMP_RET_DATA));
}

/* nr allowed only when argument `arg` is exactly this process's pid. */
static void allow_only_own_pid(int nr, int arg, uint32_t pid) {
    JUMP(BPF_JEQ, nr, 0, 6);
    LOAD_ARG_LOW(arg);
    JUMP(BPF_JEQ, pid, 0, 3);
    LOAD_ARG_HIGH(arg);
    JUMP(BPF_JEQ, 0, 0, 1);
    RETURN(SECCOMP_RET_ALLOW);
    RETURN(SECCOMP_RET_TRAP);
}

/* nr trapped when any bit of `mask` is set in argument `arg`. */
static void trap_if_flags(int nr, int arg, uint32_t mask) {
    JUMP(BPF_JEQ, nr, 0, 4);
    LOAD_ARG_LOW(arg);
    JUMP(BPF_JSET, mask, 0, 1);
    RETURN(SECCOMP_RET_TRAP);
    RETURN(SECCOMP_RET_ALLOW);
}

/* nr trapped unless some bit of `mask` is set in argument `arg`. */
static void trap_unless_flags(int nr, int arg, uint32_t mask) {
    JUMP(BPF_JEQ, nr, 0, 4);
    LOAD_ARG_LOW(arg);
    JUMP(BPF_JSET, mask, 0, 1);
    RETURN(SECCOMP_RET_ALLOW);
    RETURN(SECCOMP_RET_TRAP);
}

#define WRITE_FLAGS (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC)
#define COUNT(array) (sizeof array / sizeof array[0])

static const int fatal_calls[] = {
    SYS_socket, SYS_socketpair, SYS_connect, SYS_bind,
    SYS_execve, SYS_execveat, SYS_fork, SYS_vfork, SYS_ptrace, SYS_io_uring_setup, SYS_unshare,
    SYS_setns, SYS_mount, SYS_umount2, SYS_pivot_root, SYS_chroot, SYS_open_by_handle_at, SYS_tkill,
    SYS_pidfd_send_signal, SYS_pidfd_getfd, SYS_bpf, SYS_perf_event_open,
};

/* Changes Landlock does not govern: never performed. */
static const int metadata_changes[] = {
    SYS_chmod, SYS_fchmod, SYS_fchmodat, SYS_fchmodat2, SYS_chown, SYS_fchown, SYS_lchown, SYS_fchownat,
    SYS_utime, SYS_utimes, SYS_futimesat, SYS_utimensat, SYS_setxattr, SYS_lsetxattr, SYS_fsetxattr,
    SYS_removexattr, SYS_lremovexattr, SYS_fremovexattr, SYS_setxattrat, SYS_removexattrat,
};

/* Writes Landlock judges by what the path resolves to (truncate from ABI
 * 3, which the host requires): harmless whoever makes them, so the gateway
 * may re-issue them. open and openat come first, trapped only for writing. */
static const int file_writes[] = {
    SYS_open, SYS_openat,
    SYS_creat, SYS_truncate, SYS_rename, SYS_renameat, SYS_renameat2, SYS_mkdir, SYS_mkdirat, SYS_rmdir,
    SYS_unlink, SYS_unlinkat, SYS_link, SYS_linkat, SYS_symlink, SYS_symlinkat, SYS_mknod, SYS_mknodat,
};

static void build_program(uint32_t pid) {
    program_length = 0;
    LOAD(arch);
    JUMP(BPF_JEQ, AUDIT_ARCH_X86_64, 1, 0);
    RETURN(SECCOMP_RET_KILL_PROCESS);
    LOAD(nr);
    /* The x32 ABI numbers calls differently; nothing here uses it. */
    JUMP(BPF_JGE, 0x40000000, 0, 1);
    RETURN(SECCOMP_RET_KILL_PROCESS);

    /* Fatal or refused, whoever makes them (the gateway too). */
    for (size_t i = 0; i < COUNT(fatal_calls); i++) trap_if(fatal_calls[i]);
    trap_unless_flags(SYS_clone, 0, CLONE_THREAD);
    /* Their arguments live in memory a filter cannot read; glibc falls
     * back to clone and openat. */
    fail_if(SYS_clone3, ENOSYS);
    fail_if(SYS_openat2, ENOSYS);
    allow_only_own_pid(SYS_kill, 0, pid);
    allow_only_own_pid(SYS_tgkill, 0, pid);
    allow_only_own_pid(SYS_rt_sigqueueinfo, 0, pid);
    allow_only_own_pid(SYS_rt_tgsigqueueinfo, 0, pid);
    allow_only_own_pid(SYS_process_vm_readv, 0, pid);
    allow_only_own_pid(SYS_process_vm_writev, 0, pid);
    /* The host's death must end the plugin (wh_shim_die_with_parent): the
     * parent-death signal cannot be changed or cleared. */
    JUMP(BPF_JEQ, SYS_prctl, 0, 4);
    LOAD_ARG_LOW(0);
    JUMP(BPF_JEQ, PR_SET_PDEATHSIG, 0, 1);
    RETURN(SECCOMP_RET_ERRNO | EPERM);
    RETURN(SECCOMP_RET_ALLOW);
    /* The handler must stay: SIGSYS is caught by it alone. */
    JUMP(BPF_JEQ, SYS_rt_sigaction, 0, 4);
    LOAD_ARG_LOW(0);
    JUMP(BPF_JEQ, SIGSYS, 0, 1);
    RETURN(SECCOMP_RET_ERRNO | EPERM);
    RETURN(SECCOMP_RET_ALLOW);
    for (size_t i = 0; i < COUNT(metadata_changes); i++) trap_if(metadata_changes[i]);

    /* The gateway: only calls that are harmless whoever makes them. */
    uint64_t gateway = (uint64_t)(uintptr_t)wh_seccomp_gateway_return;
    LOAD(instruction_pointer);
    JUMP(BPF_JEQ, (uint32_t)gateway, 0, 3 + 2 * COUNT(file_writes));
    emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, instruction_pointer) + 4));
    JUMP(BPF_JEQ, (uint32_t)(gateway >> 32), 0, 1 + 2 * COUNT(file_writes));
    LOAD(nr);
    for (size_t i = 0; i < COUNT(file_writes); i++) allow_if(file_writes[i]);
    LOAD(nr);

    /* Blocking (SIG_BLOCK 0, SIG_SETMASK 2) may name SIGSYS: checked. */
    JUMP(BPF_JEQ, SYS_rt_sigprocmask, 0, 5);
    LOAD_ARG_LOW(0);
    JUMP(BPF_JEQ, SIG_BLOCK, 1, 0);
    JUMP(BPF_JEQ, SIG_SETMASK, 0, 1);
    RETURN(SECCOMP_RET_TRAP);
    RETURN(SECCOMP_RET_ALLOW);
    trap_if_flags(SYS_open, 1, WRITE_FLAGS);
    trap_if_flags(SYS_openat, 2, WRITE_FLAGS);
    for (size_t i = 2; i < COUNT(file_writes); i++) trap_if(file_writes[i]);
    RETURN(SECCOMP_RET_ALLOW);
}

/* ---- The handler ---- */

static void report_and_die(wh_line *line) {
    wh_line_finish(line);
    if (report_descriptor >= 0) {
        ssize_t ignored = write(report_descriptor, line->text, line->length);
        (void)ignored;
    }
    syscall(SYS_exit_group, 128 + SIGSYS);
}

static void violation(const char *what) {
    wh_line line = {{0}, 0};
    wh_line_append(&line, "violation tried to ");
    wh_line_append(&line, what);
    report_and_die(&line);
}

/* Copies `size` bytes from this process's memory without faulting on a
 * bad pointer. Returns 0, or -1. */
static int read_memory(long address, void *buffer, size_t size) {
    struct iovec local = {buffer, size};
    struct iovec remote = {(void *)address, size};
    return address != 0 && syscall(SYS_process_vm_readv, getpid(), &local, 1, &remote, 1, 0) == (long)size ? 0 : -1;
}

/* Copies a NUL-terminated string from this process's memory without
 * faulting on a bad pointer. Returns its length, or -1. */
static long read_string(long address, char *buffer, size_t size) {
    if (address == 0) return -1;
    struct iovec local = {buffer, size - 1};
    struct iovec remote = {(void *)address, size - 1};
    long count = syscall(SYS_process_vm_readv, getpid(), &local, 1, &remote, 1, 0);
    if (count <= 0) {
        /* The string may end just before an unmapped page: try byte by byte. */
        count = 0;
        while ((size_t)count < size - 1) {
            if (read_memory(address + count, buffer + count, 1) != 0) break;
            if (buffer[count] == 0) break;
            count++;
        }
        if (count == 0 && read_memory(address, buffer, 1) != 0) return -1;
    }
    buffer[count] = 0;
    return (long)strnlen(buffer, (size_t)count);
}

/* The file a descriptor names, from /proc/self/fd; "" if unknown. */
static void descriptor_path(long fd, char *out, size_t size) {
    char link[64] = "/proc/self/fd/";
    wh_line number = {{0}, 0};
    wh_line_append_unsigned(&number, (uint64_t)(int)fd, 10);
    memcpy(link + 14, number.text, number.length);
    link[14 + number.length] = 0;
    long count = syscall(SYS_readlink, link, out, size - 1);
    if (count < 0) count = 0;
    out[count] = 0;
}

/* What `path` (against `dirfd`) resolves to, as the kernel would see it:
 * with `follow`, a final symbolic link is followed; the name itself is
 * judged otherwise (rename, unlink, lchown...). A name that does not exist
 * yet is its parent directory, resolved, plus the name. Only O_PATH opens,
 * which neither write nor block. */
static void resolve(long dirfd, const char *path, int follow, char *out, size_t size) {
    out[0] = 0;
    if (path[0] == 0) {
        descriptor_path(dirfd, out, size);
        return;
    }
    int fd = follow ? (int)syscall(SYS_openat, dirfd, path, O_PATH | O_CLOEXEC, 0) : -1;
    if (fd >= 0) {
        descriptor_path(fd, out, size);
        syscall(SYS_close, fd);
        return;
    }
    char parent[4096];
    size_t length = strnlen(path, sizeof parent - 1);
    while (length > 1 && path[length - 1] == '/') length--;
    size_t slash = length;
    while (slash > 0 && path[slash - 1] != '/') slash--;
    const char *name = path + slash;
    size_t name_length = length - slash;
    if (slash == 0) {
        memcpy(parent, ".", 2);
    } else {
        memcpy(parent, path, slash);
        parent[slash] = 0;
    }
    fd = (int)syscall(SYS_openat, dirfd, parent, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
    if (fd < 0) {
        /* Nothing to resolve against: the text is all there is. */
        size_t copied = strnlen(path, size - 1);
        memcpy(out, path, copied);
        out[copied] = 0;
        return;
    }
    descriptor_path(fd, out, size);
    syscall(SYS_close, fd);
    size_t used = strlen(out);
    if (used + name_length + 2 < size && !(name_length == 1 && name[0] == '.')) {
        if (used > 1) out[used++] = '/';
        memcpy(out + used, name, name_length);
        out[used + name_length] = 0;
    }
}

static int inside_data_directory(const char *path) {
    if (strcmp(path, "/dev/null") == 0) return 1;
    return strncmp(path, data_directory, data_directory_length) == 0
        && (path[data_directory_length] == 0 || path[data_directory_length] == '/');
}

typedef struct target {
    long dirfd;
    long path;       /* address of the path; 0 means the descriptor dirfd itself */
    int follow;      /* whether a final symbolic link is followed */
} target;

/* The targets of a file call and the words for it. Returns the count, 0
 * for a call this does not know. */
static int file_targets(long nr, const long *a, target targets[2], const char **verb) {
    const long here = AT_FDCWD;
    switch (nr) {
    case SYS_open: targets[0] = (target){here, a[0], !(a[1] & O_NOFOLLOW)}; *verb = "write"; return 1;
    case SYS_openat: targets[0] = (target){a[0], a[1], !(a[2] & O_NOFOLLOW)}; *verb = "write"; return 1;
    case SYS_creat: targets[0] = (target){here, a[0], 1}; *verb = "create"; return 1;
    case SYS_truncate: targets[0] = (target){here, a[0], 1}; *verb = "truncate"; return 1;
    case SYS_rename: targets[0] = (target){here, a[0], 0}; targets[1] = (target){here, a[1], 0}; *verb = "rename"; return 2;
    case SYS_renameat:
    case SYS_renameat2: targets[0] = (target){a[0], a[1], 0}; targets[1] = (target){a[2], a[3], 0}; *verb = "rename"; return 2;
    case SYS_mkdir: targets[0] = (target){here, a[0], 0}; *verb = "create the directory"; return 1;
    case SYS_mkdirat: targets[0] = (target){a[0], a[1], 0}; *verb = "create the directory"; return 1;
    case SYS_rmdir: targets[0] = (target){here, a[0], 0}; *verb = "remove the directory"; return 1;
    case SYS_unlink: targets[0] = (target){here, a[0], 0}; *verb = "delete"; return 1;
    case SYS_unlinkat: targets[0] = (target){a[0], a[1], 0}; *verb = "delete"; return 1;
    case SYS_link: targets[0] = (target){here, a[0], 0}; targets[1] = (target){here, a[1], 0}; *verb = "link"; return 2;
    case SYS_linkat:
        targets[0] = (target){a[0], a[1], (a[4] & AT_SYMLINK_FOLLOW) != 0};
        targets[1] = (target){a[2], a[3], 0};
        *verb = "link";
        return 2;
    case SYS_symlink: targets[0] = (target){here, a[1], 0}; *verb = "create the symbolic link"; return 1;
    case SYS_symlinkat: targets[0] = (target){a[1], a[2], 0}; *verb = "create the symbolic link"; return 1;
    case SYS_mknod: targets[0] = (target){here, a[0], 0}; *verb = "create the special file"; return 1;
    case SYS_mknodat: targets[0] = (target){a[0], a[1], 0}; *verb = "create the special file"; return 1;
    case SYS_chmod: targets[0] = (target){here, a[0], 1}; *verb = "change the permissions of"; return 1;
    case SYS_fchmod: targets[0] = (target){a[0], 0, 1}; *verb = "change the permissions of"; return 1;
    case SYS_fchmodat:
    case SYS_fchmodat2: targets[0] = (target){a[0], a[1], !(a[3] & AT_SYMLINK_NOFOLLOW)}; *verb = "change the permissions of"; return 1;
    case SYS_chown: targets[0] = (target){here, a[0], 1}; *verb = "change the owner of"; return 1;
    case SYS_lchown: targets[0] = (target){here, a[0], 0}; *verb = "change the owner of"; return 1;
    case SYS_fchown: targets[0] = (target){a[0], 0, 1}; *verb = "change the owner of"; return 1;
    case SYS_fchownat: targets[0] = (target){a[0], a[1], !(a[4] & AT_SYMLINK_NOFOLLOW)}; *verb = "change the owner of"; return 1;
    case SYS_utime:
    case SYS_utimes: targets[0] = (target){here, a[0], 1}; *verb = "change the times of"; return 1;
    case SYS_futimesat: targets[0] = (target){a[0], a[1], 1}; *verb = "change the times of"; return 1;
    case SYS_utimensat: targets[0] = (target){a[0], a[1], !(a[3] & AT_SYMLINK_NOFOLLOW)}; *verb = "change the times of"; return 1;
    case SYS_setxattr:
    case SYS_removexattr: targets[0] = (target){here, a[0], 1}; *verb = "change the extended attributes of"; return 1;
    case SYS_lsetxattr:
    case SYS_lremovexattr: targets[0] = (target){here, a[0], 0}; *verb = "change the extended attributes of"; return 1;
    case SYS_fsetxattr:
    case SYS_fremovexattr: targets[0] = (target){a[0], 0, 1}; *verb = "change the extended attributes of"; return 1;
    case SYS_setxattrat:
    case SYS_removexattrat: targets[0] = (target){a[0], a[1], !(a[2] & AT_SYMLINK_NOFOLLOW)}; *verb = "change the extended attributes of"; return 1;
    default: return 0;
    }
}

static int is_metadata_change(long nr) {
    for (size_t i = 0; i < COUNT(metadata_changes); i++)
        if (metadata_changes[i] == nr) return 1;
    return 0;
}

static void report_outside(const char *verb, const char *path, const char *lexical) {
    wh_line line = {{0}, 0};
    wh_line_append(&line, "violation tried to ");
    wh_line_append(&line, verb);
    wh_line_append(&line, " ");
    wh_line_append_bytes(&line, path, 512);
    wh_line_append(&line, " outside its data directory");
    if (strcmp(path, lexical) != 0) {
        wh_line_append(&line, " (through ");
        wh_line_append_bytes(&line, lexical, 256);
        wh_line_append(&line, ")");
    }
    report_and_die(&line);
}

static void check_file_call(long nr, const long *a, greg_t *registers) {
    target targets[2];
    const char *verb = "write";
    int count = file_targets(nr, a, targets, &verb);
    if (count == 0) {
        violation("make a forbidden file system call");
        return;
    }
    /* Each target as the plugin wrote it and as it resolves. */
    char written[2][4096], resolved[2][4096];
    int outside = -1;
    for (int i = 0; i < count; i++) {
        if (targets[i].path == 0) {
            descriptor_path(targets[i].dirfd, resolved[i], sizeof resolved[i]);
            memcpy(written[i], resolved[i], strlen(resolved[i]) + 1);
        } else {
            if (read_string(targets[i].path, written[i], sizeof written[i]) < 0) {
                /* A bad pointer: the kernel would answer EFAULT. */
                registers[REG_RAX] = -EFAULT;
                return;
            }
            resolve(targets[i].dirfd, written[i], targets[i].follow, resolved[i], sizeof resolved[i]);
        }
        if (outside < 0 && !inside_data_directory(resolved[i])) outside = i;
    }

    if (is_metadata_change(nr)) {
        if (outside >= 0) report_outside(verb, resolved[outside], written[outside]);
        registers[REG_RAX] = -EPERM;
        return;
    }
    if (landlock_enforces) {
        long result = wh_seccomp_gateway(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
        if (outside >= 0 && (result == -EACCES || result == -EPERM || result == -EXDEV))
            report_outside(verb, resolved[outside], written[outside]);
        registers[REG_RAX] = result;
        return;
    }
    if (outside >= 0) report_outside(verb, resolved[outside], written[outside]);
    registers[REG_RAX] = wh_seccomp_gateway(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* rt_sigprocmask(how, set, old, size) blocking signals, done on the mask
 * the thread returns to (the one sigreturn restores from the context),
 * with SIGSYS left out. */
static void sigprocmask_without_sigsys(const long *a, ucontext_t *context) {
    greg_t *registers = context->uc_mcontext.gregs;
    uint64_t *mask = (uint64_t *)&context->uc_sigmask;
    uint64_t set = 0, old = *mask;
    if (a[3] != 8) {
        registers[REG_RAX] = -EINVAL;
        return;
    }
    if (a[1] != 0 && read_memory(a[1], &set, sizeof set) != 0) {
        registers[REG_RAX] = -EFAULT;
        return;
    }
    if (a[2] != 0) {
        struct iovec local = {&old, sizeof old};
        struct iovec remote = {(void *)a[2], sizeof old};
        if (syscall(SYS_process_vm_writev, getpid(), &local, 1, &remote, 1, 0) != (long)sizeof old) {
            registers[REG_RAX] = -EFAULT;
            return;
        }
    }
    if (a[1] != 0) {
        uint64_t unblockable = (1ULL << (SIGSYS - 1)) | (1ULL << (SIGKILL - 1)) | (1ULL << (SIGSTOP - 1));
        *mask = (a[0] == SIG_BLOCK ? old | set : set) & ~unblockable;
    }
    registers[REG_RAX] = 0;
}

static const char *socket_domain(long domain) {
    switch (domain) {
    case AF_INET: return "AF_INET";
    case AF_INET6: return "AF_INET6";
    case AF_NETLINK: return "AF_NETLINK";
    case AF_PACKET: return "AF_PACKET";
    case AF_BLUETOOTH: return "AF_BLUETOOTH";
    case AF_VSOCK: return "AF_VSOCK";
    default: return NULL;
    }
}

static const char *socket_type(long type) {
    switch (type & 0xf) {
    case SOCK_STREAM: return "SOCK_STREAM";
    case SOCK_DGRAM: return "SOCK_DGRAM";
    case SOCK_RAW: return "SOCK_RAW";
    case SOCK_SEQPACKET: return "SOCK_SEQPACKET";
    default: return "another type";
    }
}

static void on_sigsys(int signal_number, siginfo_t *info, void *context) {
    (void)signal_number;
    int saved = errno;
    ucontext_t *ucontext = context;
    greg_t *registers = ucontext->uc_mcontext.gregs;
    long nr = info->si_syscall;
    long a[6] = {registers[REG_RDI], registers[REG_RSI], registers[REG_RDX],
                 registers[REG_R10], registers[REG_R8], registers[REG_R9]};
    wh_line line = {{0}, 0};
    char path[4096];
    switch (nr) {
    case SYS_socket:
    case SYS_socketpair: {
        int unix_domain = a[0] == AF_UNIX;
        wh_line_append(&line, unix_domain ? "violation tried to open a Unix socket (" : "violation tried to open a network socket (");
        wh_line_append(&line, nr == SYS_socket ? "socket(" : "socketpair(");
        const char *domain = unix_domain ? "AF_UNIX" : socket_domain(a[0]);
        if (domain) {
            wh_line_append(&line, domain);
        } else {
            wh_line_append(&line, "domain ");
            wh_line_append_signed(&line, a[0]);
        }
        wh_line_append(&line, ", ");
        wh_line_append(&line, socket_type(a[1]));
        wh_line_append(&line, "))");
        report_and_die(&line);
        break;
    }
    case SYS_connect:
    case SYS_bind: {
        /* Only sockets made before the sandbox exist: the host link. */
        struct sockaddr_un address;
        memset(&address, 0, sizeof address);
        size_t length = a[2] > 0 && (size_t)a[2] < sizeof address ? (size_t)a[2] : sizeof address - 1;
        const char *verb = nr == SYS_connect ? "connect" : "bind";
        wh_line_append(&line, "violation tried to ");
        wh_line_append(&line, verb);
        if (read_memory(a[1], &address, length) == 0 && address.sun_family == AF_UNIX && length > sizeof address.sun_family) {
            wh_line_append(&line, " to the Unix socket ");
            wh_line_append_bytes(&line, address.sun_path[0] ? address.sun_path : "(abstract)", 256);
        } else {
            wh_line_append(&line, " a socket");
        }
        report_and_die(&line);
        break;
    }
    case SYS_execve:
    case SYS_execveat:
        wh_line_append(&line, "violation tried to run a program");
        if (read_string(nr == SYS_execve ? a[0] : a[1], path, sizeof path) > 0) {
            wh_line_append(&line, " (");
            wh_line_append_bytes(&line, path, 512);
            wh_line_append(&line, ")");
        }
        report_and_die(&line);
        break;
    case SYS_fork:
    case SYS_vfork:
    case SYS_clone:
        violation("start a process");
        break;
    case SYS_rt_sigprocmask:
        sigprocmask_without_sigsys(a, ucontext);
        break;
    case SYS_ptrace:
    case SYS_pidfd_getfd:
    case SYS_process_vm_readv:
    case SYS_process_vm_writev:
        violation("trace another process");
        break;
    case SYS_kill:
    case SYS_tgkill:
    case SYS_tkill:
    case SYS_rt_sigqueueinfo:
    case SYS_rt_tgsigqueueinfo:
    case SYS_pidfd_send_signal:
        wh_line_append(&line, "violation tried to signal another process (pid ");
        wh_line_append_signed(&line, (int)a[0]);
        wh_line_append(&line, ")");
        report_and_die(&line);
        break;
    case SYS_io_uring_setup:
        violation("use io_uring, which bypasses system call filters");
        break;
    case SYS_unshare:
    case SYS_setns:
    case SYS_mount:
    case SYS_umount2:
    case SYS_pivot_root:
    case SYS_chroot:
        violation("leave its sandbox (namespaces, mounts or chroot)");
        break;
    case SYS_open_by_handle_at:
    case SYS_bpf:
    case SYS_perf_event_open:
        violation("use a privileged system call (open_by_handle_at, bpf or perf_event_open)");
        break;
    default:
        check_file_call(nr, a, registers);
        break;
    }
    errno = saved;
}

int wh_seccomp_apply(const char *data_dir, int report_fd, int landlock_enforces_files, wh_sandbox_status *status) {
    size_t length = strlen(data_dir);
    if (length == 0 || length >= sizeof data_directory || data_dir[0] != '/') {
        wh_sandbox_missing(status, "seccomp (the data directory is not an absolute path)");
        return 0;
    }
    memcpy(data_directory, data_dir, length + 1);
    while (length > 1 && data_directory[length - 1] == '/') data_directory[--length] = 0;
    data_directory_length = length;
    report_descriptor = report_fd;
    landlock_enforces = landlock_enforces_files;

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigsys;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    if (sigaction(SIGSYS, &action, NULL) != 0) {
        wh_sandbox_missing(status, "seccomp (no SIGSYS handler)");
        return 0;
    }
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, SIGSYS);
    pthread_sigmask(SIG_UNBLOCK, &unblock, NULL);

    build_program((uint32_t)getpid());
    struct sock_fprog fprog = {program_length, program};
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &fprog) != 0
        && prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0) != 0) {
        wh_sandbox_missing(status, errno == EINVAL ? "seccomp filters (not in this kernel)" : "seccomp filters (refused)");
        return 0;
    }
    return 1;
}

#else

int wh_seccomp_apply(const char *data_dir, int report_fd, int landlock_enforces_files, wh_sandbox_status *status) {
    (void)data_dir; (void)report_fd; (void)landlock_enforces_files;
    wh_sandbox_missing(status, "seccomp filter (built for x86-64 only)");
    return 0;
}

#endif
