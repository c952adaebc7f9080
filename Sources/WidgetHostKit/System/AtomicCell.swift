import HostShim

/// A value shared between threads without a lock, read and changed
/// atomically with the ordering each call names: `Synchronization.Atomic`'s
/// shape, on a heap word and the C builtins (`host_shim_atomics.h`), so that
/// the host does not load the Synchronization library at start-up.
/// Noncopyable, as `Atomic` is: its owner holds it in place, and a read
/// follows one pointer, with no reference to count (as a class it cost the
/// bus 6% a publish).
@usableFromInline
struct AtomicCell<Value: AtomicWord>: ~Copyable, @unchecked Sendable {
    @usableFromInline let word: UnsafeMutablePointer<UInt64>

    init(_ value: Value) {
        word = .allocate(capacity: 1)
        word.initialize(to: value.word)
    }

    deinit {
        word.deallocate()
    }

    @inlinable
    func load(ordering: AtomicOrdering) -> Value {
        Value(word: wh_atomic_load(word, ordering.rawValue))
    }

    @inlinable
    func store(_ value: Value, ordering: AtomicOrdering) {
        wh_atomic_store(word, value.word, ordering.rawValue)
    }

    @inlinable
    func exchange(_ value: Value, ordering: AtomicOrdering) -> Value {
        Value(word: wh_atomic_exchange(word, value.word, ordering.rawValue))
    }

    /// Stores `desired` if the cell holds `expected`; `original` is what it held.
    @inlinable
    func compareExchange(expected: Value, desired: Value, ordering: AtomicOrdering) -> (exchanged: Bool, original: Value) {
        var seen = expected.word
        let exchanged = wh_atomic_compare_exchange(word, &seen, desired.word, ordering.rawValue)
        return (exchanged, Value(word: seen))
    }
}

extension AtomicCell where Value: FixedWidthInteger {
    /// Adds `delta`, wrapping on overflow.
    @inlinable @discardableResult
    func add(_ delta: Value, ordering: AtomicOrdering) -> (oldValue: Value, newValue: Value) {
        let old = Value(word: wh_atomic_fetch_add(word, delta.word, ordering.rawValue))
        return (old, old &+ delta)
    }

    /// Subtracts `delta`, wrapping on overflow.
    @inlinable @discardableResult
    func subtract(_ delta: Value, ordering: AtomicOrdering) -> (oldValue: Value, newValue: Value) {
        let old = Value(word: wh_atomic_fetch_add(word, (0 &- delta).word, ordering.rawValue))
        return (old, old &- delta)
    }
}

/// The orderings a call on an `AtomicCell` may name, with `Atomic`'s names.
@usableFromInline
struct AtomicOrdering: Sendable {
    @usableFromInline let rawValue: Int32

    @inlinable init(rawValue: Int32) { self.rawValue = rawValue }

    // The __ATOMIC_* constants of C.
    @inlinable static var relaxed: Self { Self(rawValue: 0) }
    @inlinable static var acquiring: Self { Self(rawValue: 2) }
    @inlinable static var releasing: Self { Self(rawValue: 3) }
    @inlinable static var acquiringAndReleasing: Self { Self(rawValue: 4) }
    @inlinable static var sequentiallyConsistent: Self { Self(rawValue: 5) }
}

/// A value an `AtomicCell` holds: one that fits a 64-bit word.
@usableFromInline
protocol AtomicWord {
    init(word: UInt64)
    var word: UInt64 { get }
}

extension UInt64: AtomicWord {
    @inlinable init(word: UInt64) { self = word }
    @inlinable var word: UInt64 { self }
}

extension Int64: AtomicWord {
    @inlinable init(word: UInt64) { self.init(bitPattern: word) }
    @inlinable var word: UInt64 { UInt64(bitPattern: self) }
}

extension UInt: AtomicWord {
    @inlinable init(word: UInt64) { self.init(truncatingIfNeeded: word) }
    @inlinable var word: UInt64 { UInt64(self) }
}

extension Int: AtomicWord {
    @inlinable init(word: UInt64) { self.init(truncatingIfNeeded: Int64(bitPattern: word)) }
    @inlinable var word: UInt64 { UInt64(bitPattern: Int64(self)) }
}

extension Bool: AtomicWord {
    @inlinable init(word: UInt64) { self = word != 0 }
    @inlinable var word: UInt64 { self ? 1 : 0 }
}
