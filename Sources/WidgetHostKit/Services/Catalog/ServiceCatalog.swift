import PluginABI

/// Every service this host offers plugins, each described once (see
/// `ServiceDescription`). To add one: its C header under
/// `Sources/PluginABI/include/widget_host/services/`, a description beside
/// these, and its name in `all`.
enum ServiceCatalog {
    static let all: [ServiceDescription] = [
        LogService.description, ClockService.description, ClockService.description2, ConfigService.description, StoreService.description,
    ] + HTTPService.descriptions + [BusService.description, NavigatorService.description, ContractService.description]

    private static let byID: [String: ServiceDescription] = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })

    static func service(_ id: String) -> ServiceDescription? { byID[id] }

    static func function(_ service: String, _ name: String) -> ServiceFunction? {
        byID[service]?.function(name)
    }

    /// The table a plugin gets for `id` wherever it runs: a service's own,
    /// or a contract's (`ContractService`). The host decides whether the
    /// plugin may have it; this only says what it is.
    static func table(for id: String) -> UnsafeRawPointer? {
        if let service = byID[id], service.grantedByID { return service.table.pointer }
        return ContractID.problem(with: id) == nil ? ContractService.table(for: id) : nil
    }
}

/// A C service table as the registry holds it, under its versioned id.
/// Each table is static and stateless: a call finds its plugin, and the
/// plugin's grants, through the `wh_host` it passes.
public struct ServiceTable: @unchecked Sendable {
    public let id: String
    let pointer: UnsafeRawPointer

    static var all: [ServiceTable] { ServiceCatalog.all.filter(\.grantedByID).map(\.table) }

    /// The table as its C struct.
    func typed<Table>(_: Table.Type) -> Table {
        pointer.assumingMemoryBound(to: Table.self).pointee
    }
}
