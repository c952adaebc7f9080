import Synchronization
import Testing
@testable import WidgetHostKit
@testable import TestSupport

private final class Engine: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

private typealias Counter = ServiceTestKit.Counter

/// A slot reads a held instance back without the registry's lock, and never
/// gives one the registry no longer holds.
@Suite("Registry slots")
struct RegistrySlotTests {
    @Test("a slot gives the application instance the registry gives, making it once")
    func application() throws {
        let registry = Registry(), made = Counter()
        registry.register(Engine.self, scope: .application) { _ in Engine(serial: made.increment()) }
        let slot = registry.slot(Engine.self)
        let first = try slot.resolve()
        #expect(try slot.resolve() === first)
        #expect(try registry.resolve(Engine.self) === first)
        #expect(made.value == 1)
    }

    @Test("after resetCached or a new registration, the slot gives the new instance")
    func invalidation() throws {
        let registry = Registry(), made = Counter()
        registry.register(Engine.self, scope: .cached) { _ in Engine(serial: made.increment()) }
        let slot = registry.slot(Engine.self)
        let first = try slot.resolve()
        registry.resetCached()
        let second = try slot.resolve()
        #expect(second !== first && second.serial == 2)
        #expect(try registry.resolve(Engine.self) === second)
        registry.register(Engine.self, scope: .application) { _ in Engine(serial: 100) }
        #expect(try slot.resolve().serial == 100)
    }

    @Test("unique and graph scopes are resolved on every read, as through the registry")
    func notHeld() throws {
        let registry = Registry(), made = Counter()
        registry.register(Engine.self, scope: .unique) { _ in Engine(serial: made.increment()) }
        let slot = registry.slot(Engine.self)
        #expect(try slot.resolve() !== slot.resolve())
        #expect(made.value == 2)
    }

    @Test("a named slot, and a missing registration is the registry's error")
    func namedAndMissing() throws {
        let registry = Registry()
        registry.register(Engine.self, name: "fast", scope: .application) { _ in Engine(serial: 7) }
        #expect(try registry.slot(Engine.self, name: "fast").resolve().serial == 7)
        #expect(throws: RegistryError.self) { try registry.slot(Engine.self).resolve() }
    }

    /// Weak references to every instance a slot was given.
    private final class Made: @unchecked Sendable {
        private let lock = Mutex<[WeakEngine]>([])
        struct WeakEngine { weak var engine: Engine? }
        func add(_ engine: Engine) -> Engine {
            lock.withLock { $0.append(WeakEngine(engine: engine)) }
            return engine
        }
        var alive: Int { lock.withLock { $0.filter { $0.engine != nil }.count } }
        var count: Int { lock.withLock { $0.count } }
    }

    @Test("a slot releases what a reset replaced: after 100 resets at most one instance is alive", arguments: [false, true])
    func releasesOnReset(_ concurrentReads: Bool) async throws {
        let registry = Registry(), made = Made()
        registry.register(Engine.self, scope: .cached) { _ in made.add(Engine(serial: made.count + 1)) }
        let slot = registry.slot(Engine.self)
        if concurrentReads {
            // Readers meanwhile may keep an old one for a while, never for good.
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<3 { group.addTask { for _ in 0..<3_000 { _ = try? slot.resolve() } } }
                group.addTask {
                    for _ in 0..<100 { registry.resetCached() }
                }
            }
        }
        for _ in 0..<100 {
            _ = try slot.resolve()
            registry.resetCached()
        }
        _ = try slot.resolve()
        registry.resetCached()
        #expect(made.count >= 101)
        #expect(made.alive <= 1, "\(made.alive) of \(made.count) instances alive")
    }

    @Test("readers on many threads, with resets meanwhile, only ever see an instance the registry made")
    func concurrentReaders() async throws {
        let registry = Registry(), made = Counter()
        registry.register(Engine.self, scope: .cached) { _ in Engine(serial: made.increment()) }
        let slot = registry.slot(Engine.self)
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 {
                group.addTask { (0..<2_000).allSatisfy { _ in ((try? slot.resolve())?.serial ?? 0) >= 1 } }
            }
            group.addTask {
                for _ in 0..<200 { registry.resetCached() }
                return true
            }
            for await ok in group { #expect(ok) }
        }
        #expect(try slot.resolve() === registry.resolve(Engine.self))
    }
}
