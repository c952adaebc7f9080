import Glibc

/// One top-level resolve in progress: what a factory uses to resolve its own
/// dependencies. It carries the chain of services being built, for cycle
/// detection, and the instances of the graph scope.
///
/// A Resolution belongs to the resolve that created it: a factory may use it
/// during its call, not keep it. While a factory runs, its Resolution is also
/// the calling thread's resolve in progress: a factory that resolves through
/// the registry it captured joins it, so a cycle is still reported as one.
public final class Resolution {
    let registry: Registry
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
            if let held = registry.heldInstance(for: key) { return held.value(as: type) }
            let made: Service = try build(key, registration, argument)
            return registry.keep(made, for: key, of: registration)
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
            return try InProgress.with(self) { try registration.make(self, argument) } as! Service
        } catch let error as RegistryError {
            throw error
        } catch {
            throw .factoryFailed(type: registration.typeName, name: registration.name, message: "\(error)")
        }
    }
}

extension Resolution {
    /// The resolution each thread is in the middle of (the innermost one),
    /// kept per thread because a resolve runs its factories on the calling
    /// thread; another thread's resolve is independent.
    enum InProgress {
        private static let key: pthread_key_t = {
            var key = pthread_key_t()
            precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left")
            return key
        }()

        static var current: Resolution? {
            pthread_getspecific(key).map { Unmanaged<Resolution>.fromOpaque($0).takeUnretainedValue() }
        }

        static func with<Result>(_ resolution: Resolution, _ body: () throws -> Result) rethrows -> Result {
            let previous = pthread_getspecific(key)
            pthread_setspecific(key, Unmanaged.passUnretained(resolution).toOpaque())
            defer { pthread_setspecific(key, previous) }
            return try body()
        }
    }
}
