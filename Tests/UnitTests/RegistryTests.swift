import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

private typealias Counter = ServiceTestKit.Counter
private typealias Locked = ServiceTestKit.Locked

/// A service that remembers which call of its factory made it.
private final class Engine: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

private struct ValueService: Sendable { let serial: Int }

/// A service registered by its protocol: what is held is an existential.
private protocol Describing: Sendable { var serial: Int { get } }
private final class Describer: Describing {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

// An object graph: Root -> Left, Right; both -> Leaf; each side -> Token.
private final class Leaf: Sendable {}
private final class Token: Sendable {}
private final class Left: Sendable {
    let leaf: Leaf, token: Token
    init(leaf: Leaf, token: Token) { self.leaf = leaf; self.token = token }
}
private final class Right: Sendable {
    let leaf: Leaf, token: Token
    init(leaf: Leaf, token: Token) { self.leaf = leaf; self.token = token }
}
private final class Root: Sendable {
    let left: Left, right: Right, leaf: Leaf
    init(left: Left, right: Right, leaf: Leaf) { self.left = left; self.right = right; self.leaf = leaf }
}

private final class CycleA: Sendable {}
private final class CycleB: Sendable {}
private final class CycleC: Sendable {}
private final class Missing: Sendable {}

private final class Greeting: Sendable {
    let text: String
    let engine: Engine?
    init(_ text: String, engine: Engine? = nil) { self.text = text; self.engine = engine }
}

private struct Boom: Error, CustomStringConvertible { var description: String { "boom" } }

@Suite("Registry")
struct RegistryTests {
    // MARK: Scopes

