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

    public convenience init(environment: [String: String]) {
        let name = environment["WIDGET_HOST_LOG"]?.lowercased()
        self.init(threshold: Level.allCases.first { $0.name == name } ?? .warning)
    }

    public func log(_ level: Level, _ source: String, _ message: String) {
        guard level >= threshold else { return }
        sink("widget-host: [\(level.name)] \(source): \(message)")
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
