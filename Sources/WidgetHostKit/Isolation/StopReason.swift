import Glibc

/// What an isolated plugin's process wrote to its report pipe before it
/// died (`host_shim_isolation.h`): a sandbox violation, or a fatal signal
/// with the faulting thread's errno.
struct ChildReport: Equatable {
    struct Crash: Equatable {
        let signal: Int32
        let errno: Int32
    }

    var violation: String?
    var crash: Crash?

    /// The most the host reads from a report pipe; a plugin may write
    /// anything to it, and none of it is trusted beyond a line of text.
    static let limit = 4096

    init(text: String) {
        for line in text.split(separator: "\n").prefix(8) {
            if line.hasPrefix("violation "), violation == nil {
                violation = String(line.dropFirst("violation ".count).prefix(600))
            } else if line.hasPrefix("crash "), crash == nil {
                let words = line.split(separator: " ")
                if words.count >= 4, let signal = Int32(words[1]), let errno = Int32(words[3]) {
                    crash = Crash(signal: signal, errno: errno)
                }
            }
        }
    }
}

/// Words for why an isolated plugin stopped, from how its process ended
/// and what it reported; `call` is the call in flight, if any.
enum StopReason {
    static func describe(
        _ termination: ChildProcess.Termination, report: ChildReport, call: String?, fatalError: String?,
        settings: PluginRunSettings
    ) -> String {
        let during = call.map { " during \($0)" } ?? ""
        if let violation = report.violation { return violation }
        if let crash = report.crash, crash.errno == ENOMEM {
            return "out of memory\(during): an allocation failed against the \(settings.memoryMiB) MiB limit, then "
                + ChildProcess.Termination.signalName(crash.signal)
        }
        switch termination {
        case .signaled(SIGXCPU):
            return "used up its \(settings.cpuSeconds) s of CPU time (SIGXCPU)"
        case let .signaled(signal):
            let name = ChildProcess.Termination.signalName(signal)
            return name + during + (fatalError.map { " (\($0))" } ?? "")
        case .exited(PluginProcess.cageRefusedStatus) where call == nil:
            return "could not enter its cage (its memory and CPU limits or its data directory were refused), before any plugin code ran"
        case let .exited(code):
            return "exited with status \(code)\(during)"
        case let .timedOut(seconds):
            return "timed out\(during.isEmpty ? "" : " in \(call!)") after \(seconds.formatted1)s"
        }
    }

    /// The line a Swift runtime prints before it traps ("Fatal error: ..."),
    /// from what the child wrote to its standard error.
    static func fatalError(in output: String) -> String? {
        output.split(separator: "\n").last { $0.contains("Fatal error:") }
            .map { String($0[$0.firstRange(of: "Fatal error:")!.lowerBound...].prefix(300)) }
    }
}