    @Test("application scope: one instance for the registry's lifetime, made once")
    func applicationScope() throws {
        let registry = Registry()
        let made = Counter()
        registry.register(Engine.self, scope: .application) { _ in Engine(serial: made.increment()) }
        let first = try registry.resolve(Engine.self)
        for _ in 0..<10 { #expect(try registry.resolve(Engine.self) === first) }
        registry.resetCached()   // does not touch the application scope
        #expect(try registry.resolve(Engine.self) === first)
        #expect(made.value == 1)
        #expect(first.serial == 1)
    }

    @Test("application scope: shared by separate graphs and by factories")
    func applicationScopeAcrossGraphs() throws {
        let registry = Registry()
        registry.register(Leaf.self, scope: .application) { _ in Leaf() }
        registry.register(Token.self, scope: .unique) { _ in Token() }
        registry.register(Left.self, scope: .unique) { r in Left(leaf: try r.resolve(), token: try r.resolve()) }
        let a = try registry.resolve(Left.self)
        let b = try registry.resolve(Left.self)
        #expect(a !== b)
        #expect(a.leaf === b.leaf)
        #expect(a.leaf === (try registry.resolve(Leaf.self)))
    }

    @Test("cached scope: a singleton until resetCached(), then a new one")
    func cachedScope() throws {
        let registry = Registry()
        let made = Counter()
        registry.register(Engine.self, scope: .cached) { _ in Engine(serial: made.increment()) }
        registry.register(Engine.self, name: "app", scope: .application) { _ in Engine(serial: 100 + made.increment()) }
        let first = try registry.resolve(Engine.self)
        #expect(try registry.resolve(Engine.self) === first)
        let app = try registry.resolve(Engine.self, name: "app")

        registry.resetCached()
        let second = try registry.resolve(Engine.self)
        #expect(second !== first)
        #expect(second.serial != first.serial)
        #expect(try registry.resolve(Engine.self) === second)
        // Other scopes are untouched by resetCached.
        #expect(try registry.resolve(Engine.self, name: "app") === app)
        #expect(made.value == 3)
    }

    @Test("held instances keep the type they were registered as: a protocol, a value, one type under several names")
    func heldAtTheirRegisteredType() throws {
        let registry = Registry()
        let made = Counter()
        registry.register((any Describing).self, scope: .application) { _ in Describer(serial: made.increment()) }
        registry.register(ValueService.self, scope: .cached) { _ in ValueService(serial: made.increment()) }
        for name in ["a", "b", "c"] {
            registry.register((any Describing).self, name: name, scope: .cached) { _ in Describer(serial: made.increment()) }
        }
        let unnamed = try registry.resolve((any Describing).self)
        let named = try ["a", "b", "c"].map { try registry.resolve((any Describing).self, name: $0) }
        let value = try registry.resolve(ValueService.self)
        for _ in 0..<3 {
            #expect((try registry.resolve((any Describing).self) as? Describer) === (unnamed as? Describer))
            #expect(try ["a", "b", "c"].map { try registry.resolve((any Describing).self, name: $0).serial } == named.map(\.serial))
            #expect(try registry.resolve(ValueService.self).serial == value.serial)
        }
        #expect(Set(named.map(\.serial) + [unnamed.serial, value.serial]).count == 5, "each registration made its own instance")
        #expect(made.value == 5)
        // A slot reads the same held instances.
        #expect(try registry.slot((any Describing).self, name: "b").resolve().serial == named[1].serial)
        #expect(try registry.slot(ValueService.self).resolve().serial == value.serial)
        registry.resetCached()
        #expect(try registry.resolve(ValueService.self).serial != value.serial)
        #expect(try registry.resolve((any Describing).self, name: "a").serial != named[0].serial)
        #expect(try registry.resolve((any Describing).self).serial == unnamed.serial, "the application scope keeps its instance")
    }

    @Test("a registration made through a metatype value resolves by that value's type, as by its static one")
    func registeredThroughAMetatypeValue() throws {
        class Base: @unchecked Sendable {}
        final class Derived: Base, @unchecked Sendable {}
        let registry = Registry()
        // The key is the value's type (Derived); the box is made at the static type (Base).
        let type: Base.Type = Derived.self
        registry.register(type, scope: .application) { _ in Derived() }
        let derived = try registry.resolve(Derived.self)
        #expect(try registry.resolve(Derived.self) === derived, "held, and resolved again from the box")
        #expect(try registry.resolve(type) === derived)
        #expect(throws: RegistryError.self) { try registry.resolve(Base.self) }
    }

    @Test("shared scope: same instance while a strong reference exists, a new one after release")
    func sharedScope() throws {
        let registry = Registry()
        let made = Counter()
        registry.register(Engine.self, scope: .shared) { _ in Engine(serial: made.increment()) }
        weak var released: Engine?
        do {
            let a = try registry.resolve(Engine.self)
            let b = try registry.resolve(Engine.self)
            #expect(a === b)
            #expect(made.value == 1)
            released = a
            withExtendedLifetime((a, b)) {}
        }
        // The registry holds it weakly: nobody else does, so it is gone.
        #expect(released == nil)
        let c = try registry.resolve(Engine.self)
        #expect(made.value == 2)
        #expect(c.serial == 2)
        #expect(try registry.resolve(Engine.self) === c)
        withExtendedLifetime(c) {}
    }

    @Test("shared scope with a value type behaves as unique")
    func sharedScopeValueType() throws {
        let registry = Registry()
        let made = Counter()
        registry.register(ValueService.self, scope: .shared) { _ in ValueService(serial: made.increment()) }
        let serials = try (0..<3).map { _ in try registry.resolve(ValueService.self).serial }
        #expect(serials == [1, 2, 3])
    }

    @Test("graph scope: one instance per top-level resolve, shared by the whole graph")
    func graphScope() throws {
        let registry = Registry()
        let leaves = Counter()
        registry.register(Leaf.self, scope: .graph) { _ in leaves.increment(); return Leaf() }
        registry.register(Token.self, scope: .unique) { _ in Token() }
        registry.register(Left.self, scope: .graph) { r in Left(leaf: try r.resolve(), token: try r.resolve()) }
        registry.register(Right.self, scope: .graph) { r in Right(leaf: try r.resolve(), token: try r.resolve()) }
        registry.register(Root.self, scope: .unique) { r in
            Root(left: try r.resolve(), right: try r.resolve(), leaf: try r.resolve())
        }
        let root = try registry.resolve(Root.self)
        #expect(root.left.leaf === root.right.leaf)
        #expect(root.leaf === root.left.leaf)
        #expect(root.left.token !== root.right.token)   // unique stays unique inside a graph
        #expect(leaves.value == 1)

        let other = try registry.resolve(Root.self)
        #expect(other.leaf !== root.leaf)
        #expect(leaves.value == 2)
        // Two top-level resolves of a graph service are two graphs.
        #expect(try registry.resolve(Leaf.self) !== (try registry.resolve(Leaf.self)))
    }

    @Test("graph is the default scope")
    func defaultScopeIsGraph() throws {
        let registry = Registry()
        registry.register(Leaf.self) { _ in Leaf() }
        registry.register(Left.self) { r in Left(leaf: try r.resolve(), token: Token()) }
        registry.register(Right.self) { r in Right(leaf: try r.resolve(), token: Token()) }
        registry.register(Root.self) { r in Root(left: try r.resolve(), right: try r.resolve(), leaf: try r.resolve()) }
        let root = try registry.resolve(Root.self)
        #expect(root.left.leaf === root.right.leaf && root.leaf === root.left.leaf)
        #expect(try registry.resolve(Root.self).leaf !== root.leaf)
    }

    @Test("unique scope: a new instance every time")
    func uniqueScope() throws {
        let registry = Registry()
        let made = Counter()
        registry.register(Engine.self, scope: .unique) { _ in Engine(serial: made.increment()) }
        let engines = try (0..<5).map { _ in try registry.resolve(Engine.self) }
        #expect(engines.map(\.serial) == [1, 2, 3, 4, 5])
        #expect(Set(engines.map(ObjectIdentifier.init)).count == 5)
    }

    // MARK: Names and replacement

    @Test("names keep registrations of one type apart")
    func names() throws {
        let registry = Registry()
        registry.register(Greeting.self, scope: .application) { _ in Greeting("default") }
        registry.register(Greeting.self, name: "formal", scope: .application) { _ in Greeting("good day") }
        registry.register(Greeting.self, name: "casual", scope: .application) { _ in Greeting("hi") }
        #expect(try registry.resolve(Greeting.self).text == "default")
        #expect(try registry.resolve(Greeting.self, name: "formal").text == "good day")
        #expect(try registry.resolve(Greeting.self, name: "casual").text == "hi")
        #expect(registry.isRegistered(Greeting.self))
        #expect(registry.isRegistered(Greeting.self, name: "formal"))
        #expect(!registry.isRegistered(Greeting.self, name: "rude"))
        #expect(!registry.isRegistered(Engine.self))
        #expect(throws: RegistryError.self) { try registry.resolve(Greeting.self, name: "rude") }
    }

    @Test("registering again under the same type and name replaces the factory")
    func replacement() throws {
        let registry = Registry()
        registry.register(Greeting.self, scope: .unique) { _ in Greeting("old") }
        registry.register(Greeting.self, scope: .unique) { _ in Greeting("new") }
        #expect(try registry.resolve(Greeting.self).text == "new")
        #expect(registry.registeredNames() == ["Greeting"])
    }

    // MARK: Arguments

    @Test("a factory with an argument gets the caller's argument, and is never shared")
    func argumentResolve() throws {
        let registry = Registry()
        let made = Counter()
        registry.register(Engine.self, scope: .application) { _ in Engine(serial: 7) }
        registry.register(Greeting.self, argument: String.self) { r, text in
            made.increment()
            return Greeting(text, engine: try r.resolve(Engine.self))
        }
        let ada = try registry.resolve(Greeting.self, argument: "Ada")
        let grace = try registry.resolve(Greeting.self, argument: "Grace")
        let ada2 = try registry.resolve(Greeting.self, argument: "Ada")
        #expect(ada.text == "Ada")
        #expect(grace.text == "Grace")
        #expect(ada2 !== ada)
        #expect(made.value == 3)
        #expect(ada.engine?.serial == 7)
    }

    @Test("named argument factories, and argument resolves from inside a factory")
    func namedArgumentResolve() throws {
        let registry = Registry()
        registry.register(Greeting.self, name: "loud", argument: String.self) { _, text in Greeting(text.uppercased()) }
        registry.register(Greeting.self, name: "twice", argument: Int.self) { _, count in
            Greeting(String(repeating: "hi", count: count))
        }
        registry.register(Engine.self, scope: .unique) { r in
            Engine(serial: try r.resolve(Greeting.self, name: "loud", argument: "abc").text.count)
        }
        #expect(try registry.resolve(Greeting.self, name: "loud", argument: "hey").text == "HEY")
        #expect(try registry.resolve(Greeting.self, name: "twice", argument: 2).text == "hihi")
        #expect(try registry.resolve(Engine.self).serial == 3)
    }

    @Test("an argument of the wrong type, or none, is a thrown error naming the expected type")
    func wrongArgument() throws {
        let registry = Registry()
        registry.register(Greeting.self, argument: String.self) { _, text in Greeting(text) }
        let wrong = #expect(throws: RegistryError.self) { try registry.resolve(Greeting.self, argument: 42) }
        #expect(wrong == .wrongArgument(type: "Greeting", name: nil, expected: "String"))
        #expect(wrong?.description.contains("String") == true)
        let none = #expect(throws: RegistryError.self) { try registry.resolve(Greeting.self) }
        #expect(none == .wrongArgument(type: "Greeting", name: nil, expected: "String"))
    }

    // MARK: Optional

    @Test("optional: nil when nothing is registered, the instance when something is")
    func optionalResolve() throws {
        let registry = Registry()
        #expect(try registry.optional(Engine.self) == nil)
        registry.register(Engine.self, scope: .application) { _ in Engine(serial: 1) }
        #expect(try registry.optional(Engine.self)?.serial == 1)
        #expect(try registry.optional(Engine.self, name: "other") == nil)
    }

    @Test("optional: errors inside a registered factory are still thrown")
    func optionalStillThrows() throws {
        let registry = Registry()
        registry.register(Engine.self) { r in _ = try r.resolve(Missing.self); return Engine(serial: 0) }
        let missing = #expect(throws: RegistryError.self) { try registry.optional(Engine.self) }
        guard case let .notRegistered(type, name, _)? = missing else {
            Issue.record("expected notRegistered, got \(String(describing: missing))")
            return
        }
        #expect(type == "Missing")
        #expect(name == nil)

        registry.register(CycleA.self) { r in _ = try r.resolve(CycleB.self); return CycleA() }
        registry.register(CycleB.self) { r in _ = try r.optional(CycleA.self); return CycleB() }
        #expect(throws: RegistryError.cycle(["CycleA", "CycleB", "CycleA"])) { try registry.optional(CycleA.self) }

        registry.register(Greeting.self) { _ in throw Boom() }
        #expect(throws: RegistryError.factoryFailed(type: "Greeting", name: nil, message: "boom")) {
            try registry.optional(Greeting.self)
        }
    }

