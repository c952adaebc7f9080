import Glibc

/// A serial queue whose jobs run one at a time, in order, on a thread that
/// exists only while there are jobs: it is started for the first job and
/// ends when none is left, so an idle worker costs no thread and no
/// wake-up. Not Dispatch: on Linux, Dispatch's worker pool is watched by a
/// timer that wakes the process every second once a worker has run, and an
/// idle dashboard must not wake at all.
final class SerialWorker: @unchecked Sendable {
    private let name: String
    private let condition = Condition()
    // Guarded by `condition`:
    private var jobs: [@Sendable () -> Void] = []
    /// A job is running (on the worker's thread, or a `sync` caller's).
    private var busy = false

    init(name: String) {
        self.name = name
    }

    /// Runs `job` after those queued before it, on the worker's thread.
    func async(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        let start = !busy
        busy = true
        condition.unlock()
        if start { startThread() }
    }

    /// Runs `body` on this thread once every job queued before it is done,
    /// with no job of the worker's running meanwhile, as a serial queue's
    /// `sync` does. On `owner`'s thread, what other threads hand it is run
    /// while it waits: a job under way may be waiting for that.
    func sync<T>(serving owner: OwnerThread? = nil, _ body: () throws(WidgetCallError) -> T) throws(WidgetCallError) -> T {
        condition.lock()
        if let owner, owner.isCurrent {
            owner.wait(on: condition) { !busy }
        } else {
            while busy { condition.wait() }
        }
        busy = true
        condition.unlock()
        defer {
            condition.lock()
            busy = !jobs.isEmpty
            let start = busy
            condition.broadcast()
            condition.unlock()
            if start { startThread() }
        }
        return try body()
    }

    private func startThread() {
        guard Threads.start(name: String(name.prefix(15)), { [self] in drain() }) else {
            // No thread to be had: the jobs run here rather than never.
            drain()
            return
        }
    }

    /// Runs the jobs until none is left, then lets a waiting `sync` in.
    private func drain() {
        while true {
            condition.lock()
            guard !jobs.isEmpty else {
                busy = false
                condition.broadcast()
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}
