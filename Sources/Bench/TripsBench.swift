import Glibc
import TripsPlugin

/// 9. Trips at scale: decoding bookings, building the timeline and rendering
/// the current entry, at growing sizes. Cost per booking should grow no
/// faster than log n (the sort); the ratio column compares it with the
/// smallest size.
func tripsBench(_ effort: Effort) -> [Measurement] {
    let counts = effort.quick ? [100, 1000] : [1000, 10_000, 100_000]
    let start: Int64 = 1_780_000_000_000
    var rows: [Measurement] = []
    var smallest: (count: Int, perBooking: Double)?
    for count in counts {
        let bytes = SyntheticBookings.json(count: count, start: start, seed: 1)
        let now = start + Int64(count / 2) * 3_600_000
        let samples = count >= 100_000 ? 3 : effort.samples
        var rendered = 0
        let total = Measure.median(samples: samples) {
            let begin = Measure.nanoseconds()
            let timeline = TripsTimeline.build(json: bytes, now: now)
            rendered = TripViews.current(timeline, now: now).screen.utf8.count
            return Double(Measure.nanoseconds() - begin)
        }
        let perBooking = total / Double(count)
        let base = smallest ?? (count, perBooking)
        smallest = base
        var row = Measurement(group: "trips", name: "adapt + render \(count) bookings", value: total / 1e6, unit: "ms",
                              note: "\(perBooking.figure) ns per booking; screen \(rendered) bytes")
        if base.count != count {
            // n log n allows the per-booking cost to grow by log(n)/log(base).
            let allowed = log2(Double(count)) / log2(Double(base.count))
            row = Measurement(group: "trips", name: "adapt + render \(count) bookings, per booking", value: perBooking, unit: "ns",
                              baseline: ("per booking at \(base.count)", base.perBooking), goal: allowed,
                              note: "\((total / 1e6).figure) ms in all")
        }
        rows.append(row)
    }
    return rows
}
