import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

private typealias Locked = ServiceTestKit.Locked

/// Issue 25: the host's memory grew with every store write a widget
/// re-rendered for. Each wake-up (the store change reaching the plugin's
/// mailbox, then the plugin's own render requests) re-wrapped the wake
/// handler in one more reabstraction thunk, kept for good: two allocations a
/// wake, and a handler entered one call deeper each time. The depth is what
/// this test sees, on one thread and without timing or a memory threshold.
@Suite("Plugin wake-ups")
struct PluginWakeTests {
    @Test("store changes and render requests, 200 of each kind, enter the wake handler at one stack depth per kind: nothing piles up per wake")
    func wakeHandlerStaysAsItWas() throws {
        let runtime = HostRuntime(storeDirectory: try TestSupport.makeTemporaryDirectory("plugin-wake"))
        let manifest = try ServiceTestKit.manifest(id: "org.example.wake", screens: ["main"], requiredServices: ["bus"],
                                                   subscribes: ["store.changed"], storeGroups: [("trips", .read)])
        let context = PluginContext(manifest: manifest, runtime: runtime)
        #expect(context.subscribe(pattern: "store.changed") > 0)
        // Where the handler's frame is, by the address of one of its locals, for each kind of wake.
        let origin = Locked("")
        let depths = Locked<[String: Set<UInt>]>([:])
        context.onWake {
            var marker = 0
            let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
            let kind = origin.value
            _ = depths.withLock { $0[kind, default: []].insert(address) }
        }
        let store = runtime.resolve(SharedStore.self)
        let host = context.host
        for write in 0..<200 {
            origin.withLock { $0 = "store change" }
            try store.put("trips.bookings", Array("{\"write\": \(write)}".utf8))   // delivered on this thread: the bus was idle
            origin.withLock { $0 = "render request" }
            host.pointee.request_render!(host)
        }
        #expect(runtime.resolve(Bus.self).waitUntilIdle())
        let seen = depths.value
        #expect(seen.keys.sorted() == ["render request", "store change"])
        #expect(seen["store change"]?.count == 1, "the handler went deeper with each store change: \(seen["store change"]?.count ?? 0) depths")
        #expect(seen["render request"]?.count == 1, "the handler went deeper with each render request: \(seen["render request"]?.count ?? 0) depths")
        #expect(context.nextEvent() != nil)   // the changes did reach the mailbox
    }

    @Test("a plugin that asks for a new wake time on every change keeps a bounded list, and the earliest still wakes it")
    func wakeTimesBounded() throws {
        let runtime = HostRuntime(storeDirectory: try TestSupport.makeTemporaryDirectory("plugin-wake-times"))
        let manifest = try ServiceTestKit.manifest(id: "org.example.wake-times", screens: ["main"], requiredServices: ["clock"])
        let context = PluginContext(manifest: manifest, runtime: runtime)
        let woken = Locked(0)
        context.onWake { woken.withLock { $0 += 1 } }
        let now = context.clock.nowMilliseconds
        for ask in 0..<1_000 { context.wake(atMilliseconds: now + 86_400_000 + Int64(ask)) }   // as Trips, a day ahead, later each time
        #expect(context.pendingWakeTimes == PluginContext.maxWakeTimes)
        #expect(woken.value == 0)
        context.wake(atMilliseconds: now)   // due at once: earlier than all the others
        for _ in 0..<500 where woken.value == 0 { usleep(20_000) }
        #expect(woken.value == 1)
        #expect(context.pendingWakeTimes == PluginContext.maxWakeTimes - 1)   // the latest made room for it; the rest still wait
    }
}
