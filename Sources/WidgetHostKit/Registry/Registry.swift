
/// A Resolver-style dependency registry: register a factory for a type
/// (optionally under a name, optionally taking an argument), then resolve it.
///
/// What it fixes in its models:
/// - No global recursive lock, so no deadlock when a factory resolves other
///   services: locks guard only the tables and are never held while a factory
///   runs. Two threads racing to create the same singleton may both run its
///   factory; the first to finish is kept and returned to both.
/// - A missing registration is a thrown error naming the type and listing
///   what is registered, never a crash.
/// - A circular dependency is detected in every build configuration, and the
///   error shows the chain (`A -> B -> A`).
///
/// Factories should resolve their dependencies through the `Resolution` they
/// are given: it carries the chain for cycle detection and the graph scope.
/// A factory that resolves through the registry itself (one it captured)
/// joins the resolve in progress on its thread, so a cycle through it is
/// still the cycle error, never a stack overflow.
public final class Registry: Sendable {
    /// The registrations, and apart from them the instances held for the
    /// application and cached scopes, under one lock: the common resolve is
    /// then exactly a locked dictionary lookup and a cast, copying nothing
    /// but the instance.
    @usableFromInline
    let table = Locked(Tables())
    /// Moves on with every registration and reset, so that a `Slot` can
    /// tell whether what it read is still what the registry holds.
    @usableFromInline
    let generation = AtomicCell<UInt64>(0)

    @usableFromInline
    struct Tables {
        var registrations: [Key: Registration] = [:]
        @usableFromInline
        var held = HeldInstances()

        /// A new registration drops whatever the old one held.
        mutating func register(_ registration: Registration, for key: Key) {
            registrations[key] = registration
            held[key] = nil
        }
    }

    public init() {}

    /// Registers `factory` for `type`, replacing any earlier registration
    /// under the same type and name.
    public func register<Service>(
        _ type: Service.Type = Service.self, name: String? = nil, scope: Scope = .graph,
        factory: @escaping @Sendable (Resolution) throws -> Service
    ) {
        let registration = Registration(scope: scope, typeName: "\(type)", name: name) { resolution, _ in
            try factory(resolution)
        }
        table.withLock { $0.register(registration, for: Key(type, name)) }
        generation.add(1, ordering: .releasing)
    }

    /// Registers a factory that takes an argument at resolve time. Instances
    /// made from arguments are never shared, whatever the scope says: a
    /// cached instance would silently ignore the next caller's argument.
    public func register<Service, Argument>(
        _ type: Service.Type = Service.self, name: String? = nil, argument _: Argument.Type,
        factory: @escaping @Sendable (Resolution, Argument) throws -> Service
    ) {
        let registration = Registration(scope: .unique, typeName: "\(type)", name: name) { resolution, argument in
            guard let argument = argument as? Argument else {
                throw RegistryError.wrongArgument(type: "\(type)", name: name, expected: "\(Argument.self)")
            }
            return try factory(resolution, argument)
        }
        table.withLock { $0.register(registration, for: Key(type, name)) }
        generation.add(1, ordering: .releasing)
    }

    /// A slot for `type`'s registration under `name`, read without a lock
    /// once its instance is made (`Slot`).
    public func slot<Service>(_ type: Service.Type = Service.self, name: String? = nil) -> Slot<Service> {
        Slot(registry: self, name: name)
    }

    /// Whether the registration keeps its instance (application or cached scope).
    func holdsInstances<Service>(of type: Service.Type, name: String?) -> Bool {
        guard let scope = registration(for: Key(type, name))?.scope else { return false }
        return scope == .application || scope == .cached
    }

    // Inlinable so that the common case, an instance already held by the
    // application or cached scope, is specialised for the caller's type and
    // needs no resolution graph: one lock, one lookup, one cast.
    @inlinable
    public func resolve<Service>(_ type: Service.Type = Service.self, name: String? = nil) throws(RegistryError) -> Service {
        if let held = table.withLock({ $0.held.instance(for: Key(type, name)) }) { return held.value(as: type) }
        return try resolveThroughGraph(type, name: name)
    }

    /// The unnamed resolve, the common one, as the floor does it: no key to
    /// build, one lookup by type. Chosen over the one above when no name is given.
    @inlinable
    public func resolve<Service>(_ type: Service.Type = Service.self) throws(RegistryError) -> Service {
        if let held = table.withLock({ $0.held.unnamed[ObjectIdentifier(type)] }) { return held.value(as: type) }
        return try resolveThroughGraph(type, name: nil)
    }

    @usableFromInline
    func resolveThroughGraph<Service>(_ type: Service.Type, name: String?) throws(RegistryError) -> Service {
        try resolution().resolve(type, name: name)
    }

