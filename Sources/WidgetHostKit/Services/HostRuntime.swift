/// The composition root: every host service, registered in one `Registry`.
/// Plugins reach services only through it, by versioned id, and only those
/// their manifest declares (`PluginContext`).
public final class HostRuntime: Sendable {
    public let registry: Registry
    public let log: HostLog
    public let bus: Bus
    public let store: SharedStore
    public let config: HostConfig
    public let clock: HostClock
    public let http: HTTPClient
    /// The service ids plugins may ask for.
    public let serviceIDs: Set<String>

    public init(
        config: HostConfig = .empty, clock: HostClock = HostClock(), storeDirectory: String,
        log: HostLog = HostLog(), http: HTTPClient = HTTPClient()
    ) {
        let bus = Bus(onHandlerError: { event, error in
            log.log(.warning, "bus", "a subscriber to \(event.topic) failed: \(error)")
        })
        let store = SharedStore(directory: storeDirectory, onChange: { key, change in
            bus.enqueue(BusEvent(topic: SharedStore.changeTopic, payload: JSONValue.object([("key", .string(key)), ("change", .string(change))]).serialized))
        })
        self.log = log
        self.bus = bus
        self.store = store
        self.config = config
        self.clock = clock
        self.http = http

        let registry = Registry()
        registry.register(HostLog.self, scope: .application) { _ in log }
        registry.register(Bus.self, scope: .application) { _ in bus }
        registry.register(SharedStore.self, scope: .application) { _ in store }
        registry.register(HostConfig.self, scope: .application) { _ in config }
        registry.register(HostClock.self, scope: .application) { _ in clock }
        registry.register(HTTPClient.self, scope: .application) { _ in http }
        for table in ServiceTable.all {
            registry.register(ServiceTable.self, name: table.id, scope: .application) { _ in table }
        }
        self.registry = registry
        serviceIDs = Set(ServiceTable.all.map(\.id))
    }
}
