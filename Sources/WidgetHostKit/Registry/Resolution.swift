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
            if let held = registry.heldInstance(for: key) { return held as! Service }
            let made: Service = try build(key, registration, argument)
            return registry.keep(made, for: key, of: registration) as! Service
        case .shared:
            if let existing = registration.shared.withLock({ $0?.object }) as? Service { return existing }
            let made: Service = try build(key, registration, argument)
            guard Swift.type(of: made as Any) is AnyClass else { return made }
            // Keep whichever live instance was stored first, ours or a racing thread's.
            let kept = registration.shared.withLock { box -> WeakBox in
                if let box, box.object != nil { return box }
                let fresh = WeakBox(made as AnyObject)
                box = fresh
                return fresh
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
