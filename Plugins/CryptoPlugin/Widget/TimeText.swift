/// Times from the host's clock, as the screens show them: when a price was
/// updated, in the user's time zone and naming it
/// (`2026-05-01 11:30:05 CEST`), and how long ago, as every widget says it
/// (`12 s ago`, the SDK's `NumberText.age`).
enum TimeText {
    static func instant(_ milliseconds: Int64, zone: ZonedTime.Zone) -> String {
        ZonedTime(milliseconds: milliseconds, zone: zone).dateTimeWithZone
    }

    static func age(from then: Int64, to now: Int64) -> String {
        NumberText.age(from: then, to: now)
    }

    /// "Updated 2026-05-01 11:30:05 CEST (12 s ago)".
    static func updated(_ then: Int64, now: Int64, zone: ZonedTime.Zone) -> String {
        "\(instant(then, zone: zone)) (\(age(from: then, to: now)))"
    }
}
