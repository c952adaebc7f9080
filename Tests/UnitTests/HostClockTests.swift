import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

@Suite("ISO 8601 and the host clock")
struct HostClockTests {
    // Expected values computed independently with `date -u -d TEXT +%s`.
    @Test("UTC instants convert to Unix milliseconds",
          arguments: [
              ("1970-01-01T00:00:00Z", Int64(0)),
              ("2026-05-01T09:30:00Z", 1_777_627_800_000),
              ("2024-02-29T23:59:59Z", 1_709_251_199_000),          // leap year
              ("2000-02-29T12:00:00Z", 951_825_600_000),            // divisible by 400: leap
              ("1969-12-31T23:59:59Z", -1000),                      // before the epoch
              ("1900-03-01T00:00:00Z", -2_203_891_200_000),
              ("2100-02-28T00:00:00Z", 4_107_456_000_000),
              ("2026-12-31T23:59:59Z", 1_798_761_599_000),
              ("9999-12-31T23:59:59Z", 253_402_300_799_000),
              ("0001-01-01T00:00:00Z", -62_135_596_800_000),
              ("2026-05-01t09:30:00z", 1_777_627_800_000),          // lowercase t and z
          ])
    func utc(text: String, expected: Int64) {
        #expect(ISO8601.milliseconds(from: text) == expected)
    }

    @Test("offsets: +02:00 and -05:30 name the same instant as Z",
          arguments: [
              "2026-05-01T09:30:00Z", "2026-05-01T11:30:00+02:00", "2026-05-01T04:00:00-05:30",
              "2026-05-01T09:30:00+00:00", "2026-05-01T09:30:00-00:00", "2026-05-02T00:15:00+14:45",
              "2026-04-30T21:30:00-12:00", "2026-05-01T15:00:00+05:30",
          ])
    func offsets(text: String) {
        #expect(ISO8601.milliseconds(from: text) == 1_777_627_800_000)
    }

    @Test("an offset can carry an instant across a day, month and year boundary")
    func offsetAcrossYear() {
        let newYear2027: Int64 = 1_798_761_600_000   // 2027-01-01T00:00:00Z
        let elevenPM: Int64 = newYear2027 - 3_600_000  // 2026-12-31T23:00:00Z
        #expect(ISO8601.milliseconds(from: "2027-01-01T01:00:00+02:00") == elevenPM)
        #expect(ISO8601.milliseconds(from: "2026-12-31T19:00:00-05:00") == newYear2027)
    }

    @Test("fractional seconds: milliseconds kept, finer digits truncated",
          arguments: [
              ("2026-05-01T09:30:00.5Z", Int64(500)),
              ("2026-05-01T09:30:00.05Z", 50),
              ("2026-05-01T09:30:00.123Z", 123),
              ("2026-05-01T09:30:00.1239Z", 123),
              ("2026-05-01T09:30:00.999999999Z", 999),
              ("2026-05-01T09:30:00.000Z", 0),
              ("2026-05-01T11:30:00.250+02:00", 250),
          ])
    func fractions(text: String, extra: Int64) {
        #expect(ISO8601.milliseconds(from: text) == 1_777_627_800_000 + extra)
    }

    @Test("fractional seconds before the epoch")
    func fractionBeforeEpoch() {
        #expect(ISO8601.milliseconds(from: "1969-12-31T23:59:59.500Z") == -500)
    }

    @Test("RFC 3339: a space may stand for T, and a leap second :60 ends a UTC day")
    func spaceAndLeapSecond() {
        #expect(ISO8601.milliseconds(from: "2026-05-01 09:30:00Z") == 1_777_627_800_000)
        #expect(ISO8601.milliseconds(from: "2026-05-01 11:30:00.250+02:00") == 1_777_627_800_250)
        // 2016-12-31T23:59:60Z was a real leap second; Unix time has none, so
        // it reads as the instant after :59, the same as the next day's 00:00:00.
        let newDay = ISO8601.milliseconds(from: "2017-01-01T00:00:00Z")
        #expect(newDay != nil)
        #expect(ISO8601.milliseconds(from: "2016-12-31T23:59:60Z") == newDay)
        #expect(ISO8601.milliseconds(from: "2016-12-31 23:59:60.5Z") == newDay.map { $0 + 500 })
        // The same UTC second written with an offset.
        #expect(ISO8601.milliseconds(from: "2017-01-01T00:59:60+01:00") == newDay)
        #expect(ISO8601.milliseconds(from: "2016-12-31T18:59:60-05:00") == newDay)
    }

