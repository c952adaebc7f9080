import Glibc

/// The host's log: one line per message on stderr, attributed to its source.
/// `WIDGET_HOST_LOG=debug|info|warning|error` sets the threshold (warning).
public final class HostLog: Sendable {
    public typealias Sink = @Sendable (String) -> Void

    private let threshold: LogLevel
    private let sink: Sink

    public init(threshold: LogLevel = .warning, sink: @escaping Sink = HostLog.standardError) {
        self.threshold = threshold
        self.sink = sink
    }

    /// An unknown WIDGET_HOST_LOG value is said, not ignored, with the closest level.
    public convenience init(environment: [String: String], sink: @escaping Sink = HostLog.standardError) {
        let value = environment["WIDGET_HOST_LOG"]
        let level = LogLevel.allCases.first { $0.name == value?.lowercased() }
        self.init(threshold: level ?? .warning, sink: sink)
        if let value, level == nil {
            let names = LogLevel.allCases.map(\.name)
            let hint = Suggestions.closest(to: value, among: names).map { "did you mean '\($0)'? " } ?? ""
            log(.warning, "WIDGET_HOST_LOG", "unknown level '\(value)' (\(hint)levels: \(names.joined(separator: ", "))); using warning")
        }
    }

    /// The message is built only when `level` is logged.
    public func log(_ level: LogLevel, _ source: String, _ message: @autoclosure () -> String) {
        guard level >= threshold else { return }
        sink(TerminalText.safe("widget-host: [\(level.name)] \(source): \(message())", lines: false))
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
