import Glibc

/// A value guarded by a pthread mutex, with `Mutex`'s `withLock` shape.
///
/// Why not `Synchronization.Mutex`: on this toolchain ThreadSanitizer does
/// not see its hand-over through the kernel and reports races on every
/// contended use, which would bury real races in CI's TSan run. TSan knows
/// pthread mutexes. Shared by the host and every plugin (compiled into each
/// plugin's own module).
public final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
