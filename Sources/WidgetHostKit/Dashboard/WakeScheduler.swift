import Glibc

/// The host's one timer: every widget's future render (a timeline's next
/// entry, a refresh that falls due: `wake_at` of the clock service) waits
/// here, merged into a single wait on one thread for the earliest. With
/// nothing due the thread blocks in poll() with no timeout, so an idle host
/// does not wake at all; a new earlier time interrupts the wait through a
/// pipe. One per process (an isolated child has its own).
final class WakeScheduler: @unchecked Sendable {
    static let shared = WakeScheduler()

    private struct Timer {
        let due: Int64
        let key: ObjectIdentifier?
        let fire: @Sendable () -> Void
    }

    private let timers = Locked<[Timer]>([])
    private let poke = Wakeup()
    private let started = Locked(false)

    /// Calls `fire` (on the scheduler's thread) `milliseconds` from now.
    func after(milliseconds: Int64, _ fire: @escaping @Sendable () -> Void) {
        schedule(Timer(due: Self.monotonic() + max(milliseconds, 0), key: nil, fire: fire))
    }

    /// As `after`, replacing the timer `owner` set before, if it has not
    /// fired: an owner holds at most one timer here however often it asks.
    func after(milliseconds: Int64, replacingFor owner: AnyObject, _ fire: @escaping @Sendable () -> Void) {
        schedule(Timer(due: Self.monotonic() + max(milliseconds, 0), key: ObjectIdentifier(owner), fire: fire))
    }

    private func schedule(_ timer: Timer) {
        let earliest = timers.withLock { timers -> Bool in
            if let key = timer.key { timers.removeAll { $0.key == key } }
            let earliest = timers.allSatisfy { $0.due > timer.due }
            timers.append(timer)
            return earliest
        }
        let start = started.withLock { started -> Bool in
            defer { started = true }
            return !started
        }
        if start {
            Threads.start(name: "wh-scheduler") { [self] in run() }
        } else if earliest {
            poke.signal()
        }
    }

    /// How many timers wait: for tests and the bench.
    var pending: Int { timers.withLock { $0.count } }

    private func run() {
        while true {
            let now = Self.monotonic()
            let due = timers.withLock { timers -> [Timer] in
                let due = timers.filter { $0.due <= now }
                timers.removeAll { $0.due <= now }
                return due
            }
            due.forEach { $0.fire() }
            let next = timers.withLock { $0.map(\.due).min() }
            var fd = pollfd(fd: poke.readEnd, events: Int16(POLLIN), revents: 0)
            _ = poll(&fd, 1, next.map { Int32(clamping: max($0 - Self.monotonic(), 0)) } ?? -1)
            poke.drain()
        }
    }

    static func monotonic() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}