    @Test("optional inside a factory: a missing dependency is nil, not an error")
    func optionalInsideFactory() throws {
        let registry = Registry()
        registry.register(Greeting.self) { r in
            Greeting(try r.optional(Engine.self) == nil ? "no engine" : "engine", engine: try r.optional(Engine.self))
        }
        #expect(try registry.resolve(Greeting.self).text == "no engine")
        registry.register(Engine.self) { _ in Engine(serial: 1) }
        #expect(try registry.resolve(Greeting.self).text == "engine")
    }

    // MARK: Errors

    @Test("a circular dependency A -> B -> A is a thrown error showing the chain")
    func cycle() throws {
        let registry = Registry()
        registry.register(CycleA.self) { r in _ = try r.resolve(CycleB.self); return CycleA() }
        registry.register(CycleB.self) { r in _ = try r.resolve(CycleA.self); return CycleB() }
        let error = #expect(throws: RegistryError.self) { try registry.resolve(CycleA.self) }
        #expect(error == .cycle(["CycleA", "CycleB", "CycleA"]))
        #expect(error?.description == "circular dependency: CycleA -> CycleB -> CycleA")
        // Starting from the other end shows the chain from there.
        #expect(throws: RegistryError.cycle(["CycleB", "CycleA", "CycleB"])) { try registry.resolve(CycleB.self) }
    }

