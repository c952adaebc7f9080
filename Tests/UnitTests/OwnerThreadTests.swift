import Dispatch
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// A contract asked by a card rendering off the dashboard's thread finds its
/// provider on the session's own thread: the work is handed over while the
/// owner hands calls off, and done in place while it waits on that call.
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

    @Test("while calls are handed off, work from another thread runs on the owner when it runs what is pending, and the caller gets its result")
    func handedOver() {
        let owner = OwnerThread()
        let calls = OffThreadCalls()
        calls.enabled = true
        owner.calls.withLock { $0 = calls }
        let signalled = Locked(false)
        let result = Self.elsewhere { owner.perform(signal: { signalled.withLock { $0 = true } }) { owner.isCurrent } }
        // Waits on the condition (the owner was woken), never on time.
        let deadline = Clock.now + 60
        while !signalled.withLock({ $0 }) && Clock.now < deadline { usleep(1000) }
        #expect(signalled.withLock { $0 }, "the owner was never woken")
        owner.runPending()
        #expect(result() == .some(.some(true)), "the work did not run on the owner's thread")
    }

    @Test("with calls not handed off (the owner waits on this very call), the work runs at once on the caller's thread")
    func inPlace() {
        let owner = OwnerThread()
        let calls = OffThreadCalls()
        owner.calls.withLock { $0 = calls }
        let result = Self.elsewhere { owner.perform(signal: {}) { owner.isCurrent } }
        #expect(result() == .some(.some(false)))
        // And on the owner itself, always at once.
        calls.enabled = true
        #expect(owner.perform(signal: {}) { owner.isCurrent } == true)
    }
}
