/* The seccomp filter of an isolated plugin, and the SIGSYS handler that
 * turns what it catches into a report.
 *
 * Caught and fatal: sockets other than AF_UNIX, running programs, starting
 * processes, tracing or signalling other processes, io_uring, namespace and
 * mount calls, and a few privileged calls. The handler writes
 * "violation tried to ..." to the report descriptor and ends the process.
 *
 * Caught and checked: calls that write to the file system (open for
 * writing, create, rename, delete, link, chmod, chown...). The handler
 * performs the call itself through a gateway whose address the filter lets
 * through. Where Landlock confines files, Landlock decides and the handler
 * only reports a refusal outside the data directory; without Landlock the
 * handler decides from the path's text (best effort: a symbolic link can
 * fool it). A plugin that jumps to the gateway gains only these calls, and
 * Landlock still judges them.
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
#ifndef SECCOMP_RET_KILL_PROCESS
#define SECCOMP_RET_KILL_PROCESS 0x80000000U
#endif

/* ---- The gateway: the one syscall instruction the filter trusts ---- */

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

static struct sock_filter program[256];
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

static void fail_if(int nr, int error) {
    JUMP(BPF_JEQ, nr, 0, 1);
    RETURN(SECCOMP_RET_ERRNO | (error & SECCOMP_RET_DATA));
}

/* nr allowed only when argument `arg` (32 bits) equals `value`. */
static void allow_only_if_arg(int nr, int arg, uint32_t value) {
    JUMP(BPF_JEQ, nr, 0, 4);
    LOAD_ARG_LOW(arg);
    JUMP(BPF_JEQ, value, 0, 1);
    RETURN(SECCOMP_RET_ALLOW);
    RETURN(SECCOMP_RET_TRAP);
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

static const int fatal_calls[] = {
    SYS_execve, SYS_execveat, SYS_fork, SYS_vfork, SYS_ptrace, SYS_io_uring_setup, SYS_unshare,
    SYS_setns, SYS_mount, SYS_umount2, SYS_pivot_root, SYS_chroot, SYS_open_by_handle_at, SYS_tkill,
    SYS_pidfd_send_signal, SYS_bpf, SYS_perf_event_open,
};

static const int file_writes[] = {
    SYS_creat, SYS_truncate, SYS_rename, SYS_renameat, SYS_renameat2, SYS_mkdir, SYS_mkdirat, SYS_rmdir,
    SYS_unlink, SYS_unlinkat, SYS_link, SYS_linkat, SYS_symlink, SYS_symlinkat, SYS_mknod, SYS_mknodat,
    SYS_chmod, SYS_fchmod, SYS_fchmodat, SYS_fchmodat2, SYS_chown, SYS_fchown, SYS_lchown, SYS_fchownat,
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

    /* Fatal, whoever makes them: checked before the gateway's exemption. */
    allow_only_if_arg(SYS_socket, 0, AF_UNIX);
    for (size_t i = 0; i < sizeof fatal_calls / sizeof fatal_calls[0]; i++) trap_if(fatal_calls[i]);
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

    /* The handler's own calls. */
    uint64_t gateway = (uint64_t)(uintptr_t)wh_seccomp_gateway_return;
    LOAD(instruction_pointer);
    JUMP(BPF_JEQ, (uint32_t)gateway, 0, 3);
    emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, instruction_pointer) + 4));
    JUMP(BPF_JEQ, (uint32_t)(gateway >> 32), 0, 1);
    RETURN(SECCOMP_RET_ALLOW);
    LOAD(nr);

    /* The handler must stay: SIGSYS cannot be caught by anyone else. */
    JUMP(BPF_JEQ, SYS_rt_sigaction, 0, 4);
    LOAD_ARG_LOW(0);
    JUMP(BPF_JEQ, SIGSYS, 0, 1);
    RETURN(SECCOMP_RET_ERRNO | EPERM);
    RETURN(SECCOMP_RET_ALLOW);

    trap_if_flags(SYS_open, 1, WRITE_FLAGS);
    trap_if_flags(SYS_openat, 2, WRITE_FLAGS);
    for (size_t i = 0; i < sizeof file_writes / sizeof file_writes[0]; i++) trap_if(file_writes[i]);
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
            struct iovec one_local = {buffer + count, 1};
            struct iovec one_remote = {(void *)(address + count), 1};
            if (syscall(SYS_process_vm_readv, getpid(), &one_local, 1, &one_remote, 1, 0) != 1) break;
            if (buffer[count] == 0) break;
            count++;
        }
        if (count == 0) return -1;
    }
    buffer[count] = 0;
    return (long)strnlen(buffer, (size_t)count);
}

