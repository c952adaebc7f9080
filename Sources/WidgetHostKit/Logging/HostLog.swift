import Glibc

/// The host's log: one line per message on stderr, attributed to its source.
/// `WIDGET_HOST_LOG=debug|info|warning|error` sets the threshold (warning).
///
/// Each source (a plugin's id) may log `linesPerSecond` lines a second;
/// more are dropped and counted, and the count is said once the second is
/// over, so a plugin logging in a loop cannot fill a disk or a terminal.
/// The lines also go to `file` when there is one, and each source's latest
/// warning is kept for the screen's footer (`latestNotice`). While a
/// full-screen view owns the terminal (`screenOwned`), lines go to the file
/// only: on stderr they would draw over the screen, whose footer shows the
/// latest warning instead (`latestWarning`).
public final class HostLog: Sendable {
    public typealias Sink = @Sendable (String) -> Void

    public static let linesPerSecond = 20

    private let threshold: LogLevel
    private let sink: Sink
    private let file: LogFile?
    private let budgets = Locked<[String: Budget]>([:])
    private let notices = Locked<[String: String]>([:])
    private let noticeHandler = Locked(NoticeHandler())
    private let owned = Locked(false)
    private let latest = Locked<String?>(nil)
    private let capture = Locked<StderrCapture?>(nil)
    /// Whether owning the screen moves fd 2: the command line's log does; a
    /// log made inside a test must leave the test process's stderr alone.
    private let captureStandardError: Bool

    /// A field, not the lock's whole value: a bare closure in a lock is
    /// wrapped in one more thunk at each access (SourceStyleTests).
    private struct NoticeHandler {
        var call: (@Sendable () -> Void)?
    }

    /// The lines a source logged in the current second, and those dropped.
    private struct Budget {
        var second: Int64 = 0
        var logged = 0
        var dropped = 0
    }

    public init(threshold: LogLevel = .warning, sink: @escaping Sink = HostLog.standardError, file: LogFile? = nil,
                capturesStandardError: Bool = false) {
        self.threshold = threshold
        captureStandardError = capturesStandardError
        self.sink = sink
        self.file = file
    }

    /// An unknown WIDGET_HOST_LOG value is said, not ignored, with the closest level.
    public convenience init(environment: [String: String], sink: @escaping Sink = HostLog.standardError, file: LogFile? = nil,
                            capturesStandardError: Bool = false) {
        let value = environment["WIDGET_HOST_LOG"]
        let level = LogLevel.allCases.first { $0.name == value?.lowercased() }
        self.init(threshold: level ?? .warning, sink: sink, file: file, capturesStandardError: capturesStandardError)
        if let value, level == nil {
            let names = LogLevel.allCases.map(\.name)
            let hint = Suggestions.closest(to: value, among: names).map { "did you mean '\($0)'? " } ?? ""
            log(.warning, "WIDGET_HOST_LOG", "unknown level '\(value)' (\(hint)levels: \(names.joined(separator: ", "))); using warning")
        }
    }

    /// The message is built only when `level` is logged.
    public func log(_ level: LogLevel, _ source: String, _ message: @autoclosure () -> String) {
        guard level >= threshold else { return }
        let (admitted, dropped) = admit(source)
        if dropped > 0 { emit("widget-host: [warning] \(source): \(dropped) lines dropped (more than \(Self.linesPerSecond) a second)") }
        guard admitted else { return }
        let text = message()
        if level >= .warning {
            notices.withLock { $0[source] = text }
            latest.withLock { $0 = TerminalText.safe("\(source): \(text)", lines: false) }
        }
        emit(TerminalText.safe("widget-host: [\(level.name)] \(source): \(text)", lines: false))
        if level >= .warning { noticeHandler.withLock { $0.call }?() }
    }

    /// The latest warning or error `source` logged, for a person to see.
    public func latestNotice(from source: String) -> String? { notices.withLock { $0[source] } }

    /// Called, on the logging thread, after each warning or error is kept
    /// (a screen whose footer shows them wakes); returns the handler it
    /// replaces, so a screen inside another can put that one back.
    @discardableResult
    public func onNotice(_ handler: (@Sendable () -> Void)?) -> (@Sendable () -> Void)? {
        noticeHandler.withLock { current in
            defer { current.call = handler }
            return current.call
        }
    }

    /// The latest warning or error from any source, as "source: message".
    public var latestWarning: String? { latest.withLock { $0 } }

    /// Whether a full-screen view owns the terminal: lines then skip stderr,
    /// and fd 2 itself is captured into the log (`StderrCapture`), so a
    /// plugin's raw writes to it cannot draw over the screen either.
    public var screenOwned: Bool {
        get { owned.withLock { $0 } }
        set {
            // Owned before fd 2 moves and until it is back, so no line of ours goes down the pipe to come back.
            if newValue { owned.withLock { $0 = true } }
            capture.withLock { capture in
                if newValue, capture == nil, captureStandardError { capture = StderrCapture(log: self) }
                if !newValue { capture?.restore(); capture = nil }
            }
            if !newValue { owned.withLock { $0 = false } }
        }
    }

    private func emit(_ line: String) {
        if !screenOwned { sink(line) }
        file?.append(line)
    }

    /// Whether `source` may log now, and how many of its lines were dropped
    /// in the second that just ended (said once).
    private func admit(_ source: String) -> (Bool, Int) {
        let second = Int64(Clock.now)
        return budgets.withLock { budgets in
            var budget = budgets[source] ?? Budget()
            var dropped = 0
            if budget.second != second {
                dropped = budget.dropped
                budget = Budget(second: second)
            }
            budget.logged += 1
            let admitted = budget.logged <= Self.linesPerSecond
            if !admitted { budget.dropped += 1 }
            budgets[source] = budget
            return (admitted, dropped)
        }
    }

    /// This log with `source` bound, for a part that always speaks for one
    /// plugin or component (as swift-log's `Logger` carries its label).
    public func logger(for source: String) -> Logger { Logger(log: self, source: source) }

    public static let standardError: Sink = { line in FileDescriptor.standardError.write(line + "\n") }
}

/// A `HostLog` bound to one source: `context.log.warning("…")`.
public struct Logger: Sendable {
    let log: HostLog
    public let source: String

    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) { log.log(level, source, message()) }
    public func debug(_ message: @autoclosure () -> String) { log.log(.debug, source, message()) }
    public func info(_ message: @autoclosure () -> String) { log.log(.info, source, message()) }
    public func warning(_ message: @autoclosure () -> String) { log.log(.warning, source, message()) }
    public func error(_ message: @autoclosure () -> String) { log.log(.error, source, message()) }
}

/// A sink that keeps lines in memory, for tests and for the validator.
public final class LogRecorder: Sendable {
    private let lines = Locked<[String]>([])
    public init() {}
    public var sink: HostLog.Sink { { [self] line in lines.withLock { $0.append(line) } } }
    public var recorded: [String] { lines.withLock { $0 } }
}
