import Glibc
import HostShim

/// Runs a program to completion with a deadline, collecting its output.
///
/// The child gets its own process group, so a deadline kills everything it
/// started. Output is drained while the child runs (a full pipe cannot stall
/// it) and capped, so a chatty or hostile child cannot exhaust our memory.
public struct ChildProcess {
    public enum Termination: Equatable, Sendable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)
        case timedOut(seconds: Double)

        public var description: String {
            switch self {
            case let .exited(code): "exited with status \(code)"
            case let .signaled(signal): "killed by \(Self.signalName(signal))"
            case let .timedOut(seconds): "timed out after \(seconds.formatted1)s"
            }
        }

        public static func signalName(_ signal: Int32) -> String {
            let names: [Int32: String] = [
                SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE",
                SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGTRAP: "SIGTRAP", SIGSYS: "SIGSYS", SIGXCPU: "SIGXCPU",
            ]
            return names[signal] ?? "signal \(signal)"
        }
    }

    public struct Result: Sendable {
        public let termination: Termination
        public let standardOutput: [UInt8]
        public let standardError: [UInt8]
    }

    public static let outputLimit = 16 << 20

    /// `mergingErrors` sends standard error to the standard output pipe, so
    /// a compiler's messages and progress stay in the order they came;
    /// `onStart` is told the child's pid (its process group), for a caller
    /// that may have to end it early.
    public static func run(_ arguments: [String], timeout: Double, environment: [String: String]? = nil, mergingErrors: Bool = false,
                           onStart: (pid_t) -> Void = { _ in }) throws(SystemError) -> Result {
        var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        guard wh_shim_pipe_cloexec(&outPipe) == 0 else { throw SystemError(code: errno) }
        guard wh_shim_pipe_cloexec(&errPipe) == 0 else {
            let code = errno
            close(outPipe[0]); close(outPipe[1])
            throw SystemError(code: code)
        }
        let pid: pid_t
        do {
            let errors = mergingErrors ? outPipe[1] : errPipe[1]
            pid = try Spawn.child(arguments[0], arguments: arguments, environment: environment, descriptors: [(outPipe[1], 1), (errors, 2)])
        } catch {
            (outPipe + errPipe).forEach { close($0) }
            throw error
        }
        close(outPipe[1]); close(errPipe[1])
        onStart(pid)

        var streams = [Stream(fd: outPipe[0]), Stream(fd: errPipe[0])]
        let deadline = Clock.now + timeout
        var timedOut = false
        while streams.contains(where: \.open) {
            let remaining = deadline - Clock.now
            if remaining <= 0 {
                timedOut = true
                kill(-pid, SIGKILL)
                break
            }
            var polls = streams.map { pollfd(fd: $0.open ? $0.fd : -1, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polls, nfds_t(polls.count), Int32(min(remaining, 1) * 1000) + 1)
            if ready < 0 && errno != EINTR { break }
            for index in streams.indices where polls[index].revents != 0 { streams[index].drain() }
        }
        streams.forEach { close($0.fd) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // A deadline also ends stragglers that kept our pipes open.
        kill(-pid, SIGKILL)
        Spawn.forget(pid)

        let termination: Termination
        if timedOut {
            termination = .timedOut(seconds: timeout)
        } else if status & 0x7F == 0 {
            termination = .exited((status >> 8) & 0xFF)
        } else {
            termination = .signaled(status & 0x7F)
        }
        return Result(termination: termination, standardOutput: streams[0].bytes, standardError: streams[1].bytes)
    }

    private struct Stream {
        let fd: Int32
        var bytes: [UInt8] = []
        var open = true

        mutating func drain() {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { return }
            guard count > 0 else {
                open = false
                return
            }
            if bytes.count < ChildProcess.outputLimit {
                bytes.append(contentsOf: chunk[0..<min(count, ChildProcess.outputLimit - bytes.count)])
            }
        }
    }
}

/// Monotonic seconds.
enum Clock {
    static var now: Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

extension Double {
    var formatted1: String {
        let tenths = (self * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
    }
}