    @Test("cycles are detected in every scope, for self-dependencies, and deeper in the graph")
    func cycleVariants() throws {
        for scope in [Scope.application, .cached, .shared, .graph, .unique] {
            let registry = Registry()
            registry.register(CycleA.self, scope: scope) { r in _ = try r.resolve(CycleB.self); return CycleA() }
            registry.register(CycleB.self, scope: scope) { r in _ = try r.resolve(CycleA.self); return CycleB() }
            #expect(throws: RegistryError.cycle(["CycleA", "CycleB", "CycleA"]), "scope \(scope)") {
                try registry.resolve(CycleA.self)
            }
        }
        let registry = Registry()
        registry.register(CycleA.self) { r in _ = try r.resolve(CycleA.self); return CycleA() }
        #expect(throws: RegistryError.cycle(["CycleA", "CycleA"])) { try registry.resolve(CycleA.self) }

        // A -> B -> C -> B: the error shows the loop itself.
        registry.register(CycleA.self) { r in _ = try r.resolve(CycleB.self); return CycleA() }
        registry.register(CycleB.self) { r in _ = try r.resolve(CycleC.self); return CycleB() }
        registry.register(CycleC.self) { r in _ = try r.resolve(CycleB.self); return CycleC() }
        let deep = #expect(throws: RegistryError.self) { try registry.resolve(CycleA.self) }
        #expect(deep?.description.contains("CycleB -> CycleC -> CycleB") == true)

