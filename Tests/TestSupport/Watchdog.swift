import Dispatch
import Foundation
import Synchronization
import Testing

/// A test body that must end, without a timed test: it fails only when the
/// body stops making progress.
enum Watchdog {
    /// Runs `body` on a thread of its own and fails if it stops making
    /// progress: `seconds` pass without a call of the `tick` it is given (or
    /// without returning). A layout that never ends fails the test instead
    /// of hanging the suite, while a long property run on a machine busy
    /// with the rest of the suite is only slow, not stuck.
    static func ends(within seconds: Double = 120, _ what: String, _ body: @escaping @Sendable (_ tick: @Sendable () -> Void) -> Void) {
        let done = DispatchSemaphore(value: 0)
        let ticks = Ticks()
        // A thread of its own: on the shared pool, a body could wait behind
        // other tests' blocked work and look stuck before it began.
        Thread {
            body { ticks.count.add(1, ordering: .relaxed) }
            done.signal()
        }.start()
        var seen = 0
        while done.wait(timeout: .now() + seconds) == .timedOut {
            let now = ticks.count.load(ordering: .relaxed)
            if now == seen {
                Issue.record("\(what) did not end: no progress in \(Int(seconds)) s")
                return
            }
            seen = now
        }
    }

    final class Ticks: Sendable {
        let count = Atomic<Int>(0)
    }
}
