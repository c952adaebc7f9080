import PluginABI

extension Host {
    /// The user's time zone at an instant (now, by default), from clock/2;
    /// UTC on a host without it, which the abbreviation then says.
    public func timeZone(atMilliseconds at: Int64? = nil) -> ZonedTime.Zone {
        guard let table = service(WH_SERVICE_CLOCK_2, as: wh_clock_v2.self) else { return .utc }
        let instant = at ?? table.pointee.now_ms(raw)
        let sink = Sink()
        let named = sink.withOutput { table.pointee.zone_abbreviation(raw, instant, $0) } == 1
        let abbreviation = named ? String(decoding: sink.bytes, as: UTF8.self) : ""
        return ZonedTime.Zone(offsetSeconds: Int(table.pointee.utc_offset_s(raw, instant)), abbreviation: abbreviation)
    }

    /// Now in the user's zone, or nil without a clock.
    public var localNow: ZonedTime? {
        guard let now = nowMilliseconds else { return nil }
        return ZonedTime(milliseconds: now, zone: timeZone(atMilliseconds: now))
    }

    /// An instant in the user's zone (the zone's offset at that instant).
    public func local(_ milliseconds: Int64) -> ZonedTime {
        ZonedTime(milliseconds: milliseconds, zone: timeZone(atMilliseconds: milliseconds))
    }
}
