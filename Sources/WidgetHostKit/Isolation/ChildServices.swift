import PluginABI

/// The `wh_host` a plugin sees inside its isolated process. Its services
/// are the catalog's own tables: their functions find no `PluginContext`
/// here and forward each call to the host (`ServiceFunction.call`), which
/// decides everything. The plugin's code cannot tell the difference.
enum ChildServices {
    /// The `wh_host` the plugin's instance is created with.
    nonisolated(unsafe) static let host: UnsafeMutablePointer<wh_host> = {
        let host = UnsafeMutablePointer<wh_host>.allocate(capacity: 1)
        host.initialize(to: wh_host(
            abi_major: WH_ABI_MAJOR, abi_minor: WH_ABI_MINOR, struct_size: UInt32(MemoryLayout<wh_host>.size),
            host_data: nil,
            get_service: { _, id in
                // Always asked, so the host logs a denial or a service it
                // cannot forward, as it does in process.
                guard let id, let link = ChildLink.shared else { return nil }
                let name = lossyText(id)
                guard link.service(nil, "get_service", [("id", .string(name))])?.fields["result"]?.int64 == 1 else { return nil }
                return ServiceCatalog.table(for: name)
            },
            request_render: { _ in
                ChildLink.shared?.send(Frame(.wake))
            }
        ))
        return host
    }()
}
