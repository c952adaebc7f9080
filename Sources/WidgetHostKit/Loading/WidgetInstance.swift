import PluginABI

/// A running widget as a session drives it, wherever its code runs: in this
/// process (`PluginInstance`) or, isolated, in a child process. Call it from
/// one thread (the host's main thread), one call at a time.
public protocol WidgetInstance: AnyObject {
    /// The view description the widget writes for `screen`; `params` is a
    /// JSON object, written out as text only where the C call takes it.
    func render(screen: String, params: JSONValue) throws(WidgetCallError) -> [UInt8]

    /// A person's action; `value` is nil for a button.
    func handle(action: String, value: String?) throws(WidgetCallError)

    /// The JSON answer to a host-level query such as `status` (plugin.h);
    /// `.status(WH_UNKNOWN_QUERY)` when the widget does not answer it.
    func query(_ id: String) throws(WidgetCallError) -> [UInt8]

    /// Delivers the bus events waiting for the widget; returns how many.
    @discardableResult
    func pump() -> Int

    /// Called, on any thread, when the widget wants to be rendered again.
    func onWake(_ handler: @escaping @Sendable () -> Void)
}

/// Makes the instance of a plugin that a session shows. The session does not
/// care where the plugin runs.
public typealias WidgetLauncher = (_ plugin: PluginCandidate, _ runtime: HostRuntime) throws -> any WidgetInstance

/// The default launcher: load the plugin into this process and create it.
public func launchInProcess(_ candidate: PluginCandidate, _ runtime: HostRuntime) throws -> any WidgetInstance {
    try launchInProcess(maxEventsPerSecond: PluginRunSettings().maxEventsPerSecond)(candidate, runtime)
}

/// The in-process launcher with the host's limits (`PluginRunSettings`).
public func launchInProcess(maxEventsPerSecond: Int) -> WidgetLauncher {
    { candidate, runtime in
        guard let manifest = candidate.manifest else { throw WidgetCallError.stopped("\(candidate.path) has no manifest") }
        let plugin = try Loader.load(path: candidate.path, manifest: manifest, serviceIDs: runtime.serviceIDs)
        return try PluginInstance(plugin: plugin, runtime: runtime, maxEventsPerSecond: maxEventsPerSecond)
    }
}

/// Why a call into a widget failed.
public enum WidgetCallError: Error, Equatable, CustomStringConvertible {
    case createFailed
    case status(wh_status.RawValue)
    case outputTooLarge(Int)
    /// The widget can no longer be called: its process stopped, or it was
    /// stopped for breaking a rule (a deadline, a limit, the sandbox).
    case stopped(String)
    /// The widget is still answering an earlier call, for this long: its
    /// answer comes later (`OffThreadInstance`).
    case busy(seconds: Double)

    public var description: String {
        switch self {
        case let .busy(seconds) where seconds >= 1: "not responding for \(Int(seconds)) s"
        case .busy: "still answering"
        case .createFailed: "create returned NULL"
        case let .status(code): Self.name(code)
        case let .outputTooLarge(limit): "the plugin wrote more than \(limit) bytes"
        case let .stopped(reason): reason
        }
    }

    static func name(_ code: wh_status.RawValue) -> String {
        switch wh_status(code) {
        case WH_UNKNOWN_SCREEN: "unknown screen"
        case WH_UNKNOWN_ACTION: "unknown action"
        case WH_INVALID_VALUE: "invalid value"
        case WH_FAILED: "the plugin failed"
        case WH_UNKNOWN_QUERY: "the widget does not answer this query"
        default: "the plugin returned unknown status \(code)"
        }
    }
}