/* Makes `path` absolute against `dirfd` (or the working directory), then
 * removes ".", ".." and repeated slashes by their text. */
static void absolute_path(long dirfd, const char *path, char *out, size_t size) {
    char joined[8192];
    size_t length = 0;
    if (path[0] != '/') {
        long base;
        if ((int)dirfd == AT_FDCWD) {
            base = syscall(SYS_getcwd, joined, sizeof joined / 2);
            base = base > 0 ? (long)strlen(joined) : -1;
        } else {
            char link[64] = "/proc/self/fd/";
            wh_line number = {{0}, 0};
            wh_line_append_unsigned(&number, (uint64_t)(int)dirfd, 10);
            memcpy(link + 14, number.text, number.length);
            link[14 + number.length] = 0;
            base = syscall(SYS_readlink, link, joined, sizeof joined / 2 - 1);
        }
        if (base < 0) {
            memcpy(joined, "?", 2);
            base = 1;
        }
        length = (size_t)base;
        joined[length++] = '/';
    }
    size_t path_length = strnlen(path, sizeof joined - length - 1);
    memcpy(joined + length, path, path_length);
    length += path_length;
    joined[length] = 0;

    /* Lexical clean-up into `out`. */
    size_t used = 0;
    size_t starts[512];
    int depth = 0;
    const char *cursor = joined;
    while (*cursor) {
        while (*cursor == '/') cursor++;
        const char *end = cursor;
        while (*end && *end != '/') end++;
        size_t part = (size_t)(end - cursor);
        if (part == 0) break;
        if (part == 1 && cursor[0] == '.') {
            /* nothing */
        } else if (part == 2 && cursor[0] == '.' && cursor[1] == '.') {
            if (depth > 0) used = starts[--depth];
        } else if (used + part + 2 < size && depth < 512) {
            starts[depth++] = used;
            out[used++] = '/';
            memcpy(out + used, cursor, part);
            used += part;
        }
        cursor = end;
    }
    if (used == 0) out[used++] = '/';
    out[used] = 0;
}

static int inside_data_directory(const char *path) {
    if (strcmp(path, "/dev/null") == 0) return 1;
    return strncmp(path, data_directory, data_directory_length) == 0
        && (path[data_directory_length] == 0 || path[data_directory_length] == '/');
}

/* The file the descriptor names, for fchmod and fchown. */
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

typedef struct target {
    long dirfd;
    long path;       /* address of the path; 0 with dirfd >= 0 means the descriptor itself */
} target;