        // Named registrations show their names in the chain.
        registry.register(Engine.self, name: "x") { r in _ = try r.resolve(Engine.self, name: "y"); return Engine(serial: 0) }
        registry.register(Engine.self, name: "y") { r in _ = try r.resolve(Engine.self, name: "x"); return Engine(serial: 0) }
        let named = #expect(throws: RegistryError.self) { try registry.resolve(Engine.self, name: "x") }
        #expect(named?.description == "circular dependency: Engine (name: x) -> Engine (name: y) -> Engine (name: x)")
    }

    @Test("a factory resolving through the registry it captured throws the cycle error, not a stack overflow")
    func cycleThroughCapturedRegistry() throws {
        for scope in [Scope.application, .graph, .unique] {
            let registry = Registry()
            registry.register(CycleA.self, scope: scope) { [unowned registry] _ in _ = try registry.resolve(CycleB.self); return CycleA() }
            registry.register(CycleB.self, scope: scope) { [unowned registry] _ in _ = try registry.optional(CycleA.self); return CycleB() }
            #expect(throws: RegistryError.cycle(["CycleA", "CycleB", "CycleA"]), "scope \(scope)") { try registry.resolve(CycleA.self) }
        }
        // A resolve in progress on another registry is not joined, and one
        // that finished leaves nothing behind: the same type resolves again.
        let outer = Registry(), inner = Registry()
        inner.register(Engine.self) { _ in Engine(serial: 7) }
        outer.register(Engine.self, scope: .unique) { _ in Engine(serial: try inner.resolve(Engine.self).serial + 1) }
        #expect(try outer.resolve(Engine.self).serial == 8)
        #expect(try outer.resolve(Engine.self).serial == 8)
        // The graph scope is shared with the captured form as well.
        let graph = Registry()
        graph.register(Engine.self) { _ in Engine(serial: 0) }
        graph.register(Greeting.self) { [unowned graph] r in
            Greeting(try r.resolve(Engine.self) === graph.resolve(Engine.self) ? "same" : "different")
        }
        #expect(try graph.resolve(Greeting.self).text == "same")
    }

