import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// Times shown to a person are in their zone (`TZ`, else the system's),
/// naming it; the host gives widgets the zone through clock/2, in process
/// and isolated alike.
@Suite("The user's time zone")
struct UserTimeZoneTests {
    static let instant = ISO8601.milliseconds(from: "2026-05-01T09:30:05Z")!

    @Test("an instant in a zone: the local date and time, and the zone's name (or its offset when unnamed)")
    func zonedTime() {
        let tokyo = ZonedTime(milliseconds: Self.instant, zone: .init(offsetSeconds: 32_400, abbreviation: "JST"))
        #expect(tokyo.dateTimeWithZone == "2026-05-01 18:30:05 JST")
        let newYork = ZonedTime(milliseconds: ISO8601.milliseconds(from: "2026-05-01T02:30:00Z")!,
                                zone: .init(offsetSeconds: -14_400, abbreviation: "EDT"))
        #expect(newYork.dateMinuteWithZone == "2026-04-30 22:30 EDT")
        #expect(newYork.localDays == CivilCalendar.days(year: 2026, month: 4, day: 30))
        #expect(ZonedTime.Zone(offsetSeconds: 19_800, abbreviation: "").name == "UTC+05:30")
        #expect(ZonedTime.Zone(offsetSeconds: -12_600, abbreviation: "-0330").name == "UTC-03:30")
        let beforeEpoch = ZonedTime(milliseconds: -1, zone: .utc)
        #expect(beforeEpoch.dateTimeWithZone == "1969-12-31 23:59:59 UTC")
    }

    static func crypto(_ zone: String, _ more: [String] = []) throws -> CryptoScreen {
        let market = try CryptoMarket()
        let run = try TestSupport.runHost(["launch", "crypto", "--format", "json", "--now", "2026-05-01T09:30:00Z", "--actions", "retrieve"]
                                          + market.arguments + more, environment: CryptoHost.environment.merging(["TZ": zone]) { _, new in new })
        #expect(run.status == 0, "\(run)")
        return try CryptoScreen(run)
    }

    @Test("Crypto's Updated line is in the user's zone and names it: Tokyo, Paris, New York; isolated alike",
          arguments: [("Asia/Tokyo", "2026-05-01 18:30:0", "JST"), ("Europe/Paris", "2026-05-01 11:30:0", "CEST"),
                      ("America/New_York", "2026-05-01 05:30:0", "EDT")])
    func cryptoUpdated(_ zone: String, _ local: String, _ name: String) throws {
        for mode in [[], ["--isolate"]] {
            let screen = try Self.crypto(zone, mode)
            let updated = screen.texts.first { $0.hasPrefix("Updated ") }
            #expect(updated?.hasPrefix("Updated " + local) == true, "\(mode) \(screen)")
            #expect(updated?.contains(" \(name) (") == true, "\(mode) \(screen)")
        }
    }

    static func checkoutToday(_ zone: String, now: String, _ more: [String] = []) throws -> String? {
        let run = try TestSupport.runHost(["launch", "checkout", "--format", "json", "--now", now, "--set", "checkout.amount=200.00"]
                                          + CheckoutLaunchTests.configuration + more,
                                          environment: ["TZ": zone])
        #expect(run.status == 0, "\(run)")
        return try CheckoutLaunchTests.screen(run).dates.first
    }

    @Test("Checkout's today is the user's day: 22:30 on 30 April in New York is 30 April, 01:30 on 1 May in Tokyo is 1 May")
    func checkoutToday() throws {
        for mode in [[], ["--isolate"]] {
            #expect(try Self.checkoutToday("America/New_York", now: "2026-05-01T02:30:00Z", mode) == "April 30, 2026")
            #expect(try Self.checkoutToday("Asia/Tokyo", now: "2026-04-30T16:30:00Z", mode) == "May 1, 2026")
            #expect(try Self.checkoutToday("UTC", now: "2026-05-01T02:30:00Z", mode) == "May 1, 2026")
        }
    }

    @Test("the host's answer follows the C library: the offset and abbreviation at an instant, daylight saving included")
    func hostZone() {
        // The test process's own zone: the system's here (the children above are given TZ).
        var seconds = time_t(Self.instant / 1000)
        var local = tm()
        localtime_r(&seconds, &local)
        #expect(Int(UserTimeZone.offsetSeconds(atMilliseconds: Self.instant)) == local.tm_gmtoff)
        #expect(!UserTimeZone.abbreviation(atMilliseconds: Self.instant).isEmpty)
    }
}

/// One money and age format for every widget (the SDK's `NumberText`).
@Suite("Money and age text")
struct NumberTextTests {
    @Test("plain decimals rounded half away from zero, grouped; anything else refused", arguments: [
        ("44001.129", "44,001.13"), ("44001.125", "44,001.13"), ("999.995", "1,000.00"), ("0.004", "0.00"),
        ("-1234567.891", "1,234,567.89"), ("12", "12.00"), (".5", "0.50"), ("0012.3", "12.30"),
    ])
    func fixed(_ text: String, _ digits: String) {
        #expect(NumberText.fixed(text, places: 2)?.digits == digits)
    }

    @Test("money: the sign before the symbol in English, the symbol after in French; a negative rounding to zero is zero")
    func money() {
        #expect(NumberText.money("44001.129") == "$44,001.13")
        #expect(NumberText.money("-5.2") == "-$5.20")
        #expect(NumberText.money("-0.001") == "$0.00")
        #expect(NumberText.money("1234.5", style: .french) == "1\u{00A0}234,50\u{00A0}$")
        for bad in ["", "abc", "1.2.3", "1e5", "--1", "1,5"] {
            #expect(NumberText.fixed(bad, places: 2) == nil, "\(bad)")
            #expect(NumberText.money(bad) == bad)
        }
    }

    @Test("ages: just now, seconds, minutes, hours, days; a time in the future is now")
    func ages() {
        #expect(NumberText.age(from: 1000, to: 1999) == "just now")
        #expect(NumberText.age(from: 5000, to: 1000) == "just now")
        #expect(NumberText.age(from: 0, to: 12_000) == "12 s ago")
        #expect(NumberText.age(from: 0, to: 300_000) == "5 min ago")
        #expect(NumberText.age(from: 0, to: 3 * 3_600_000) == "3 h ago")
        #expect(NumberText.age(from: 0, to: 2 * 86_400_000) == "2 d ago")
    }
}