static void check_file_write(long nr, const long *a, greg_t *registers) {
    target targets[2];
    int count = 1;
    const char *verb = "write";
    int landlock_covers = 1;
    const long here = AT_FDCWD;
    switch (nr) {
    case SYS_open: targets[0] = (target){here, a[0]}; break;
    case SYS_openat: targets[0] = (target){a[0], a[1]}; break;
    case SYS_creat: targets[0] = (target){here, a[0]}; verb = "create"; break;
    case SYS_truncate: targets[0] = (target){here, a[0]}; verb = "truncate"; break;
    case SYS_rename: targets[0] = (target){here, a[0]}; targets[1] = (target){here, a[1]}; count = 2; verb = "rename"; break;
    case SYS_renameat:
    case SYS_renameat2: targets[0] = (target){a[0], a[1]}; targets[1] = (target){a[2], a[3]}; count = 2; verb = "rename"; break;
    case SYS_mkdir: targets[0] = (target){here, a[0]}; verb = "create the directory"; break;
    case SYS_mkdirat: targets[0] = (target){a[0], a[1]}; verb = "create the directory"; break;
    case SYS_rmdir: targets[0] = (target){here, a[0]}; verb = "remove the directory"; break;
    case SYS_unlink: targets[0] = (target){here, a[0]}; verb = "delete"; break;
    case SYS_unlinkat: targets[0] = (target){a[0], a[1]}; verb = "delete"; break;
    case SYS_link: targets[0] = (target){here, a[0]}; targets[1] = (target){here, a[1]}; count = 2; verb = "link"; break;
    case SYS_linkat: targets[0] = (target){a[0], a[1]}; targets[1] = (target){a[2], a[3]}; count = 2; verb = "link"; break;
    case SYS_symlink: targets[0] = (target){here, a[1]}; verb = "create the symbolic link"; break;
    case SYS_symlinkat: targets[0] = (target){a[1], a[2]}; verb = "create the symbolic link"; break;
    case SYS_mknod: targets[0] = (target){here, a[0]}; verb = "create the special file"; break;
    case SYS_mknodat: targets[0] = (target){a[0], a[1]}; verb = "create the special file"; break;
    case SYS_chmod: targets[0] = (target){here, a[0]}; verb = "change the permissions of"; landlock_covers = 0; break;
    case SYS_fchmodat:
    case SYS_fchmodat2: targets[0] = (target){a[0], a[1]}; verb = "change the permissions of"; landlock_covers = 0; break;
    case SYS_fchmod: targets[0] = (target){a[0], 0}; verb = "change the permissions of"; landlock_covers = 0; break;
    case SYS_chown:
    case SYS_lchown: targets[0] = (target){here, a[0]}; verb = "change the owner of"; landlock_covers = 0; break;
    case SYS_fchownat: targets[0] = (target){a[0], a[1]}; verb = "change the owner of"; landlock_covers = 0; break;
    case SYS_fchown: targets[0] = (target){a[0], 0}; verb = "change the owner of"; landlock_covers = 0; break;
    default: violation("make a forbidden file system call"); return;
    }

    char paths[2][4096];
    int outside = -1;
    for (int i = 0; i < count; i++) {
        if (targets[i].path == 0) {
            descriptor_path(targets[i].dirfd, paths[i], sizeof paths[i]);
        } else {
            char raw[4096];
            if (read_string(targets[i].path, raw, sizeof raw) < 0) {
                /* A bad pointer: let the kernel answer EFAULT. */
                registers[REG_RAX] = -EFAULT;
                return;
            }
            absolute_path(targets[i].dirfd, raw, paths[i], sizeof paths[i]);
        }
        if (outside < 0 && !inside_data_directory(paths[i])) outside = i;
    }

    if (landlock_enforces && landlock_covers) {
        long result = wh_seccomp_gateway(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
        if (outside >= 0 && (result == -EACCES || result == -EPERM || result == -EXDEV)) {
            wh_line line = {{0}, 0};
            wh_line_append(&line, "violation tried to ");
            wh_line_append(&line, verb);
            wh_line_append(&line, " ");
            wh_line_append_bytes(&line, paths[outside], 512);
            wh_line_append(&line, " outside its data directory");
            report_and_die(&line);
        }
        registers[REG_RAX] = result;
        return;
    }
    if (outside >= 0) {
        wh_line line = {{0}, 0};
        wh_line_append(&line, "violation tried to ");
        wh_line_append(&line, verb);
        wh_line_append(&line, " ");
        wh_line_append_bytes(&line, paths[outside], 512);
        wh_line_append(&line, " outside its data directory");
        report_and_die(&line);
    }
    registers[REG_RAX] = wh_seccomp_gateway(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
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
    case SYS_socket: {
        wh_line_append(&line, "violation tried to open a network socket (socket(");
        const char *domain = socket_domain(a[0]);
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
    case SYS_ptrace:
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
        check_file_write(nr, a, registers);
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
