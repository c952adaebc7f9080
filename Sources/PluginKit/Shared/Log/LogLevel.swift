/// How much a log line matters: the one Swift spelling of log.h's
/// `wh_log_level`, with the same numbers, shared by the host (its threshold,
/// `WIDGET_HOST_LOG`) and the SDK (`Host.log`).
public enum LogLevel: Int32, Comparable, Sendable, CaseIterable {
    case debug = 0, info, warning, error

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }

    /// As `WIDGET_HOST_LOG` spells it and log lines show it. Spelled out:
    /// `"\(self)"` asks the runtime to reflect on the enum, which costs a
    /// process about 1.4 M instructions the first time (a scan of every
    /// protocol conformance).
    public var name: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }
}