    @Test("a cycle error leaves the registry usable, and a diamond is not a cycle")
    func cycleRecovery() throws {
        let registry = Registry()
        let allowCycle = Locked(true)
        registry.register(CycleA.self) { r in _ = try r.resolve(CycleB.self); return CycleA() }
        registry.register(CycleB.self) { r in
            if allowCycle.value { _ = try r.resolve(CycleA.self) }
            return CycleB()
        }
        #expect(throws: RegistryError.cycle(["CycleA", "CycleB", "CycleA"])) { try registry.resolve(CycleA.self) }
        allowCycle.set(false)
        _ = try registry.resolve(CycleA.self)

        // Root -> Left -> Leaf and Root -> Right -> Leaf (unique scope, built twice): no cycle.
        registry.register(Leaf.self, scope: .unique) { _ in Leaf() }
        registry.register(Left.self, scope: .unique) { r in Left(leaf: try r.resolve(), token: Token()) }
        registry.register(Right.self, scope: .unique) { r in Right(leaf: try r.resolve(), token: Token()) }
        registry.register(Root.self, scope: .unique) { r in Root(left: try r.resolve(), right: try r.resolve(), leaf: try r.resolve()) }
        let root = try registry.resolve(Root.self)
        #expect(root.left.leaf !== root.right.leaf)
    }

    @Test("a missing registration throws naming the type and name and listing what is registered")
    func missingRegistration() throws {
        let empty = Registry()
        let nothing = #expect(throws: RegistryError.self) { try empty.resolve(Missing.self) }
        #expect(nothing == .notRegistered(type: "Missing", name: nil, registered: []))
        #expect(nothing?.description == "nothing is registered for Missing; registered: nothing")

        let registry = Registry()
        registry.register(Greeting.self, name: "formal") { _ in Greeting("x") }
        registry.register(Engine.self) { _ in Engine(serial: 0) }
        let error = #expect(throws: RegistryError.self) { try registry.resolve(Missing.self, name: "db") }
        #expect(error == .notRegistered(type: "Missing", name: "db", registered: ["Engine", "Greeting (name: formal)"]))
        #expect(error?.description == "nothing is registered for Missing (name: db); registered: Engine, Greeting (name: formal)")

        // The right type under the wrong name is still missing.
        let wrongName = #expect(throws: RegistryError.self) { try registry.resolve(Engine.self, name: "turbo") }
        #expect(wrongName?.description.contains("Engine (name: turbo)") == true)
    }

    @Test("a missing dependency deep in a graph is reported as that dependency, not wrapped")
    func missingDependency() throws {
        let registry = Registry()
        registry.register(Root.self) { r in
            _ = try r.resolve(Missing.self, name: "deep")
            return Root(left: Left(leaf: Leaf(), token: Token()), right: Right(leaf: Leaf(), token: Token()), leaf: Leaf())
        }
        let error = #expect(throws: RegistryError.self) { try registry.resolve(Root.self) }
        #expect(error == .notRegistered(type: "Missing", name: "deep", registered: ["Root"]))
    }

    @Test("a factory's own error becomes factoryFailed, and a failed singleton is not kept")
    func factoryFailure() throws {
        let registry = Registry()
        let fail = Locked(true)
        let made = Counter()
        registry.register(Engine.self, name: "flaky", scope: .application) { _ in
            if fail.value { throw Boom() }
            return Engine(serial: made.increment())
        }
        let error = #expect(throws: RegistryError.self) { try registry.resolve(Engine.self, name: "flaky") }
        #expect(error == .factoryFailed(type: "Engine", name: "flaky", message: "boom"))
        #expect(error?.description == "the factory for Engine (name: flaky) failed: boom")
        fail.set(false)
        let engine = try registry.resolve(Engine.self, name: "flaky")
        #expect(engine.serial == 1)
        fail.set(true)
        #expect(try registry.resolve(Engine.self, name: "flaky") === engine)
    }

