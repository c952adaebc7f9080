import Glibc

/// The time as plugins see it. With an override (`--now`), time starts at
/// the given instant and then advances with the real clock, so a timeline
/// still moves forward in an interactive session.
public final class HostClock: Sendable {
    private let offsetMilliseconds: Int64

    public init(startingAt milliseconds: Int64? = nil) {
        offsetMilliseconds = milliseconds.map { $0 - Self.systemMilliseconds() } ?? 0
    }

    public var nowMilliseconds: Int64 { Self.systemMilliseconds() + offsetMilliseconds }

    static func systemMilliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}
