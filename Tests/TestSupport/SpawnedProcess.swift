import Foundation
import Glibc
import HostShim
@testable import WidgetHostKit

/// Child processes for tests that must feed standard input or kill a child
/// at a moment of their choosing (ChildProcess runs to completion with
/// /dev/null as input). Paths must be absolute: no PATH search.
struct SpawnedProcess {
    let pid: pid_t
    private(set) var reaped = false

    struct Result: CustomStringConvertible {
        let termination: ChildProcess.Termination
        let standardOutput: [UInt8]
        let standardError: [UInt8]
        var stdout: String { String(decoding: standardOutput, as: UTF8.self) }
        var stderr: String { String(decoding: standardError, as: UTF8.self) }
        var status: Int32? {
            if case let .exited(code) = termination { return code }
            return nil
        }
        var description: String { "\(termination)\n--- stdout:\n\(stdout)--- stderr:\n\(stderr)" }
    }

    /// The environment `widget-host` runs with in these tests: HOME and the
    /// XDG directories inside `home`, plus PATH and LD_LIBRARY_PATH.
    static func hostEnvironment(home: String, _ extra: [String: String] = [:]) -> [String: String] {
        var variables = ["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config"]
        for name in ["PATH", "LD_LIBRARY_PATH"] {
            if let value = ProcessInfo.processInfo.environment[name] { variables[name] = value }
        }
        variables.merge(extra) { _, new in new }
        return variables
    }

    /// Starts `arguments` with standard input, output and error on /dev/null.
    static func start(_ arguments: [String], environment: [String: String]) throws -> SpawnedProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        return try spawn(arguments, environment: environment, actions: &actions)
    }

    /// Runs `arguments` to completion with `input` on standard input,
    /// collecting its output. A child still running after `timeout` is
    /// killed and reported as timed out.
    static func run(_ arguments: [String], environment: [String: String], input: [UInt8], timeout: Double = 60) throws -> Result {
        var inPipe: [Int32] = [0, 0], outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        // Close-on-exec from the start: a child another test spawns meanwhile
        // must not inherit an end and hold the pipe open past this child.
        guard wh_shim_pipe_cloexec(&inPipe) == 0, wh_shim_pipe_cloexec(&outPipe) == 0, wh_shim_pipe_cloexec(&errPipe) == 0 else {
            throw TestSupport.Failure("pipe: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        let process: SpawnedProcess
        do {
            process = try spawn(arguments, environment: environment, actions: &actions)
        } catch {
            for fd in inPipe + outPipe + errPipe { close(fd) }
            throw error
        }
        close(inPipe[0]); close(outPipe[1]); close(errPipe[1])

        // Feed the input from a thread of its own, so a child that writes
        // before it has read everything cannot deadlock us. A child may end
        // without reading it all (a usage error): with SIGPIPE blocked on
        // this thread the write fails with EPIPE instead of killing the test
        // process, and the signal left pending ends with the thread.
        let writer = inPipe[1]
        let fed = DispatchSemaphore(value: 0)
        Thread {
            var brokenPipe = sigset_t()
            sigemptyset(&brokenPipe)
            sigaddset(&brokenPipe, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &brokenPipe, nil)
            input.withUnsafeBytes { bytes in
                var done = 0
                while done < bytes.count {
                    let count = write(writer, bytes.baseAddress! + done, bytes.count - done)
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }   // the child closed its input
                    done += count
                }
            }
            close(writer)
            fed.signal()
        }.start()

        var output: [[UInt8]] = [[], []]
        var open = [outPipe[0], errPipe[0]]
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while open.contains(where: { $0 >= 0 }) {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 {
                timedOut = true
                Glibc.kill(process.pid, SIGKILL)
                break
            }
            var polls = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polls, nfds_t(polls.count), Int32(min(remaining, 1) * 1000) + 1)
            if ready < 0 && errno != EINTR { break }
            for index in open.indices where open[index] >= 0 && polls[index].revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 65536)
                let count = chunk.withUnsafeMutableBytes { read(open[index], $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 {
                    close(open[index])
                    open[index] = -1
                } else {
                    output[index] += chunk[0..<count]
                }
            }
        }
        for fd in open where fd >= 0 { close(fd) }
        var child = process
        let termination = child.wait()
        fed.wait()
        return Result(termination: timedOut ? .timedOut(seconds: timeout) : termination,
                      standardOutput: output[0], standardError: output[1])
    }

    private static func spawn(_ arguments: [String], environment: [String: String], actions: inout posix_spawn_file_actions_t) throws -> SpawnedProcess {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // A clean start, as from a shell: the test runner blocks signals a
        // host must receive (a test kills it with SIGTERM).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw TestSupport.Failure("posix_spawn \(arguments[0]): \(String(cString: strerror(spawned)))") }
        return SpawnedProcess(pid: pid)
    }

    func kill(_ signal: Int32) {
        _ = Glibc.kill(pid, signal)
    }

    /// Waits for the child to end and reaps it.
    mutating func wait() -> ChildProcess.Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        reaped = true
        return status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
    }
}
