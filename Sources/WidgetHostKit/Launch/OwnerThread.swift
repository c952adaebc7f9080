import Dispatch
import Glibc

/// The thread that drives a session, which alone touches its table of
/// widgets, and the work other threads hand it. A contract asked by a widget
/// rendering off that thread (an isolated dashboard card, on a queue of its
/// own) must find and start its provider on the session's thread.
///
/// `perform` runs its body at once on the owner, and also when the owner
/// hands no calls off (`calls` off: it is then parked waiting for this very
/// call, so nothing races it). Otherwise the body is queued, the owner is
/// woken (`signal`), and the caller waits for it to run the queue
/// (`runPending`, which the dashboard's loop does on every wake-up), at most
/// `timeout` seconds.
final class OwnerThread: Sendable {
    private let owner = pthread_self()
    private let pending = Locked<[@Sendable () -> Void]>([])
    /// While these are on, the owner waits on no widget: work is handed to it.
    let calls = Locked<OffThreadCalls?>(nil)
    static let timeout = 10.0

    var isCurrent: Bool { pthread_equal(pthread_self(), owner) != 0 }

    /// `body`'s result, computed on the owner's thread (or here, when that is safe); nil when the owner did not get to it in time.
    func perform<T: Sendable>(signal: () -> Void, _ body: @escaping @Sendable () -> T) -> T? {
        guard !isCurrent, calls.withLock({ $0?.enabled }) == true else { return body() }
        let result = Locked<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        pending.withLock {
            $0.append {
                result.withLock { $0 = body() }
                done.signal()
            }
        }
        signal()
        guard done.wait(timeout: .now() + Self.timeout) == .success else { return nil }
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
}
