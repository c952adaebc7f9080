/// Times from the host's clock, as the screens show them: when a price was
/// updated (`2026-05-01 09:30:05 UTC`) and how long ago (`12 s ago`). UTC,
/// because the clock service gives an instant and no time zone.
enum TimeText {
    static func instant(_ milliseconds: Int64) -> String {
        let seconds = CivilCalendar.floorDivide(milliseconds, 1000)
        let days = CivilCalendar.floorDivide(seconds, 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = CivilCalendar.date(fromDays: Int(days))
        return "\(year)-\(two(month))-\(two(day)) \(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) UTC"
    }

    static func age(from then: Int64, to now: Int64) -> String {
        let seconds = max(now - then, 0) / 1000
        switch seconds {
        case 0: return "just now"
        case ..<60: return "\(seconds) s ago"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3600) h ago"
        default: return "\(seconds / 86_400) d ago"
        }
    }

    /// "Updated 2026-05-01 09:30:05 UTC (12 s ago)".
    static func updated(_ then: Int64, now: Int64) -> String {
        "\(instant(then)) (\(age(from: then, to: now)))"
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
