import Glibc
import PluginABI

/// A live instance of a loaded plugin in this process. Drive it from one
/// thread at a time, as plugin.h requires; the instance is destroyed when
/// this is released.
public final class PluginInstance: WidgetInstance {
    public let plugin: LoadedPlugin
    public let context: PluginContext
    private let handle: OpaquePointer

    /// The plugin's own pointer for this instance, for measuring the bare ABI call.
    public var rawHandle: OpaquePointer { handle }

    /// The most a single render (or query answer) may write: the view
    /// parser's limit, since a larger view could never be shown. Before, the
    /// cap was 4 MiB while the parser refused anything over 1 MiB.
    public static let maxRenderBytes = ViewDescription.maxBytes

    public typealias CallError = WidgetCallError

    /// The plugin's id as C text, for marking calls into its code (`PluginCall`).
    private let markedID: UnsafeMutablePointer<CChar>

    /// `maxEventsPerSecond`: past it the plugin is stopped for flooding the
    /// bus, as an isolated one is (`PluginContext`).
    public init(plugin: LoadedPlugin, runtime: HostRuntime,
                maxEventsPerSecond: Int = PluginRunSettings().maxEventsPerSecond) throws(CallError) {
        self.plugin = plugin
        context = PluginContext(manifest: plugin.manifest, runtime: runtime, maxEventsPerSecond: maxEventsPerSecond)
        markedID = strdup(plugin.manifest.id.value)
        let (create, host) = (plugin.descriptor.create!, context.host)
        guard let handle = PluginCall.during(markedID, "create", { create(host) }) else {
            free(markedID)
            throw .createFailed
        }
        self.handle = handle
        context.onStop { [log = runtime.resolve(HostLog.self), id = plugin.manifest.id.value] reason in
            log.log(.warning, id, "stopped: \(reason)")
        }
    }

    deinit {
        let (destroy, handle) = (plugin.descriptor.destroy!, handle)
        PluginCall.during(markedID, "destroy") { destroy(handle) }
        free(markedID)
    }

    /// A plugin the host stopped for breaking a rule is not called again.
    private func checkRunning() throws(CallError) {
        if let reason = context.stopReason { throw .stopped(reason) }
    }

    // Every call's C strings are made with withCString: a String passed where
    // C wants a pointer is copied into a new heap array (utf8CString) on each
    // call, which was a third of an in-process action's round trip.

    /// The view description the plugin writes for `screen`.
    public func render(screen: String, params: JSONValue = [:]) throws(CallError) -> [UInt8] {
        let render = plugin.descriptor.render!
        let text = params.serialized
        return try written("render") { output in
            screen.withCString { screen in text.withCString { text in render(handle, screen, text, output) } }
        }
    }

    /// A plugin built without `query` (NULL, or a 1.0 descriptor too short
    /// to hold it) answers no query.
    public func query(_ id: String) throws(CallError) -> [UInt8] {
        guard let query = plugin.descriptor.query else { throw .status(WH_UNKNOWN_QUERY.rawValue) }
        return try written("query") { output in id.withCString { id in query(handle, id, output) } }
    }

    /// The bytes a call wrote to its output, if it succeeded within the limit
    /// and the plugin broke no rule meanwhile.
    private func written(_ name: StaticString, _ call: (UnsafePointer<wh_output>) -> Int32) throws(CallError) -> [UInt8] {
        try checkRunning()
        let buffer = OutputBuffer(limit: Self.maxRenderBytes)
        let status = PluginCall.during(markedID, name) { buffer.withOutput(call) }
        try checkRunning()
        if buffer.overflowed { throw .outputTooLarge(Self.maxRenderBytes) }
        guard status == Int32(WH_OK.rawValue) else { throw .status(UInt32(bitPattern: status)) }
        return buffer.bytes
    }

    public func handle(action: String, value: String?) throws(CallError) {
        try checkRunning()
        let handleAction = plugin.descriptor.handle_action!
        let status = action.withCString { action in
            value.withOptionalCString { value in PluginCall.during(markedID, "action") { handleAction(handle, action, value) } }
        }
        try checkRunning()
        guard status == Int32(WH_OK.rawValue) else { throw .status(UInt32(bitPattern: status)) }
    }

    public func onWake(_ handler: @escaping @Sendable () -> Void) {
        context.onWake(handler)
    }

    public func deliver(topic: String, payload: String) {
        let onEvent = plugin.descriptor.on_event!
        topic.withCString { topic in payload.withCString { payload in PluginCall.during(markedID, "event") { onEvent(handle, topic, payload) } } }
    }

    /// Delivers the bus events waiting for this instance, in order, on the
    /// calling thread (the host's main thread). Returns how many.
    @discardableResult
    public func pump() -> Int {
        var count = 0
        while let event = context.nextEvent() {
            deliver(topic: event.topic, payload: event.payload)
            count += 1
        }
        return count
    }
}

extension Optional where Wrapped == String {
    /// `body` given the text as a C string, or NULL for nil, with no heap copy.
    func withOptionalCString<Result>(_ body: (UnsafePointer<CChar>?) -> Result) -> Result {
        guard let self else { return body(nil) }
        return self.withCString(body)
    }
}
