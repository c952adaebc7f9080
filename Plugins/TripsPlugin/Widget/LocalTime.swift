/// An instant together with the UTC offset it was written with.
///
/// Bookings give every time as ISO 8601 with an offset
/// (`2026-06-10T08:05:00+02:00`). The timeline compares instants, but a
/// traveller reads a departure in the airport's local time, so the offset
/// from the booking is kept and every time is shown as it was written.
public struct LocalTime: Hashable, Sendable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public let milliseconds: Int64
    /// The offset from UTC, in minutes, as the booking wrote it.
    public let offsetMinutes: Int

    public init(milliseconds: Int64, offsetMinutes: Int) {
        self.milliseconds = milliseconds
        self.offsetMinutes = offsetMinutes
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`; nil for anything else,
    /// including a time without an offset (whose instant would be a guess).
    public init?(iso text: String) {
        guard let instant = ISO8601.parse(text) else { return nil }
        self.init(milliseconds: instant.milliseconds, offsetMinutes: instant.offsetMinutes)
    }

    /// Days since 1970-01-01 of the local calendar date.
    var localDay: Int64 { floorDivide(milliseconds + Int64(offsetMinutes) * 60_000, 86_400_000) }

    private var localParts: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, weekday: Int) {
        let local = milliseconds + Int64(offsetMinutes) * 60_000
        let days = floorDivide(local, 86_400_000)
        let secondOfDay = Int((local - days * 86_400_000) / 1000)
        let (year, month, day) = CivilCalendar.date(fromDays: Int(days))
        let weekday = Int(((days % 7) + 7 + 4) % 7)   // 1970-01-01 was a Thursday; 0 is Sunday
        return (year, month, day, secondOfDay / 3600, secondOfDay % 3600 / 60, secondOfDay % 60, weekday)
    }

    /// `+02:00`, `-05:30`, `+00:00`.
    public var offsetText: String {
        let sign = offsetMinutes < 0 ? "-" : "+"
        let magnitude = abs(offsetMinutes)
        return sign + Self.pad(magnitude / 60) + ":" + Self.pad(magnitude % 60)
    }

    /// `2026-06-10T08:05:00+02:00`: ISO 8601 in the booking's own offset.
    public var iso: String {
        let p = localParts
        return "\(Self.pad(p.year, 4))-\(Self.pad(p.month))-\(Self.pad(p.day))T\(Self.pad(p.hour)):\(Self.pad(p.minute)):\(Self.pad(p.second))" + offsetText
    }

    /// `Wed 10 Jun 2026 08:05 +02:00`: the local time a traveller reads, with its offset.
    public var display: String { dateText + " " + timeText }

    /// `Wed 10 Jun 2026`.
    public var dateText: String {
        let p = localParts
        return "\(Calendar.weekdays[p.weekday]) \(p.day) \(Calendar.months[p.month - 1]) \(p.year)"
    }

    /// `08:05 +02:00`.
    public var timeText: String {
        let p = localParts
        return "\(Self.pad(p.hour)):\(Self.pad(p.minute)) " + offsetText
    }

    private static func pad(_ value: Int, _ width: Int = 2) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

func floorDivide(_ a: Int64, _ b: Int64) -> Int64 { CivilCalendar.floorDivide(a, b) }

/// Names the widget shows for days and months.
enum Calendar {
    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
