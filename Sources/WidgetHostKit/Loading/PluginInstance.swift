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

    /// The most a single render may write.
    public static let maxRenderBytes = 4 << 20

    public typealias CallError = WidgetCallError

    public init(plugin: LoadedPlugin, runtime: HostRuntime) throws(CallError) {
        self.plugin = plugin
        context = PluginContext(manifest: plugin.manifest, runtime: runtime)
        guard let handle = plugin.descriptor.create!(context.host) else { throw .createFailed }
        self.handle = handle
    }

    deinit { plugin.descriptor.destroy!(handle) }

    /// The view description the plugin writes for `screen`.
    public func render(screen: String, params: String = "{}") throws(CallError) -> [UInt8] {
        try written { output in plugin.descriptor.render!(handle, screen, params, output) }
    }

    /// A plugin built without `query` (NULL, or a 1.0 descriptor too short
    /// to hold it) answers no query.
    public func query(_ id: String) throws(CallError) -> [UInt8] {
        guard let query = plugin.descriptor.query else { throw .status(WH_UNKNOWN_QUERY.rawValue) }
        return try written { output in query(handle, id, output) }
    }

    /// The bytes a call wrote to its output, if it succeeded within the limit.
    private func written(_ call: (UnsafePointer<wh_output>) -> Int32) throws(CallError) -> [UInt8] {
        let buffer = OutputBuffer(limit: Self.maxRenderBytes)
        let status = buffer.withOutput(call)
        if buffer.overflowed { throw .outputTooLarge(Self.maxRenderBytes) }
        guard status == Int32(WH_OK.rawValue) else { throw .status(UInt32(bitPattern: status)) }
        return buffer.bytes
    }

    public func handle(action: String, value: String?) throws(CallError) {
        let status = plugin.descriptor.handle_action!(handle, action, value)
        guard status == Int32(WH_OK.rawValue) else { throw .status(UInt32(bitPattern: status)) }
    }

    public func onWake(_ handler: @escaping @Sendable () -> Void) {
        context.onWake(handler)
    }

    public func deliver(topic: String, payload: String) {
        plugin.descriptor.on_event!(handle, topic, payload)
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
