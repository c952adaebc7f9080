import Glibc
import Testing
@testable import WidgetHostKit

/// The host's own semaphore (`System/Semaphore`), which stands in for
/// Dispatch's: signals are counted, a wait takes one, and a timed wait ends.
@Suite("Semaphore")
struct SemaphoreTests {
    @Test("a signal given before the wait is kept, and each signal lets exactly one wait through")
    func counts() {
        let semaphore = Semaphore()
        semaphore.signal()
        semaphore.signal()
        #expect(semaphore.wait(seconds: 0))
        #expect(semaphore.wait(seconds: 0))
        #expect(!semaphore.wait(seconds: 0))
        #expect(Semaphore(value: 1).wait(seconds: 0))
    }

    @Test("a wait with no signal ends when its time is up, not before", arguments: [0.05, 0.2])
    func timesOut(_ seconds: Double) {
        let semaphore = Semaphore()
        let started = Clock.now
        #expect(!semaphore.wait(seconds: seconds))
        #expect(Clock.now - started >= seconds)
    }

    @Test("a negative or huge time is not an error: none waits not at all, a year waits for the signal")
    func oddTimes() {
        let semaphore = Semaphore()
        #expect(!semaphore.wait(seconds: -1))
        semaphore.signal()
        #expect(semaphore.wait(seconds: 3.2e10))
    }

    @Test("a signal from another thread wakes a waiter")
    func acrossThreads() {
        let semaphore = Semaphore(), done = Semaphore()
        let woke = Locked(false)
        Threads.start(name: "semaphore-test") {
            woke.withLock { $0 = semaphore.wait(seconds: 30) }
            done.signal()
        }
        usleep(20_000)
        semaphore.signal()
        #expect(done.wait(seconds: 30))
        #expect(woke.withLock { $0 })
    }
}

/// The host's atomic cell (`System/AtomicCell`), which stands in for
/// `Synchronization.Atomic`: each operation's result, its wrapping, and its
/// values' round trip through a 64-bit word.
@Suite("Atomic cell")
struct AtomicCellTests {
    @Test("a compare-exchange stores only over what it expected, and says what was there")
    func compareExchange() {
        let cell = AtomicCell<UInt64>(5)
        #expect(cell.compareExchange(expected: 4, desired: 9, ordering: .acquiringAndReleasing) == (false, 5))
        #expect(cell.load(ordering: .acquiring) == 5)
        #expect(cell.compareExchange(expected: 5, desired: 9, ordering: .sequentiallyConsistent) == (true, 5))
        #expect(cell.load(ordering: .relaxed) == 9)
        #expect(cell.exchange(1, ordering: .releasing) == 9)
        #expect(cell.load(ordering: .sequentiallyConsistent) == 1)
    }

    @Test("adding and subtracting give the old and the new value, and wrap")
    func arithmetic() {
        let count = AtomicCell<Int>(0)
        #expect(count.add(1, ordering: .relaxed) == (0, 1))
        #expect(count.subtract(3, ordering: .releasing) == (1, -2))
        #expect(count.load(ordering: .relaxed) == -2)
        let top = AtomicCell<UInt>(.max)
        #expect(top.add(2, ordering: .sequentiallyConsistent).newValue == 1)
        let signed = AtomicCell<Int64>(.min)
        #expect(signed.subtract(1, ordering: .relaxed).newValue == .max)
    }

    @Test("every kind of value reads back as stored", arguments: [Int.min, -1, 0, 1, Int.max])
    func roundTrip(_ value: Int) {
        let cell = AtomicCell<Int>(value)
        #expect(cell.load(ordering: .relaxed) == value)
        cell.store(~value, ordering: .releasing)
        #expect(cell.load(ordering: .acquiring) == ~value)
        let flag = AtomicCell<Bool>(value < 0)
        #expect(flag.exchange(value >= 0, ordering: .relaxed) == (value < 0))
        #expect(flag.load(ordering: .relaxed) == (value >= 0))
    }

    @Test("counts added from many threads at once are none of them lost")
    func concurrentAdds() {
        let count = AtomicCell<Int>(0), done = Semaphore()
        for _ in 0..<4 {
            Threads.start(name: "atomic-test") {
                for _ in 0..<10_000 { count.add(1, ordering: .relaxed) }
                done.signal()
            }
        }
        for _ in 0..<4 { #expect(done.wait(seconds: 60)) }
        #expect(count.load(ordering: .acquiring) == 40_000)
    }
}
