import Glibc
import HostShim

/// The process an isolated plugin runs in: this same executable, re-run as
/// `widget-host __plugin-host --host-pid PID ... PATH`, in its own process
/// group so that a kill reaches everything in it; it asks the kernel to end
/// it when the host ends (`ChildCage.dieWithHost`), whatever the plugin does.
///
/// Its descriptors: 0 is /dev/null; 1 and 2 go to a pipe the host reads
/// (what the plugin prints is logged, and a Swift "Fatal error" line
/// explains a crash); 3 is its end of the socketpair the frames travel on;
/// 4 is the report pipe its signal handlers write to (`host_shim_isolation.h`);
/// 5 is its end of the doorbell, a socketpair it rings after a frame the
/// host reads between calls (`ChildLink`).
final class PluginProcess: @unchecked Sendable {
    static let command = "__plugin-host"
    static let socketDescriptor: Int32 = 3
    static let reportDescriptor: Int32 = 4
    static let doorbellDescriptor: Int32 = 5
    /// The status the child exits with when it cannot enter its cage (the
    /// limits or the data directory refused), before any plugin code ran.
    static let cageRefusedStatus: Int32 = 3

    let pid: pid_t
    /// The host's ends, all close-on-exec; all but the socket non-blocking
    /// (its `FrameSocket` says how it is read and written).
    let socket: Int32
    let doorbell: Int32
    let report: Int32
    let output: Int32
    /// Polls readable once the child has exited; -1 on kernels before 5.3.
    let exitDescriptor: Int32

    init(executable: String, arguments: [String], environment: [String: String]) throws(SystemError) {
        var sockets: [Int32] = [-1, -1], bells: [Int32] = [-1, -1], reportPipe: [Int32] = [-1, -1], outputPipe: [Int32] = [-1, -1]
        var opened: [Int32] = []
        defer { opened.forEach { _ = close($0) } }
        guard wh_shim_socketpair_cloexec(&sockets) == 0 else { throw SystemError(code: errno) }
        opened += sockets
        guard wh_shim_socketpair_cloexec(&bells) == 0 else { throw SystemError(code: errno) }
        opened += bells
        guard wh_shim_pipe_cloexec(&reportPipe) == 0 else { throw SystemError(code: errno) }
        opened += reportPipe
        guard wh_shim_pipe_cloexec(&outputPipe) == 0 else { throw SystemError(code: errno) }
        opened += outputPipe
        // The child's ends move above the numbers they are dup'ed to, so no
        // dup2 in the child can land on a source it still needs.
        func high(_ fd: Int32) throws(SystemError) -> Int32 {
            let moved = fcntl(fd, F_DUPFD_CLOEXEC, 10)
            guard moved >= 0 else { throw SystemError(code: errno) }
            opened.append(moved)
            return moved
        }
        let childSocket = try high(sockets[1]), childBell = try high(bells[1])
        let childReport = try high(reportPipe[1]), childOutput = try high(outputPipe[1])

        let words = [executable, Self.command, "--host-pid", String(getpid())] + arguments
        pid = try Spawn.child(executable, arguments: words, environment: environment, descriptors: [
            (childOutput, 1), (childOutput, 2), (childSocket, Self.socketDescriptor), (childReport, Self.reportDescriptor),
            (childBell, Self.doorbellDescriptor),
        ])
        let kept = [sockets[0], bells[0], reportPipe[0], outputPipe[0]]
        opened.removeAll { kept.contains($0) }
        (socket, doorbell, report, output) = (kept[0], kept[1], kept[2], kept[3])
        for fd in kept.dropFirst() { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        exitDescriptor = wh_shim_pidfd_open(pid)
    }

    /// Kills the child and anything it started, at once.
    func kill() {
        _ = Glibc.kill(-pid, SIGKILL)
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// Waits for the child to end and says how it did.
    func reap() -> ChildProcess.Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        Spawn.forget(pid)
        return status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
    }

    /// Whether the child has exited, without reaping it.
    var hasExited: Bool {
        if exitDescriptor >= 0 {
            var poll = pollfd(fd: exitDescriptor, events: Int16(POLLIN), revents: 0)
            return Glibc.poll(&poll, 1, 0) > 0
        }
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._kill.si_pid != 0
    }

    /// Closes the pipes, the doorbell and the pidfd once the child is reaped;
    /// the socket is its `FrameSocket`'s to close, when nothing can send on it any more.
    func closePipes() {
        for fd in [doorbell, report, output, exitDescriptor] where fd >= 0 { _ = close(fd) }
    }

    /// What the child inherits: only what a plugin may need, so the host's
    /// environment (tokens, keys) does not reach plugin code.
    static func environment(from host: [String: String], dataDirectory: String) -> [String: String] {
        var variables = host.filter { key, _ in
            ["PATH", "HOME", "LANG", "LANGUAGE", "TZ", "WIDGET_HOST_LOG", "WIDGET_HOST_SANDBOX_SKIP"].contains(key) || key.hasPrefix("LC_")
        }
        variables["TMPDIR"] = dataDirectory
        variables["WIDGET_HOST_DATA_DIR"] = dataDirectory
        // A crash is reported by the host; Swift's backtracer would only
        // spend seconds symbolicating it in a sandbox that cannot run it.
        variables["SWIFT_BACKTRACE"] = "enable=no"
        // Each malloc arena reserves 64 MiB of address space, which counts
        // against RLIMIT_AS; two are plenty for one plugin.
        variables["MALLOC_ARENA_MAX"] = "2"
        // Dispatch logs its complaints (a thread priority the cage refuses)
        // to syslog by default, through a Unix socket the cage also refuses.
        variables["LIBDISPATCH_LOG"] = "stderr"
        return variables
    }
}
