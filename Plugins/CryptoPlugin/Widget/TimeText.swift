/// Times from the host's clock, as the screens show them: when a price was
/// updated (`2026-05-01 09:30:05 UTC`) and how long ago (`12 s ago`). UTC,
/// because the clock service gives an instant and no time zone.
enum TimeText {
    static func instant(_ milliseconds: Int64) -> String {
        let seconds = floorDivide(milliseconds, 1000)
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = civil(fromDays: days)
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

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    /// Days since 1970-01-01 to a date (Howard Hinnant's civil calendar algorithm).
    private static func civil(fromDays days: Int64) -> (Int64, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