    // MARK: Threads

    @Test("a factory may register while resolving, without deadlock")
    func registerInsideFactory() throws {
        let registry = Registry()
        registry.register(Greeting.self) { r in
            registry.register(Engine.self, scope: .application) { _ in Engine(serial: 9) }
            return Greeting("made", engine: try r.resolve(Engine.self))
        }
        let result = Locked<Int?>(nil)
        let finished = ServiceTestKit.finishes { result.set(try? registry.resolve(Greeting.self).engine?.serial) }
        #expect(finished, "resolve deadlocked")
        #expect(result.value == 9)
    }

    @Test("factories that resolve other services do not deadlock, from many threads at once")
    func nestedResolvesFromManyThreads() throws {
        let registry = Registry()
        registry.register(Leaf.self, scope: .application) { _ in Leaf() }
        registry.register(Token.self, scope: .cached) { _ in Token() }
        registry.register(Left.self, scope: .graph) { r in Left(leaf: try r.resolve(), token: try r.resolve()) }
        registry.register(Right.self, scope: .shared) { r in Right(leaf: try r.resolve(), token: try r.resolve()) }
        registry.register(Root.self, scope: .unique) { r in
            Root(left: try r.resolve(), right: try r.resolve(), leaf: try r.resolve(Leaf.self))
        }
        let threads = 8, perThread = 300
        let leaves = Locked<Set<ObjectIdentifier>>([])
        let failures = Locked<[String]>([])
        let sameGraphShared = Counter()
        let finished = ServiceTestKit.onThreads(threads) { _ in
            var seen = Set<ObjectIdentifier>()
            var keep: [Root] = []
            for _ in 0..<perThread {
                do {
                    let root = try registry.resolve(Root.self)
                    seen.insert(ObjectIdentifier(root.leaf))
                    seen.insert(ObjectIdentifier(root.left.leaf))
                    seen.insert(ObjectIdentifier(root.right.leaf))
                    if root.left.token === root.right.token { sameGraphShared.increment() }
                    keep.append(root)   // keep everything alive, so identifiers stay unique
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            leaves.withLock { $0.formUnion(seen) }
            withExtendedLifetime(keep) {}
        }
        #expect(finished, "resolves from \(threads) threads deadlocked")
        #expect(failures.value.isEmpty)
        #expect(leaves.value.count == 1, "the application-scope Leaf must be one instance")
        #expect(sameGraphShared.value == threads * perThread, "the cached Token must be one instance")
    }

    @Test("racing threads that both build a singleton get the same, first-kept instance")
    func singletonRace() throws {
        let registry = Registry()
        let inside = Counter()
        let bothInside = DispatchSemaphore(value: 0)
        let made = Counter()
        registry.register(Engine.self, scope: .application) { _ in
            // Wait (bounded) until the other thread is inside the factory too:
            // the registry holds no lock while a factory runs.
            if inside.increment() == 2 { bothInside.signal(); bothInside.signal() }
            _ = bothInside.wait(timeout: .now() + 10)
            return Engine(serial: made.increment())
        }
        let results = Locked<[ObjectIdentifier]>([])
        let keep = Locked<[Engine]>([])
        let finished = ServiceTestKit.onThreads(2) { _ in
            if let engine = try? registry.resolve(Engine.self) {
                results.withLock { $0.append(ObjectIdentifier(engine)) }
                keep.withLock { $0.append(engine) }
            }
        }
        #expect(finished)
        #expect(inside.value == 2, "both factories ran concurrently, so no lock was held while one ran")
        #expect(results.value.count == 2)
        #expect(Set(results.value).count == 1, "both callers must get the instance that was kept")
        #expect(try ObjectIdentifier(registry.resolve(Engine.self)) == results.value.first)
    }
}
