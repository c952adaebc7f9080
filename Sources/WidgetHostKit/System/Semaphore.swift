/// A counting semaphore with a timed wait, on a `Condition`. Not
/// Dispatch's: its Swift overlay is one more Swift library for every process
/// of the host to load, bind and scan for conformances at start-up (0.47 M
/// instructions of a `--version`).
final class Semaphore: @unchecked Sendable {
    private let condition = Condition()
    /// Guarded by `condition`.
    private var count: Int

    init(value: Int = 0) {
        count = value
    }

    func signal() {
        condition.lock()
        count += 1
        condition.signal()
        condition.unlock()
    }

    /// Waits up to `seconds` for a signal and takes it; false when the time
    /// ran out first.
    func wait(seconds: Double) -> Bool {
        let deadline = Condition.deadline(after: seconds)
        condition.lock()
        defer { condition.unlock() }
        while count == 0 {
            if !condition.wait(until: deadline) && count == 0 { return false }
        }
        count -= 1
        return true
    }
}
