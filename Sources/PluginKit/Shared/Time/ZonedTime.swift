/// An instant as a person in a time zone reads it: the local date and
/// time, and the zone's name. Pure arithmetic on the offset the host gave,
/// so it reads the same in both modes and in tests.
public struct ZonedTime: Hashable, Sendable {
    public struct Zone: Hashable, Sendable {
        /// Seconds east of UTC.
        public let offsetSeconds: Int
        /// "JST", "CEST"; empty when the host named none.
        public let abbreviation: String

        public init(offsetSeconds: Int, abbreviation: String) {
            self.offsetSeconds = offsetSeconds
            self.abbreviation = abbreviation
        }

        public static let utc = Zone(offsetSeconds: 0, abbreviation: "UTC")

        /// "JST"; "UTC+05:30" when the host gave no abbreviation, or only
        /// digits ("+0530", as some zones have).
        public var name: String {
            if !abbreviation.isEmpty, abbreviation.contains(where: \.isLetter) { return abbreviation }
            return "UTC" + offsetText
        }

        /// "+02:00", "-05:30", "+00:00": the offset as ISO 8601 writes it.
        public var offsetText: String {
            let minutes = abs(offsetSeconds) / 60
            return (offsetSeconds < 0 ? "-" : "+") + Self.two(minutes / 60) + ":" + Self.two(minutes % 60)
        }

        static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    }

    public let milliseconds: Int64
    public let zone: Zone
    /// Days since 1970-01-01 of the local date.
    public let localDays: Int
    public let year: Int, month: Int, day: Int
    public let hour: Int, minute: Int, second: Int
    /// 0 for Sunday through 6 for Saturday.
    public let weekday: Int

    public init(milliseconds: Int64, zone: Zone) {
        self.milliseconds = milliseconds
        self.zone = zone
        let seconds = CivilCalendar.floorDivide(milliseconds, 1000) + Int64(zone.offsetSeconds)
        let days = CivilCalendar.floorDivide(seconds, 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        localDays = Int(days)
        (year, month, day) = CivilCalendar.date(fromDays: Int(days))
        hour = secondOfDay / 3600
        minute = secondOfDay / 60 % 60
        second = secondOfDay % 60
        weekday = Int((days % 7 + 7 + 4) % 7)   // 1970-01-01 was a Thursday
    }

    /// The instant of ISO 8601 text with its offset (`2026-06-10T08:05:00+02:00`)
    /// in the zone the text wrote, which has no name; nil for anything
    /// ISO8601.parse refuses, a time without an offset among them.
    public init?(iso text: String) {
        guard let instant = ISO8601.parse(text) else { return nil }
        self.init(milliseconds: instant.milliseconds, zone: Zone(offsetSeconds: instant.offsetMinutes * 60, abbreviation: ""))
    }

    /// "2026-05-01".
    public var date: String { "\(year)-\(Zone.two(month))-\(Zone.two(day))" }
    /// "09:30".
    public var time: String { "\(Zone.two(hour)):\(Zone.two(minute))" }
    /// "09:30:05".
    public var timeWithSeconds: String { time + ":" + Zone.two(second) }
    /// "2026-05-01 09:30:05 CEST": a moment a person may compare with others.
    public var dateTimeWithZone: String { "\(date) \(timeWithSeconds) \(zone.name)" }
    /// "2026-05-01 09:30 CEST".
    public var dateMinuteWithZone: String { "\(date) \(time) \(zone.name)" }
    /// "2026-05-01T09:30:05+02:00": ISO 8601 in its own offset, to the second.
    public var iso: String { "\(date)T\(timeWithSeconds)\(zone.offsetText)" }
}
