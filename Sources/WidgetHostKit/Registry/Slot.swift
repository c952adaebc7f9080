
/// One registration's instance, reached without a lock or a dictionary: what
/// a hot path keeps instead of resolving a type on every call. Take it once
/// (`registry.slot(Engine.self)`), then `resolve()` as often as needed.
///
/// For the application and cached scopes the first resolve is published in
/// the slot, and later ones read it back: two atomic loads and a compare.
/// A new registration or `resetCached()` moves the registry to a new
/// generation, and the slot resolves afresh; other scopes resolve every time,
/// as they would through the registry.
public final class Slot<Service>: Sendable {
    @usableFromInline let registry: Registry
    private let name: String?
    /// The published `Held`, as an address (0: none yet).
    @usableFromInline let published = AtomicCell<UInt>(0)
    /// The `Held`s published and not yet freed: a reader between loading an
    /// address and retaining its instance may still use an old one, so old
    /// ones are freed only when a refill sees no reader in `held()`.
    private let kept = Locked<[Held]>([])
    /// Readers inside `held()`.
    @usableFromInline let readers = AtomicCell<Int>(0)

    @usableFromInline
    final class Held: Sendable {
        @usableFromInline let generation: UInt64
        @usableFromInline nonisolated(unsafe) let instance: Service

        @usableFromInline
        init(generation: UInt64, instance: Service) {
            self.generation = generation
            self.instance = instance
        }
    }

    init(registry: Registry, name: String?) {
        self.registry = registry
        self.name = name
    }

    @inlinable
    public func resolve() throws(RegistryError) -> Service {
        if let instance = held() { return instance }
        return try refill()
    }

    // Inlinable, as `resolve` is, so that the read is specialised for the
    // caller's type: no generic metadata to look up on the hot path.
    @inlinable
    func held() -> Service? {
        // Sequentially consistent with refill's store and load: a refill that
        // sees no reader frees only what no reader can have loaded.
        readers.add(1, ordering: .sequentiallyConsistent)
        defer { readers.subtract(1, ordering: .releasing) }
        let address = published.load(ordering: .sequentiallyConsistent)
        guard address != 0 else { return nil }
        let generation = registry.generation.load(ordering: .acquiring)
        // While this reader is counted its Held stays alive: borrowing one costs no retain.
        return Unmanaged<Held>.fromOpaque(UnsafeRawPointer(bitPattern: address)!)._withUnsafeGuaranteedRef { held in
            held.generation == generation ? held.instance : nil
        }
    }

    @usableFromInline
    func refill() throws(RegistryError) -> Service {
        // Read before resolving: a reset meanwhile leaves this stale, and the
        // next read resolves again rather than keeping an old instance.
        let generation = registry.generation.load(ordering: .acquiring)
        let instance = try registry.resolve(Service.self, name: name)
        guard registry.holdsInstances(of: Service.self, name: name) else { return instance }
        let held = Held(generation: generation, instance: instance)
        kept.withLock { kept in
            kept.append(held)
            published.store(UInt(bitPattern: Unmanaged.passUnretained(held).toOpaque()), ordering: .sequentiallyConsistent)
            // A reset's old instances go with their Held, unless a reader may be using one: then the next refill frees them.
            if readers.load(ordering: .sequentiallyConsistent) == 0 { kept = [held] }
        }
        return instance
    }
}
