/// One top-level resolve in progress: what a factory uses to resolve its own
/// dependencies. It carries the chain of services being built, for cycle
/// detection, and the instances of the graph scope.
///
/// A Resolution belongs to the resolve that created it: a factory may use it
/// during its call, not keep it.
public final class Resolution {
    private let registry: Registry
    private var chain: [Key] = []
    private var graph: [Key: Any] = [:]

    init(registry: Registry) {
        self.registry = registry
    }

    public func resolve<Service>(_ type: Service.Type = Service.self, name: String? = nil) throws(RegistryError) -> Service {
        let key = Key(type, name)
        guard let registration = registry.registration(for: key) else {
            throw .notRegistered(type: "\(type)", name: name, registered: registry.registeredNames())
        }
        return try instance(of: type, key: key, registration: registration, argument: nil)
    }

    public func resolve<Service, Argument>(_ type: Service.Type = Service.self, name: String? = nil, argument: Argument) throws(RegistryError) -> Service {
        let key = Key(type, name)
        guard let registration = registry.registration(for: key) else {
            throw .notRegistered(type: "\(type)", name: name, registered: registry.registeredNames())
        }
        return try instance(of: type, key: key, registration: registration, argument: argument)
    }

    public func optional<Service>(_ type: Service.Type = Service.self, name: String? = nil) throws(RegistryError) -> Service? {
        let key = Key(type, name)
        guard let registration = registry.registration(for: key) else { return nil }
        return try instance(of: type, key: key, registration: registration, argument: nil)
    }

    private func instance<Service>(of type: Service.Type, key: Key, registration: Registration, argument: Any?) throws(RegistryError) -> Service {
        switch registration.scope {
        case .application, .cached:
            if case let .strong(existing)? = registration.store.withLock({ $0 }) { return existing as! Service }
            let made: Service = try build(key, registration, argument)
            // Keep whichever instance was stored first, ours or a racing thread's.
            let kept = registration.store.withLock { stored -> Stored in
                if let stored, case .strong = stored { return stored }
                stored = .strong(made)
                return .strong(made)
            }
            guard case let .strong(winner) = kept else { return made }
            return winner as! Service
        case .shared:
            if case let .weak(box)? = registration.store.withLock({ $0 }), let existing = box.object as? Service {
                return existing
            }
            let made: Service = try build(key, registration, argument)
            guard Swift.type(of: made as Any) is AnyClass else { return made }
            let kept = registration.store.withLock { stored -> WeakBox in
                if case let .weak(box)? = stored, box.object != nil { return box }
                let box = WeakBox(made as AnyObject)
                stored = .weak(box)
                return box
            }
            return (kept.object as? Service) ?? made
        case .graph:
            if let existing = graph[key] { return existing as! Service }
            let made: Service = try build(key, registration, argument)
            graph[key] = made
            return made
        case .unique:
            return try build(key, registration, argument)
        }
    }

    private func build<Service>(_ key: Key, _ registration: Registration, _ argument: Any?) throws(RegistryError) -> Service {
        if let start = chain.firstIndex(of: key) {
            let names = (chain[start...] + [key]).map { registry.registration(for: $0)?.displayName ?? "?" }
            throw .cycle(names)
        }
        chain.append(key)
        defer { chain.removeLast() }
        do {
            return try registration.make(self, argument) as! Service
        } catch let error as RegistryError {
            throw error
        } catch {
            throw .factoryFailed(type: registration.typeName, name: registration.name, message: "\(error)")
        }
    }
}
