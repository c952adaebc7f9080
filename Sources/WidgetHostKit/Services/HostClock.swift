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

/// ISO 8601 instants with an explicit offset, as `--now` takes them:
/// `2026-05-01T09:30:00Z`, `2026-05-01T11:30:00+02:00`, with optional
/// fractional seconds.
public enum ISO8601 {
    public static func milliseconds(from text: String) -> Int64? {
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        func byte(_ index: Int, is character: Character) -> Bool {
            index < bytes.count && bytes[index] == character.asciiValue!
        }
        guard let year = number(0, 4), byte(4, is: "-"), let month = number(5, 2), byte(7, is: "-"),
              let day = number(8, 2), byte(10, is: "T") || byte(10, is: "t"),
              let hour = number(11, 2), byte(13, is: ":"), let minute = number(14, 2), byte(16, is: ":"),
              let second = number(17, 2),
              (1...12).contains(month), (1...daysIn(month, year)).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var fraction = 0
        if byte(index, is: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, (48...57).contains(bytes[index]) {
                if digits < 3 { fraction = fraction * 10 + Int(bytes[index] - 48) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { fraction *= 10 }
        }
        let offsetMinutes: Int
        if byte(index, is: "Z") || byte(index, is: "z") {
            offsetMinutes = 0
            index += 1
        } else if byte(index, is: "+") || byte(index, is: "-"), let hours = number(index + 1, 2), byte(index + 3, is: ":"),
                  let minutes = number(index + 4, 2), hours < 24, minutes < 60 {
            offsetMinutes = (hours * 60 + minutes) * (byte(index, is: "-") ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetMinutes * 60)
        return seconds * 1000 + Int64(fraction)
    }

    /// Days since 1970-01-01 (Howard Hinnant's civil calendar algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }

    static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
