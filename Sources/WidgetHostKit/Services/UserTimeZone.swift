import Glibc

/// The user's time zone as the C library knows it: `TZ`, else the system's
/// (/etc/localtime), else UTC. The host answers clock/2 from here, in
/// process and for isolated plugins alike, so a widget sees one zone
/// whichever way it runs.
enum UserTimeZone {
    /// tzset once: glibc's localtime_r reads the zone only the first time.
    private static let ready: Bool = {
        tzset()
        return true
    }()

    /// Seconds east of UTC at the instant, daylight saving included.
    static func offsetSeconds(atMilliseconds milliseconds: Int64) -> Int32 {
        Int32(clamping: local(milliseconds).tm_gmtoff)
    }

    /// "JST", "CEST", "EDT"; "UTC" when the library names none.
    static func abbreviation(atMilliseconds milliseconds: Int64) -> String {
        let time = local(milliseconds)
        guard let zone = time.tm_zone, zone.pointee != 0 else { return "UTC" }
        return String(cString: zone)
    }

    private static func local(_ milliseconds: Int64) -> tm {
        _ = ready
        // Floor division: no overflow at Int64.min, which a plugin may pass.
        var seconds = time_t(CivilCalendar.floorDivide(milliseconds, 1000))
        var result = tm()
        guard localtime_r(&seconds, &result) != nil else { return tm() }
        return result
    }
}
