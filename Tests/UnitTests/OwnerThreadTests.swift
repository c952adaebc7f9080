import Dispatch
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// A contract asked by a card rendering off the dashboard's thread finds its
/// provider on the session's own thread: the work is handed over, and the
/// owner runs it on a wake-up of its loop or while it waits for the card's
/// queue, also once a widget has opened full screen.
@Suite("OwnerThread")
struct OwnerThreadTests {
    /// `body` on a new thread; the result once it ends.
    private static func elsewhere<T: Sendable>(_ body: @escaping @Sendable () -> T) -> () -> T? {
        let result = Locked<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Threads.start(name: "owner-test") {
            result.withLock { $0 = body() }
            done.signal()
        }
        return {
            _ = done.wait(timeout: .now() + 60)
            return result.withLock { $0 }
        }
    }

    @Test("while the session hands work over, work from another thread runs on the owner when it runs what is pending, and the caller gets its result")
    func handedOver() {
        let owner = OwnerThread()
        owner.handsOver.withLock { $0 = true }
        let signalled = Locked(false)
        let result = Self.elsewhere { owner.perform(signal: { signalled.withLock { $0 = true } }) { owner.isCurrent } }
        // Waits on the condition (the owner was woken), never on time.
        let deadline = Clock.now + 60
        while !signalled.withLock({ $0 }) && Clock.now < deadline { usleep(1000) }
        #expect(signalled.withLock { $0 }, "the owner was never woken")
        owner.runPending()
        #expect(result() == .some(.some(true)), "the work did not run on the owner's thread")
    }

    @Test("a session that hands nothing over (one thread at a time drives it, as serve's lock does) runs the work at once where it is asked")
    func inPlace() {
        let owner = OwnerThread()
        let result = Self.elsewhere { owner.perform(signal: {}) { owner.isCurrent } }
        #expect(result() == .some(.some(false)))
        // And on the owner itself, always at once.
        owner.handsOver.withLock { $0 = true }
        #expect(owner.perform(signal: {}) { owner.isCurrent } == true)
    }

    @Test("a job under way on a card's queue that hands the owner a contract while the owner waits for that queue: the owner runs it, on its thread")
    func servedWhileWaiting() throws {
        let owner = OwnerThread()
        owner.handsOver.withLock { $0 = true }
        let worker = SerialWorker(name: "owner-test")
        let answeredOnOwner = Locked<Bool?>(nil)
        worker.async { answeredOnOwner.withLock { $0 = owner.perform(signal: {}) { owner.isCurrent } } }
        // Waits for that job; without running the handed work meanwhile, it would wait for the hand-over's timeout and get nil.
        try worker.sync(serving: owner) {}
        #expect(answeredOnOwner.withLock { $0 } == .some(true), "the contract was not answered on the owner's thread")
    }

    /// A widget whose render asks, as a contract does, for work on the session's thread, once `gate` opens.
    private final class ContractAsker: WidgetInstance, @unchecked Sendable {
        let owner: OwnerThread
        let gate = DispatchSemaphore(value: 0)
        let answeredOnOwner = Locked<[Bool?]>([])
        init(owner: OwnerThread) { self.owner = owner }

        func render(screen: String, params: JSONValue) throws(WidgetCallError) -> [UInt8] {
            _ = gate.wait(timeout: .now() + 60)
            let onOwner = owner.perform(signal: {}) { [owner] in owner.isCurrent }
            answeredOnOwner.withLock { $0.append(onOwner) }
            return Array(#"{"kind": "text", "text": "card"}"#.utf8)
        }
        func handle(action: String, value: String?) throws(WidgetCallError) {}
        func query(_ id: String) throws(WidgetCallError) -> [UInt8] { Array("{}".utf8) }
        func pump() -> Int { 0 }
        func onWake(_ handler: @escaping @Sendable () -> Void) {}
    }

    @Test("a card's render under way when a widget opens full screen (calls no longer handed off) still has its contract answered on the owner's thread")
    func renderInFlightWhenFullScreenOpens() throws {
        let owner = OwnerThread()
        owner.handsOver.withLock { $0 = true }
        let calls = OffThreadCalls()
        calls.enabled = true
        let widget = ContractAsker(owner: owner)
        let card = OffThreadInstance(name: "asker", calls: calls, owner: owner) { widget }
        // The grid asks for the card: the render starts on the card's queue.
        #expect(throws: WidgetCallError.self) { _ = try card.render(screen: "main", params: [:]) }
        // A widget opens full screen; then the card's render asks its contract.
        calls.enabled = false
        widget.gate.signal()
        // The full-screen view asks the same widget something: the owner waits for the render under way.
        _ = try card.query("status")
        #expect(widget.answeredOnOwner.withLock { $0 } == [true], "answered elsewhere, or not in time: \(widget.answeredOnOwner.withLock { $0 })")
    }
}
