import Glibc

/// Timing with the monotonic clock, reported as the median of repeated runs
/// so that one noisy run cannot move a figure.
enum Measure {
    static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Median nanoseconds per iteration of `body`, run `iterations` times per
    /// sample, over `samples` samples.
    static func perIteration(iterations: Int, samples: Int, _ body: () -> Void) -> Double {
        body()   // warm up caches and lazy initialisation
        var results: [Double] = []
        for _ in 0..<samples {
            let start = nanoseconds()
            for _ in 0..<iterations { body() }
            results.append(Double(nanoseconds() - start) / Double(iterations))
        }
        return median(results)
    }

    /// The ratio of paired samples (each `values[i]` taken right after
    /// `floors[i]`, so both saw the same load): the median and the spread.
    static func pairedRatio(_ values: [Double], _ floors: [Double]) -> (median: Double, low: Double, high: Double) {
        let ratios = zip(values, floors).map { $0 / $1 }
        return (median(ratios), ratios.min() ?? .nan, ratios.max() ?? .nan)
    }

    /// Nanoseconds per iteration of each body, `samples` times, taken in
    /// turn (one sample of each, then the next round), so that a change of
    /// load falls on every body alike: result[i][k] is body i's sample k.
    static func interleaved(iterations: Int, samples: Int, _ bodies: [() -> Void]) -> [[Double]] {
        bodies.forEach { $0() }   // warm up
        var results = [[Double]](repeating: [], count: bodies.count)
        for _ in 0..<samples {
            for (index, body) in bodies.enumerated() {
                let start = nanoseconds()
                for _ in 0..<iterations { body() }
                results[index].append(Double(nanoseconds() - start) / Double(iterations))
            }
        }
        return results
    }

    /// Median of `samples` runs of `body`, which returns its own nanoseconds.
    static func median(samples: Int, _ body: () throws -> Double) rethrows -> Double {
        var results: [Double] = []
        for _ in 0..<samples { results.append(try body()) }
        return median(results)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}

/// One line of the report: a figure, and what it is compared with.
struct Measurement {
    let group: String
    let name: String
    let value: Double
    let unit: String
    /// The floor or peer measured in the same run, if any.
    var baseline: (name: String, value: Double)?
    /// The goal as a ratio of value to baseline (value <= goal * baseline), if any.
    var goal: Double?
    var note: String?
    /// For wall-clock rows: the median and range of the ratios of paired,
    /// interleaved samples, which a loaded machine moves less than the
    /// ratio of two medians.
    var paired: (median: Double, low: Double, high: Double)?

    var ratio: Double? { paired?.median ?? baseline.map { value / $0.value } }
    var met: Bool? { goal.flatMap { goal in ratio.map { $0 <= goal } } }
}

extension Double {
    /// A figure with a sensible number of digits.
    var figure: String {
        if isNaN { return "-" }
        if self >= 100 { return String(Int(self.rounded())) }
        if self >= 10 { return String(format1: self) }
        return String(format2: self)
    }
}

extension String {
    init(format1 value: Double) { self = String((value * 10).rounded() / 10) }
    init(format2 value: Double) { self = String((value * 100).rounded() / 100) }
}
