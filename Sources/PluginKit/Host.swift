import PluginABI

/// The host as a widget sees it: typed clients for the C service tables.
public struct Host: @unchecked Sendable {
    // The host guarantees the pointer outlives the instance (plugin.h).
    let raw: UnsafePointer<wh_host>

    init(raw: UnsafePointer<wh_host>) { self.raw = raw }

    /// The table of a service, or nil when the host lacks it or the manifest
    /// did not declare it.
    public func service<Table>(_ id: String, as _: Table.Type) -> UnsafePointer<Table>? {
        guard let getService = raw.pointee.get_service,
              let table = getService(raw, id) else { return nil }
        return table.assumingMemoryBound(to: Table.self)
    }

    public enum LogLevel: Int32 { case debug = 0, info, warning, error }

    public func log(_ level: LogLevel, _ message: String) {
        guard let table = service(WH_SERVICE_LOG, as: wh_log_v1.self) else { return }
        table.pointee.log(raw, level.rawValue, message)
    }

    /// Asks the host to render again soon; safe from any thread.
    public func requestRender() {
        raw.pointee.request_render?(raw)
    }
}
