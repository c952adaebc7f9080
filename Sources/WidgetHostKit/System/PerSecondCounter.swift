/// Counts things in one-second windows, for limits such as "at most 1000
/// bus events a second": the count restarts when a second has passed
/// since its window opened.
struct PerSecondCounter {
    private var windowStart = -Double.infinity
    private var count = 0

    /// Counts `more` (one by default) at `now` (monotonic seconds); the
    /// count in the window so far.
    mutating func add(_ more: Int = 1, at now: Double) -> Int {
        if now - windowStart >= 1 {
            windowStart = now
            count = 0
        }
        count += more
        return count
    }
}
