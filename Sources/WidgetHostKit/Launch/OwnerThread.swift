import Glibc

/// The thread that drives a session, which alone touches its table of
/// widgets, and the work other threads hand it. A contract asked by a widget
/// rendering off that thread (an isolated dashboard card, on a queue of its
/// own) must find and start its provider on the session's thread.
///
/// `perform` runs its body at once on the owner, and also when the session
/// hands no work over (`handsOver` off: one thread at a time drives it, as
/// `serve` does under its lock). Otherwise the body is queued, the owner is
/// woken, and the caller waits for it to run the queue, at most `timeout`
/// seconds. The owner runs the queue on every wake-up of its loop
/// (`runPending`), and while it waits for a card's queue (`wait(on:until:)`),
/// so a render started before a widget opened full screen, and still under
/// way, is answered on the owner too rather than on the card's thread.
final class OwnerThread: Sendable {
    private let owner = pthread_self()
    private let pending = Locked<[@Sendable () -> Void]>([])
    /// Wakes the owner where it waits for a card's queue, if it does.
    private let waiting = Locked(Waiting())
    /// On for a session whose widgets run off its thread (the dashboard's isolated cards).
    let handsOver = Locked(false)
    static let timeout = 10.0

    /// A struct, not a bare optional closure: a closure held bare in a
    /// generic `Locked` is wrapped in one more thunk at every access (issue 25).
    private struct Waiting {
        var wake: (@Sendable () -> Void)?
    }

    var isCurrent: Bool { pthread_equal(pthread_self(), owner) != 0 }

    /// `body`'s result, computed on the owner's thread (or here, when that is safe); nil when the owner did not get to it in time.
    func perform<T: Sendable>(signal: () -> Void, _ body: @escaping @Sendable () -> T) -> T? {
        guard !isCurrent, handsOver.withLock({ $0 }) else { return body() }
        let result = Locked<T?>(nil)
        let done = Semaphore()
        pending.withLock {
            $0.append {
                result.withLock { $0 = body() }
                done.signal()
            }
        }
        waiting.withLock { $0.wake }?()
        signal()
        guard done.wait(seconds: Self.timeout) else { return nil }
        return result.withLock { $0 }
    }

    /// On the owner: runs what other threads handed it.
    func runPending() {
        while true {
            let work = pending.withLock { work in
                defer { work = [] }
                return work
            }
            if work.isEmpty { return }
            work.forEach { $0() }
        }
    }

    /// On the owner, with `condition` locked: waits on it until `ready`
    /// holds, running meanwhile what other threads hand over (the work it
    /// waits for may be waiting for that).
    func wait(on condition: Condition, until ready: () -> Bool) {
        let wake: @Sendable () -> Void = {
            condition.lock()
            condition.broadcast()
            condition.unlock()
        }
        // Nested waits (a handed-over contract asks another card's queue) put back the outer one's.
        let outer = waiting.withLock { waiting in
            defer { waiting.wake = wake }
            return waiting.wake
        }
        defer { waiting.withLock { $0.wake = outer } }
        while !ready() {
            if pending.withLock({ !$0.isEmpty }) {
                condition.unlock()
                runPending()
                condition.lock()
                continue
            }
            condition.wait()
        }
    }
}
