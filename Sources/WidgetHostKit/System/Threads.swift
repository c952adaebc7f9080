import Glibc
import HostShim

/// Threads and a condition variable on pthreads directly: Foundation's
/// `Thread` and `NSCondition` would load Foundation (and its relocations)
/// into every run of the host, `list` and `--version` included.
enum Threads {
    /// Runs `body` on a new detached thread named `name` (at most 15 bytes
    /// show in `ps` and debuggers). False if the thread could not be made.
    @discardableResult
    static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Body(name: name, run: body))
        var thread = pthread_t()
        let made = pthread_create(&thread, nil, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            wh_shim_name_thread(body.name)
            body.run()
            return nil
        }, box.toOpaque())
        guard made == 0 else {
            box.release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    private final class Body {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }
}

/// A mutex with a condition to wait on, as `NSCondition`: `lock`, `unlock`,
/// `wait` (with the lock held, for ever or until a monotonic deadline),
/// `signal` and `broadcast`.
final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        // Timed by the monotonic clock: a change of the wall clock neither
        // ends a wait early nor makes it last longer.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    func wait() { pthread_cond_wait(condition, mutex) }
    func signal() { pthread_cond_signal(condition) }
    func broadcast() { pthread_cond_broadcast(condition) }

    /// Waits (with the lock held) until signalled or `deadline` is past;
    /// false when it is past.
    func wait(until deadline: timespec) -> Bool {
        var deadline = deadline
        return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
    }

    /// The monotonic time `seconds` from now (none if negative, at most about 30 years).
    static func deadline(after seconds: Double) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanoseconds = now.tv_nsec + Int(min(max(seconds, 0), 1e9) * 1e9)
        return timespec(tv_sec: now.tv_sec + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
    }
}
