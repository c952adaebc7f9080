import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

@Suite("Child processes")
struct ChildProcessTests {
    static func shell(_ script: String, timeout: Double = 60, environment: [String: String]? = nil) throws -> ChildProcess.Result {
        try ChildProcess.run(["/bin/sh", "-c", script], timeout: timeout, environment: environment)
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func exitStatusIsCaptured() throws {
        #expect(try Self.shell("exit 0").termination == .exited(0))
        #expect(try Self.shell("exit 3").termination == .exited(3))
        #expect(try Self.shell("exit 255").termination == .exited(255))
        #expect(try ChildProcess.run(["/bin/false"], timeout: 60).termination == .exited(1))
    }

    @Test func standardOutputAndErrorAreSeparate() throws {
        let result = try Self.shell("printf 'to out\\n'; printf 'to err\\n' >&2; printf 'more out'; exit 4")
        #expect(result.termination == .exited(4))
        #expect(Self.text(result.standardOutput) == "to out\nmore out")
        #expect(Self.text(result.standardError) == "to err\n")
    }

    @Test func argumentsArePassedVerbatim() throws {
        let result = try ChildProcess.run(["/bin/sh", "-c", "printf '[%s]' \"$@\"", "sh", "a b", "", "$HOME", "é"], timeout: 60)
        #expect(Self.text(result.standardOutput) == "[a b][][$HOME][é]")
    }

    @Test func environmentReplacesOursWhenGiven() throws {
        let result = try ChildProcess.run(["/usr/bin/env"], timeout: 60, environment: ["WIDGET_UNIT": "x=y", "B": ""])
        #expect(Set(Self.text(result.standardOutput).split(separator: "\n")) == ["WIDGET_UNIT=x=y", "B="])
        let empty = try ChildProcess.run(["/usr/bin/env"], timeout: 60, environment: [:])
        #expect(empty.standardOutput.isEmpty)
        // Without one, the child inherits ours.
        let path = try #require(getenv("PATH").map { String(cString: $0) })
        let inherited = try ChildProcess.run(["/usr/bin/env"], timeout: 60)
        #expect(Self.text(inherited.standardOutput).split(separator: "\n").map(String.init).contains("PATH=\(path)"))
    }

    @Test func standardInputIsEmpty() throws {
        // cat would wait forever on an inherited terminal or pipe.
        let result = try ChildProcess.run(["/bin/cat"], timeout: 30)
        #expect(result.termination == .exited(0))
        #expect(result.standardOutput.isEmpty)
    }

    @Test func childKilledBySignal() throws {
        let segv = try Self.shell("kill -SEGV $$")
        #expect(segv.termination == .signaled(SIGSEGV))
        #expect(segv.termination.description == "killed by SIGSEGV")
        let late = try Self.shell("printf 'before'; kill -SEGV $$; printf 'after'")
        #expect(late.termination == .signaled(SIGSEGV))
        #expect(Self.text(late.standardOutput) == "before")
        #expect(try Self.shell("kill -KILL $$").termination == .signaled(SIGKILL))
    }

    @Test func childStartsWithNoSignalsBlocked() throws {
        // The child inherits the spawning thread's signal mask (posix_spawn
        // without POSIX_SPAWN_SETSIGMASK). Test-runner and other worker
        // threads block signals such as SIGTERM, SIGABRT, SIGALRM and SIGXCPU,
        // and a child started from one cannot then be ended by them.
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let status = try ChildProcess.run(["/bin/grep", "^SigBlk:", "/proc/self/status"], timeout: 60)
        let term = try Self.shell("kill -TERM $$; printf survived")
        #expect(Self.text(status.standardOutput) == "SigBlk:\t0000000000000000\n")
        #expect(term.termination == .signaled(SIGTERM))
    }

    @Test func sleepingChildTimesOut() throws {
        let result = try ChildProcess.run(["/bin/sleep", "30"], timeout: 0.5)
        // Reaching this line at all means run returned instead of waiting for sleep.
        #expect(result.termination == .timedOut(seconds: 0.5))
        #expect(result.termination.description == "timed out after 0.5s")
    }

    @Test func outputBeforeATimeoutIsKept() throws {
        // Long enough for a loaded machine to start the shell; sleep outlasts it.
        let result = try Self.shell("printf 'started'; printf 'err' >&2; exec /bin/sleep 30", timeout: 5)
        #expect(result.termination == .timedOut(seconds: 5))
        #expect(Self.text(result.standardOutput) == "started")
        #expect(Self.text(result.standardError) == "err")
    }

    @Test func timeoutKillsTheWholeProcessGroup() throws {
        // The shell starts a grandchild, reports its pid, and waits for it.
        let result = try Self.shell("/bin/sleep 30 & echo $!; wait", timeout: 5)
        #expect(result.termination == .timedOut(seconds: 5))
        let text = Self.text(result.standardOutput).split(separator: "\n").first.map(String.init) ?? ""
        let grandchild = try #require(pid_t(text), "no pid in \(text)")
        // SIGKILL is asynchronous; give the kernel a moment to finish it off.
        var state = Self.processState(grandchild)
        for _ in 0..<500 where state != nil && state != "Z" {
            usleep(10_000)
            state = Self.processState(grandchild)
        }
        #expect(state == nil || state == "Z", "grandchild \(grandchild) is still running (state \(state ?? "?"))")
    }

    /// The state letter from /proc/PID/stat, or nil if there is no such process.
    static func processState(_ pid: pid_t) -> String? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let stat = String(decoding: buffer[0..<count], as: UTF8.self)
        // "pid (comm) S ...": the state follows the last ')'.
        guard let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ").first.map(String.init)
    }

