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
        var text = text
        guard let parsed = text.withUTF8({ Self.parse($0) }) else { return nil }
        self = parsed
    }

    private static func parse(_ buffer: UnsafeBufferPointer<UInt8>) -> LocalTime? {
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= buffer.count else { return nil }
            var value = 0
            for index in start..<start + count {
                let byte = buffer[index]
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        func byte(_ index: Int, is ascii: UInt8) -> Bool { index < buffer.count && buffer[index] == ascii }
        guard let year = number(0, 4), byte(4, is: 0x2D), let month = number(5, 2), byte(7, is: 0x2D),
              let day = number(8, 2), byte(10, is: 0x54) || byte(10, is: 0x74),
              let hour = number(11, 2), byte(13, is: 0x3A), let minute = number(14, 2), byte(16, is: 0x3A),
              let second = number(17, 2),
              (1...12).contains(month), day >= 1, day <= Calendar.daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var fraction = 0
        if byte(index, is: 0x2E) {
            index += 1
            var digits = 0
            while index < buffer.count, buffer[index] >= 48 && buffer[index] <= 57 {
                if digits < 3 { fraction = fraction * 10 + Int(buffer[index] - 48) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { fraction *= 10 }
        }
        let offset: Int
        if byte(index, is: 0x5A) || byte(index, is: 0x7A) {
            offset = 0
            index += 1
        } else if byte(index, is: 0x2B) || byte(index, is: 0x2D), let hours = number(index + 1, 2), byte(index + 3, is: 0x3A),
                  let minutes = number(index + 4, 2), hours < 24, minutes < 60 {
            offset = (hours * 60 + minutes) * (byte(index, is: 0x2D) ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == buffer.count else { return nil }
        let days = Int64(Calendar.daysFromCivil(year: year, month: month, day: day))
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset * 60)
        return LocalTime(milliseconds: seconds * 1000 + Int64(fraction), offsetMinutes: offset)
    }

    /// Days since 1970-01-01 of the local calendar date.
    var localDay: Int64 { floorDivide(milliseconds + Int64(offsetMinutes) * 60_000, 86_400_000) }

    private var localParts: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, weekday: Int) {
        let local = milliseconds + Int64(offsetMinutes) * 60_000
        let days = floorDivide(local, 86_400_000)
        let secondOfDay = Int((local - days * 86_400_000) / 1000)
        let (year, month, day) = Calendar.civil(fromDays: Int(days))
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

func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    let quotient = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
}

/// The proleptic Gregorian calendar, by Howard Hinnant's civil algorithms.
enum Calendar {
    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
