import PluginABI

/// "widget-host.clock/1" (services/clock.h): the host's clock, which
/// `--now` and tests set.
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
}
