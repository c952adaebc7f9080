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
