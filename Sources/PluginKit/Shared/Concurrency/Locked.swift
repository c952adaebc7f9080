import Glibc

/// A value guarded by a pthread mutex, with `Mutex`'s `withLock` shape.
///
/// Why not `Synchronization.Mutex`: on this toolchain ThreadSanitizer does
/// not see its hand-over through the kernel and reports races on every
/// contended use, which would bury real races in CI's TSan run. TSan knows
/// pthread mutexes. Shared by the host and every plugin (compiled into each
/// plugin's own module).
///
/// The value lives behind a pointer, not in a stored `var`: the mutex already
/// makes access exclusive, and a class's `var` would pay a dynamic
/// exclusivity check on every access. `withLock` is inlinable so that it is
/// specialised for its caller, the bus and the registry on their hot paths.
public final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let value: UnsafeMutablePointer<Value>
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init(_ value: Value) {
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    @inlinable
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
