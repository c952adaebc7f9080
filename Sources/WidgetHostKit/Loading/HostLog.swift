import Glibc

/// The host's log: one line per message on stderr, attributed to its source.
/// `WIDGET_HOST_LOG=debug|info|warning|error` sets the threshold (warning).
public final class HostLog: Sendable {
    public enum Level: Int32, Comparable, Sendable, CaseIterable {
        case debug = 0, info, warning, error

        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
        public var name: String { "\(self)" }
    }

    public typealias Sink = @Sendable (String) -> Void

    private let threshold: Level
    private let sink: Sink

    public init(threshold: Level = .warning, sink: @escaping Sink = HostLog.standardError) {
        self.threshold = threshold
        self.sink = sink
    }

    /// An unknown WIDGET_HOST_LOG value is said, not ignored, with the closest level.
    public convenience init(environment: [String: String], sink: @escaping Sink = HostLog.standardError) {
        let value = environment["WIDGET_HOST_LOG"]
        let level = Level.allCases.first { $0.name == value?.lowercased() }
        self.init(threshold: level ?? .warning, sink: sink)
        if let value, level == nil {
            let names = Level.allCases.map(\.name)
            let hint = Suggestions.closest(to: value, among: names).map { "did you mean '\($0)'? " } ?? ""
            log(.warning, "WIDGET_HOST_LOG", "unknown level '\(value)' (\(hint)levels: \(names.joined(separator: ", "))); using warning")
        }
    }

    public func log(_ level: Level, _ source: String, _ message: String) {
        guard level >= threshold else { return }
        sink(TerminalText.safe("widget-host: [\(level.name)] \(source): \(message)", lines: false))
    }

    public static let standardError: Sink = { line in FileDescriptor.standardError.write(line + "\n") }
}

/// A sink that keeps lines in memory, for tests and for the validator.
public final class LogRecorder: Sendable {
    private let lines = Locked<[String]>([])
    public init() {}
    public var sink: HostLog.Sink { { [self] line in lines.withLock { $0.append(line) } } }
    public var recorded: [String] { lines.withLock { $0 } }
}
