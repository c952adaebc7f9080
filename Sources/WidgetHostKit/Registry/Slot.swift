import Synchronization

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
    @usableFromInline let published = Atomic<UInt>(0)
    /// Every `Held` ever published: a reader may still hold an old one's
    /// address, so none is freed before the slot.
    private let kept = Locked<[Held]>([])

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
        let address = published.load(ordering: .acquiring)
        guard address != 0 else { return nil }
        let generation = registry.generation.load(ordering: .acquiring)
        // The slot keeps every Held alive: borrowing one costs no retain.
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
        kept.withLock { $0.append(held) }
        published.store(UInt(bitPattern: Unmanaged.passUnretained(held).toOpaque()), ordering: .releasing)
        return instance
    }
}