    @Test("invalid dates, times and formats give nil",
          arguments: [
              "2026-02-30T00:00:00Z", "2026-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-04-31T00:00:00Z",
              "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-01-00T00:00:00Z", "2026-01-32T00:00:00Z",
              "2026-05-01T24:00:00Z", "2026-05-01T23:60:00Z", "2026-05-01T12:59:60Z", "2026-05-01T23:58:60Z",
              "2026-05-01T23:59:60+01:00", "2026-05-01T23:59:61Z",
              "2026-05-01T09:30:00", "2026-05-01T09:30:00.5", "2026-05-01", "2026-05-01T09:30Z", "09:30:00Z",
              "2026-05-01  09:30:00Z", "2026-05-01_09:30:00Z", "2026-5-01T09:30:00Z", "2026-05-1T09:30:00Z", "26-05-01T09:30:00Z",
              "2026/05/01T09:30:00Z", "2026-05-01T09-30-00Z", "2026-05-01T09:30:00.Z", "2026-05-01T09:30:00,5Z",
              "2026-05-01T09:30:00+0200", "2026-05-01T09:30:00+02", "2026-05-01T09:30:00+2:00",
              "2026-05-01T09:30:00+24:00", "2026-05-01T09:30:00+02:60", "2026-05-01T09:30:00Z ", " 2026-05-01T09:30:00Z",
              "2026-05-01T09:30:00ZZ", "2026-05-01T09:30:00Z+02:00", "2026-05-01T09:30:00+02:00Z", "",
              "x026-05-01T09:30:00Z", "2026-05-01T09:30:00\u{FF3A}", "\u{FF12}026-05-01T09:30:00Z",
          ])
    func invalid(text: String) {
        #expect(ISO8601.milliseconds(from: text) == nil)
    }

    @Test("HostClock(startingAt:) starts at the given instant and moves forward")
    func clockOverride() throws {
        let start = try #require(ISO8601.milliseconds(from: "2026-05-01T09:30:00Z"))
        let clock = HostClock(startingAt: start)
        let first = clock.nowMilliseconds
        let second = clock.nowMilliseconds
        #expect(first >= start)
        #expect(first < start + 3_600_000, "the override must be applied (an hour is a sanity bound, not a timing test)")
        #expect(second >= first)

        let past = HostClock(startingAt: -86_400_000)
        #expect(past.nowMilliseconds < 0)
    }

    @Test("HostClock() follows the system clock")
    func systemClock() {
        let system = Int64(Date().timeIntervalSince1970 * 1000)
        let now = HostClock().nowMilliseconds
        #expect(abs(now - system) < 3_600_000, "within an hour of Foundation's clock (a sanity bound)")
    }

    // Weekdays checked with `date -d 2026-06-10 +%a` (Wed) and `date -d 1969-12-31 +%a` (Wed).
    @Test("ISO 8601 text read as a ZonedTime keeps the offset it was written with, and writes it back")
    func zonedTimeFromText() throws {
        let paris = try #require(ZonedTime(iso: "2026-06-10T08:05:00+02:00"))
        #expect(paris.milliseconds == ISO8601.milliseconds(from: "2026-06-10T06:05:00Z"))
        #expect((paris.hour, paris.minute, paris.weekday) == (8, 5, 3))
        #expect(paris.iso == "2026-06-10T08:05:00+02:00")
        #expect(paris.zone.offsetText == "+02:00")
        #expect(try #require(ZonedTime(iso: "2026-06-10T23:30:00-05:30")).iso == "2026-06-10T23:30:00-05:30")
        #expect(ZonedTime(milliseconds: -1, zone: .utc).iso == "1969-12-31T23:59:59+00:00")
        #expect(ZonedTime(milliseconds: -1, zone: .utc).weekday == 3)
        for refused in ["2026-06-10T08:05:00", "2026-06-10", "", "2026-02-30T08:05:00Z"] {
            #expect(ZonedTime(iso: refused) == nil, "\(refused)")
        }
    }
}
