import Glibc
import PluginABI
import Synchronization

/// The host's side of one plugin instance: its `wh_host`, its grants, and the
/// services it reaches through them.
///
/// Capabilities are deny-by-default: `get_service` answers only for services
/// the plugin's manifest declared and the host provides. Every `wh_host`
/// points back here, so a service always knows which plugin is calling.
public final class PluginContext: @unchecked Sendable {
    public let pluginID: PluginID
    public let log: HostLog
    let granted: [String: UnsafeRawPointer]
    private let declared: Set<String>
    private let renderRequests = Mutex<(@Sendable () -> Void)?>(nil)
    let host: UnsafeMutablePointer<wh_host>

    init(manifest: Manifest, catalog: ServiceCatalog, log: HostLog) {
        pluginID = manifest.id
        self.log = log
        let declared = Set(manifest.requiredServices + manifest.optionalServices)
        self.declared = declared
        granted = catalog.tables.filter { declared.contains($0.key) }
        host = .allocate(capacity: 1)
        host.initialize(to: wh_host(
            abi_major: WH_ABI_MAJOR, abi_minor: WH_ABI_MINOR, struct_size: UInt32(MemoryLayout<wh_host>.size),
            host_data: nil,
            get_service: { host, id in
                guard let context = PluginContext.from(host), let id else { return nil }
                return context.service(String(cString: id))
            },
            request_render: { host in
                PluginContext.from(host)?.renderRequests.withLock { $0 }?()
            }
        ))
        host.pointee.host_data = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        host.deinitialize(count: 1)
        host.deallocate()
    }

    /// Called, on any thread, when the plugin asks to be rendered again.
    public func onRenderRequest(_ handler: @escaping @Sendable () -> Void) {
        renderRequests.withLock { $0 = handler }
    }

    func service(_ id: String) -> UnsafeRawPointer? {
        if let table = granted[id] { return table }
        if declared.contains(id) {
            log.log(.info, pluginID.value, "asked for service \(id), which this host does not provide")
        } else {
            log.log(.warning, pluginID.value, "denied service \(id): the plugin's manifest does not declare it")
        }
        return nil
    }

    static func from(_ host: UnsafePointer<wh_host>?) -> PluginContext? {
        guard let data = host?.pointee.host_data else { return nil }
        return Unmanaged<PluginContext>.fromOpaque(data).takeUnretainedValue()
    }
}

/// The services the host provides to plugins, by versioned id. Each table is
/// static and stateless: the calling plugin is found through its `wh_host`.
public struct ServiceCatalog: @unchecked Sendable {
    let tables: [String: UnsafeRawPointer]

    public var ids: Set<String> { Set(tables.keys) }

    public static let standard = ServiceCatalog(tables: [
        WH_SERVICE_LOG: UnsafeRawPointer(logTable),
    ])
}

nonisolated(unsafe) private let logTable: UnsafeMutablePointer<wh_log_v1> = {
    let table = UnsafeMutablePointer<wh_log_v1>.allocate(capacity: 1)
    table.initialize(to: wh_log_v1(log: { host, level, message in
        guard let context = PluginContext.from(host), let message else { return }
        let text = String(decoding: UnsafeRawBufferPointer(start: message, count: strlen(message)), as: UTF8.self)
        context.log.log(HostLog.Level(rawValue: level) ?? .error, context.pluginID.value, text)
    }))
    return table
}()