    /// The resolve in progress on this thread for this registry (a factory
    /// calling back into the registry), or a new one.
    func resolution() -> Resolution {
        if let current = Resolution.InProgress.current, current.registry === self { return current }
        return Resolution(registry: self)
    }

    public func resolve<Service, Argument>(_ type: Service.Type = Service.self, name: String? = nil, argument: Argument) throws(RegistryError) -> Service {
        try resolution().resolve(type, name: name, argument: argument)
    }

    /// The service, or nil if nothing is registered for it. Errors inside a
    /// registered factory (a cycle, a missing dependency) are still thrown.
    public func optional<Service>(_ type: Service.Type = Service.self, name: String? = nil) throws(RegistryError) -> Service? {
        try resolution().optional(type, name: name)
    }

    public func isRegistered<Service>(_ type: Service.Type, name: String? = nil) -> Bool {
        table.withLock { $0.registrations[Key(type, name)] != nil }
    }

    /// Drops every instance held by the cached scope; the next resolve makes
    /// a new one. Other scopes are untouched.
    public func resetCached() {
        table.withLock { table in
            for (key, registration) in table.registrations where registration.scope == .cached { table.held[key] = nil }
        }
        generation.add(1, ordering: .releasing)
    }

    func heldInstance(for key: Key) -> HeldInstance? {
        table.withLock { $0.held[key] }
    }

    /// Keeps `made` as the instance of `registration`, unless a racing
    /// resolve kept one first (then that one is returned), or the type was
    /// registered again meanwhile (then `made` is returned and not kept).
    func keep<Service>(_ made: Service, for key: Key, of registration: Registration) -> Service {
        let held = table.withLock { table -> HeldInstance? in
            guard table.registrations[key] === registration else { return nil }
            if let held = table.held[key] { return held }
            let fresh = HeldValue(made)
            table.held[key] = fresh
            return fresh
        }
        return held?.value(as: Service.self) ?? made
    }

    func registration(for key: Key) -> Registration? {
        table.withLock { $0.registrations[key] }
    }

    /// The names `type` is registered under (the unnamed registration left out).
    public func names<Service>(of type: Service.Type) -> [String] {
        let id = ObjectIdentifier(type)
        return table.withLock { $0.registrations.keys.filter { $0.type == id }.compactMap(\.name) }.sorted()
    }

    /// "Type" or "Type (name: x)", sorted, for error messages.
    func registeredNames() -> [String] {
        table.withLock { $0.registrations.values.map(\.displayName) }.sorted()
    }
}

/// How long a resolved instance lives.
public enum Scope: Sendable, Equatable {
    /// One instance for the registry's lifetime (a singleton).
    case application
    /// Like application, until `resetCached()` drops it.
    case cached
    /// Held weakly: shared while someone else keeps it alive. For classes;
    /// a value type cannot be held weakly and behaves as `.unique`.
    case shared
    /// One instance per top-level resolve: everything resolved while
    /// building one object graph gets the same instance.
    case graph
    /// A new instance every time.
    case unique
}

public enum RegistryError: Error, Equatable, CustomStringConvertible {
    case notRegistered(type: String, name: String?, registered: [String])
    case cycle([String])
    case wrongArgument(type: String, name: String?, expected: String)
    case factoryFailed(type: String, name: String?, message: String)

    public var description: String {
        switch self {
        case let .notRegistered(type, name, registered):
            let what = Registration.displayName(type, name)
            return "nothing is registered for \(what); registered: " + (registered.isEmpty ? "nothing" : registered.joined(separator: ", "))
        case let .cycle(chain):
            return "circular dependency: " + chain.joined(separator: " -> ")
        case let .wrongArgument(type, name, expected):
            return "\(Registration.displayName(type, name)) needs an argument of type \(expected)"
        case let .factoryFailed(type, name, message):
            return "the factory for \(Registration.displayName(type, name)) failed: \(message)"
        }
    }
}

@usableFromInline
struct Key: Hashable, Sendable {
    @usableFromInline
    let type: ObjectIdentifier
    @usableFromInline
    let name: String?

    @usableFromInline
    init<T>(_ type: T.Type, _ name: String?) {
        self.type = ObjectIdentifier(type)
        self.name = name
    }
}

final class Registration: Sendable {
    let scope: Scope
    let typeName: String
    let name: String?
    let make: @Sendable (Resolution, Any?) throws -> Any
    /// The shared scope's weak hold on its instance.
    let shared = Locked<WeakBox?>(nil)

    init(scope: Scope, typeName: String, name: String?, make: @escaping @Sendable (Resolution, Any?) throws -> Any) {
        self.scope = scope
        self.typeName = typeName
        self.name = name
        self.make = make
    }

    var displayName: String { Self.displayName(typeName, name) }



    static func displayName(_ type: String, _ name: String?) -> String {
        name.map { "\(type) (name: \($0))" } ?? type
    }
}

final class WeakBox: @unchecked Sendable {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}
