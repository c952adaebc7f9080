import PluginABI

/// "widget-host.clock/1" (services/clock.h): the host's clock, which
/// `--now` and tests set; "widget-host.clock/2" adds the user's time zone.
enum ClockService {
    static let nowMS = ServiceFunction(service: WH_SERVICE_CLOCK, name: "now_ms", arguments: [], fallback: 0) { context, _, _ in
        context.clock.nowMilliseconds
    }

    static let wakeAt = ServiceFunction(service: WH_SERVICE_CLOCK, name: "wake_at", arguments: [.int],
                                        fallback: 0) { context, arguments, _ in
        context.wake(atMilliseconds: arguments.int(0))
        return 0
    }

    static let description = ServiceDescription(WH_SERVICE_CLOCK, [nowMS, wakeAt], table: wh_clock_v1(
        now_ms: { host in nowMS.call(host, []) },
        wake_at: { host, at in Int32(clamping: wakeAt.call(host, [.int(at)])) }))

    static let utcOffset = ServiceFunction(service: WH_SERVICE_CLOCK_2, name: "utc_offset_s", arguments: [.int],
                                           fallback: 0) { _, arguments, _ in
        Int64(UserTimeZone.offsetSeconds(atMilliseconds: arguments.int(0)))
    }

    static let zoneAbbreviation = ServiceFunction(service: WH_SERVICE_CLOCK_2, name: "zone_abbreviation", arguments: [.int],
                                                  writesOutput: true, fallback: 0, whenSinkRefuses: 0) { _, arguments, out in
        out!.write(UserTimeZone.abbreviation(atMilliseconds: arguments.int(0))) ? 1 : 0
    }

    // clock/1's two functions under clock/2's id, so that a forwarded call names the table it came through.
    static let nowMS2 = ServiceFunction(service: WH_SERVICE_CLOCK_2, name: "now_ms", arguments: [], fallback: 0) { context, _, _ in
        context.clock.nowMilliseconds
    }

    static let wakeAt2 = ServiceFunction(service: WH_SERVICE_CLOCK_2, name: "wake_at", arguments: [.int],
                                         fallback: 0) { context, arguments, _ in
        context.wake(atMilliseconds: arguments.int(0))
        return 0
    }

    static let description2 = ServiceDescription(WH_SERVICE_CLOCK_2, [nowMS2, wakeAt2, utcOffset, zoneAbbreviation], table: wh_clock_v2(
        now_ms: { host in nowMS2.call(host, []) },
        wake_at: { host, at in Int32(clamping: wakeAt2.call(host, [.int(at)])) },
        utc_offset_s: { host, at in Int32(clamping: utcOffset.call(host, [.int(at)])) },
        zone_abbreviation: { host, at, out in
            guard let out else { return 0 }
            return Int32(clamping: zoneAbbreviation.call(host, [.int(at)], out))
        }))
}
