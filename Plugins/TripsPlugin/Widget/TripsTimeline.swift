/// One timeline entry: from `date` on, the widget shows `step`, or the
/// no-booking view when `step` is nil.
public struct TimelineEntry: Sendable, Equatable {
    public let date: ZonedTime
    public let step: TripStep?
}

/// The widget's timeline, built once from the bookings (the reload policy
/// is "never": only new data from the app rebuilds it) and then read at any
/// time by `entry(at:)`.
///
/// Following the original there is an entry at each step's start and a
/// final no-booking entry at the last step's end. Bookings may overlap (a
/// second trip bought while the first is under way); then, at any moment,
/// the running step that ends first is shown, being the most imminent, and
/// the others take over as it ends. So an entry is made whenever the step
/// on screen changes: at a step's start, or at an end where another running
/// step takes over; a gap between trips gets a no-booking entry. For a
/// single booking this is exactly one entry per step plus the final one.
///
/// The entries start with the one current when the timeline was built;
/// before its date (a booking bought in the future) nothing is shown.
///
/// Cost: decoding is linear; sorting the steps and the sweep with a heap
/// are O(n log n); `entry(at:)` is a binary search.
public struct TripsTimeline: Sendable {
    public let bookings: [Booking]
    public let skipped: [SkippedBooking]
    public let entries: [TimelineEntry]
    /// When the timeline was built, by the host's clock.
    public let builtAt: Int64

    /// Decodes the document and builds the timeline as of `now`
    /// (milliseconds since 1970, UTC). A document with bookings that have
    /// all ended is `.noBookingAvailable`.
    public static func build(json bytes: [UInt8], now: Int64) -> Result<TripsTimeline, BookingsError> {
        BookingsDecoder.decode(bytes).flatMap { decoded in
            let timeline = TripsTimeline(bookings: decoded.bookings, skipped: decoded.skipped, now: now)
            guard !timeline.entries.isEmpty else {
                let count = decoded.bookings.count
                return .failure(.noBookingAvailable(count == 1 ? "the booking has ended" : "all \(count) bookings have ended"))
            }
            return .success(timeline)
        }
    }

    public init(bookings: [Booking], skipped: [SkippedBooking] = [], now: Int64) {
        self.bookings = bookings
        self.skipped = skipped
        builtAt = now
        entries = Self.sweep(TripSteps.upcoming(bookings, now: now), now: now)
    }

    /// The index of the entry current at `milliseconds`: the last one whose
    /// date has come; nil before the first.
    public func entryIndex(at milliseconds: Int64) -> Int? {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].date.milliseconds <= milliseconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    public func entry(at milliseconds: Int64) -> TimelineEntry? {
        entryIndex(at: milliseconds).map { entries[$0] }
    }

    /// When the entry after the one current at `milliseconds` begins.
    public func nextChange(after milliseconds: Int64) -> Int64? {
        let next = entryIndex(at: milliseconds).map { $0 + 1 } ?? 0
        return next < entries.count ? entries[next].date.milliseconds : nil
    }

    public func booking(id: String) -> Booking? {
        bookings.first { $0.id == id }
    }

    /// Walks the sorted steps' starts and ends in time order, keeping the
    /// running steps in a heap by end, and records each change of the step
    /// on top; then drops the entries already superseded at `now`.
    private static func sweep(_ steps: [TripStep], now: Int64) -> [TimelineEntry] {
        var entries: [TimelineEntry] = []
        // Steps are named by their index in `steps`: a step is some 80 bytes
        // with two strings, and the heap moved and compared whole copies
        // (a sixth of a booking's cost).
        var running = StepHeap(steps)
        var next = 0
        var shown: Int?
        var time = steps.first?.start
        while let current = time {
            while next < steps.count, steps[next].start.milliseconds <= current.milliseconds {
                running.push(next)
                next += 1
            }
            while let top = running.top, steps[top].end.milliseconds <= current.milliseconds { running.pop() }
            let top = running.top
            if top != shown {
                // A step's own start keeps the step's offset; a takeover at
                // another step's end is dated in that end's offset.
                let step = top.map { steps[$0] }
                entries.append(TimelineEntry(date: step?.start.milliseconds == current.milliseconds ? step!.start : current, step: step))
                shown = top
            }
            let nextStart = next < steps.count ? steps[next].start : nil
            switch (nextStart, running.top.map { steps[$0].end }) {
            case let (start?, end?): time = start.milliseconds <= end.milliseconds ? start : end
            case let (start?, nil): time = start
            case let (nil, end?): time = end
            case (nil, nil): time = nil
            }
        }
        guard let firstKept = entries.lastIndex(where: { $0.date.milliseconds <= now }) else { return entries }
        return Array(entries[firstKept...])
    }
}

/// A binary min-heap of running steps, by their index in the sorted steps,
/// ordered by end (then start, booking and leg, so ties never depend on
/// insertion order).
private struct StepHeap {
    private let steps: [TripStep]
    private var items: [Int] = []

    init(_ steps: [TripStep]) { self.steps = steps }

    var top: Int? { items.first }

    private func before(_ i: Int, _ j: Int) -> Bool {
        let a = steps[i], b = steps[j]
        if a.end.milliseconds != b.end.milliseconds { return a.end.milliseconds < b.end.milliseconds }
        if a.start.milliseconds != b.start.milliseconds { return a.start.milliseconds < b.start.milliseconds }
        if a.booking != b.booking { return a.booking < b.booking }
        return a.kind < b.kind
    }

    mutating func push(_ step: Int) {
        items.append(step)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard before(items[child], items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() {
        guard !items.isEmpty else { return }
        items.swapAt(0, items.count - 1)
        items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count, before(items[left], items[smallest]) { smallest = left }
            if right < items.count, before(items[right], items[smallest]) { smallest = right }
            guard smallest != parent else { return }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
