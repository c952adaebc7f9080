/// The composition root: every host service, registered once in one
/// `Registry`, and reached only through it. Whoever needs a service resolves
/// it (`resolve(Bus.self)`); a plugin's `PluginContext` resolves its own at
/// its start, and plugins themselves reach the C tables by versioned id, and
/// only those their manifest declares.
public final class HostRuntime: Sendable {
    public let registry: Registry

    public init(
        config: HostConfig = .empty, clock: HostClock = HostClock(), storeDirectory: String,
        log: HostLog = HostLog(), http: HTTPClient = HTTPClient()
    ) {
        let registry = Registry()
        registry.register(HostLog.self, scope: .application) { _ in log }
        registry.register(HostConfig.self, scope: .application) { _ in config }
        registry.register(HostClock.self, scope: .application) { _ in clock }
        registry.register(HTTPClient.self, scope: .application) { _ in http }
        registry.register(Bus.self, scope: .application) { resolver in
            let log = try resolver.resolve(HostLog.self)
            return Bus(onHandlerError: { event, error in
                log.log(.warning, "bus", "a subscriber to \(event.topic) failed: \(error)")
            })
        }
        registry.register(SharedStore.self, scope: .application) { resolver in
            let bus = try resolver.resolve(Bus.self)
            return SharedStore(directory: storeDirectory, onChange: { key, change in
                let payload = JSONValue.object([("key", .string(key)), ("change", .string(change))]).serialized
                bus.enqueue(BusEvent(topic: SharedStore.changeTopic, payload: payload))
            })
        }
        registry.register(ContractBroker.self, scope: .application) { _ in ContractBroker() }
        for table in ServiceTable.all {
            registry.register(ServiceTable.self, name: table.id, scope: .application) { _ in table }
        }
        self.registry = registry
    }

    /// One of the host services registered above. They are always there, so
    /// failing to resolve one is a bug in this file, not a condition to handle.
    public func resolve<Service>(_ type: Service.Type = Service.self) -> Service {
        do { return try registry.resolve(type) } catch { preconditionFailure("host service missing: \(error)") }
    }

    /// The ids of the service tables plugins may ask for: those registered.
    public var serviceIDs: Set<String> { Set(registry.names(of: ServiceTable.self)) }
}