    @Test func largeOutputOnBothStreamsDoesNotDeadlock() throws {
        // Far more than a pipe holds, on both streams at once: both must be drained.
        let result = try Self.shell("head -c 1000000 /dev/zero >&2; head -c 1500000 /dev/zero; exit 7")
        #expect(result.termination == .exited(7))
        #expect(result.standardError.count == 1_000_000)
        #expect(result.standardOutput.count == 1_500_000)
        #expect(result.standardOutput.allSatisfy { $0 == 0 })
    }

    @Test func outputOverTheLimitIsCapped() throws {
        let limit = ChildProcess.outputLimit
        let result = try Self.shell("head -c \(limit + 3_000_000) /dev/zero; printf 'tail' >&2")
        // The child is not stalled by the cap: it runs to the end.
        #expect(result.termination == .exited(0))
        #expect(result.standardOutput.count == limit)
        #expect(Self.text(result.standardError) == "tail")

        let errors = try Self.shell("head -c \(limit + 1) /dev/zero >&2")
        #expect(errors.termination == .exited(0))
        #expect(errors.standardError.count == limit)
        #expect(errors.standardOutput.isEmpty)
    }

    @Test func missingExecutableThrows() {
        let error = #expect(throws: SystemError.self) {
            try ChildProcess.run(["/nonexistent/widget-host-unit"], timeout: 5)
        }
        #expect(error?.code == ENOENT)
        #expect(error?.description == "No such file or directory")
        // posix_spawn does not search PATH: a bare name is not found either.
        #expect(throws: SystemError.self) { try ChildProcess.run(["sh", "-c", "exit 0"], timeout: 5) }
    }

    @Test func nonExecutableFileThrows() throws {
        let directory = try UnitFixtures.temporaryDirectory()
        defer { UnitFixtures.remove(directory) }
        try UnitFixtures.writeFile(directory + "/script", "#!/bin/sh\nexit 0\n", mode: 0o644)
        let error = #expect(throws: SystemError.self) { try ChildProcess.run([directory + "/script"], timeout: 5) }
        #expect(error?.code == EACCES)
    }

    @Test func terminationDescriptions() {
        #expect(ChildProcess.Termination.exited(3).description == "exited with status 3")
        #expect(ChildProcess.Termination.signaled(SIGKILL).description == "killed by SIGKILL")
        #expect(ChildProcess.Termination.signaled(99).description == "killed by signal 99")
        #expect(ChildProcess.Termination.timedOut(seconds: 10).description == "timed out after 10s")
        #expect(ChildProcess.Termination.timedOut(seconds: 2.25).description == "timed out after 2.3s")
        #expect(ChildProcess.Termination.signalName(SIGTERM) == "SIGTERM")
    }
}
