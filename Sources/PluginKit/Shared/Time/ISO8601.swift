/// ISO 8601 instants with an explicit offset: `2026-05-01T09:30:00Z`,
/// `2026-05-01T11:30:00+02:00`, with optional fractional seconds. As RFC 3339
/// allows, the `T` may be a space (`2026-05-01 09:30:00Z`, as people type it)
/// and the second may be 60 at the end of a UTC day (`23:59:60Z`, a leap
/// second, read as the instant that follows `23:59:59`, since Unix time has no
/// leap seconds). A time without an offset is refused: its instant would be a
/// guess. Shared by the host and every plugin, so `--now` and a booking's times are read by
/// one parser.
public enum ISO8601 {
    public struct Instant: Equatable, Sendable {
        /// Milliseconds since 1970-01-01T00:00:00Z.
        public let milliseconds: Int64
        /// The offset from UTC, in minutes, as the text wrote it.
        public let offsetMinutes: Int

        public init(milliseconds: Int64, offsetMinutes: Int) {
            self.milliseconds = milliseconds
            self.offsetMinutes = offsetMinutes
        }
    }

    public static func milliseconds(from text: String) -> Int64? {
        parse(text)?.milliseconds
    }

    public static func parse(_ text: String) -> Instant? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    private static func parse(_ buffer: UnsafeBufferPointer<UInt8>) -> Instant? {
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
        // A Unicode.Scalar, not a Character: a Character's asciiValue is a call through its scalars (some 150 instructions a check,
        // a dozen checks a time, several times a booking), where a literal scalar's byte is a constant.
        func byte(_ index: Int, is ascii: Unicode.Scalar) -> Bool { index < buffer.count && buffer[index] == UInt8(ascii: ascii) }
        guard let year = number(0, 4), byte(4, is: "-"), let month = number(5, 2), byte(7, is: "-"),
              let day = number(8, 2), byte(10, is: "T") || byte(10, is: "t") || byte(10, is: " "),
              let hour = number(11, 2), byte(13, is: ":"), let minute = number(14, 2), byte(16, is: ":"),
              let second = number(17, 2),
              (1...12).contains(month), (1...CivilCalendar.daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second <= 60
        else { return nil }
        var index = 19
        var fraction = 0
        if byte(index, is: ".") {
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
        if byte(index, is: "Z") || byte(index, is: "z") {
            offset = 0
            index += 1
        } else if byte(index, is: "+") || byte(index, is: "-"), let hours = number(index + 1, 2), byte(index + 3, is: ":"),
                  let minutes = number(index + 4, 2), hours < 24, minutes < 60 {
            offset = (hours * 60 + minutes) * (byte(index, is: "-") ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == buffer.count else { return nil }
        // A leap second exists only as the last second of a UTC day.
        if second == 60 {
            let minuteOfUTCDay = ((hour * 60 + minute - offset) % 1440 + 1440) % 1440
            guard minuteOfUTCDay == 1439 else { return nil }
        }
        let days = Int64(CivilCalendar.days(year: year, month: month, day: day))
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset * 60)
        return Instant(milliseconds: seconds * 1000 + Int64(fraction), offsetMinutes: offset)
    }
}

extension ISO8601 {
    /// `instant` as text in its own offset: `2026-06-10T08:05:00+02:00`,
    /// `Z` for UTC, with milliseconds only when there are some.
    public static func format(_ instant: Instant) -> String {
        let local = instant.milliseconds + Int64(instant.offsetMinutes) * 60_000
        let days = CivilCalendar.floorDivide(local, 86_400_000)
        let inDay = local - days * 86_400_000
        let (year, month, day) = CivilCalendar.date(fromDays: Int(days))
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var text = "\(year < 1000 ? String(repeating: "0", count: 4 - String(year).count) : "")\(year)-\(two(Int64(month)))-\(two(Int64(day)))"
        text += "T\(two(inDay / 3_600_000)):\(two(inDay / 60_000 % 60)):\(two(inDay / 1000 % 60))"
        if inDay % 1000 != 0 {
            let millis = inDay % 1000
            text += "." + (millis < 10 ? "00" : millis < 100 ? "0" : "") + "\(millis)"
        }
        guard instant.offsetMinutes != 0 else { return text + "Z" }
        let offset = abs(instant.offsetMinutes)
        return text + (instant.offsetMinutes < 0 ? "-" : "+") + two(Int64(offset / 60)) + ":" + two(Int64(offset % 60))
    }
}
