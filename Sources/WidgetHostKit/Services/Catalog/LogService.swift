import PluginABI

/// "widget-host.log/1" (services/log.h): messages attributed to the plugin.
enum LogService {
    static let log = ServiceFunction(service: WH_SERVICE_LOG, name: "log", arguments: [.int, .text],
                                     fallback: 0) { context, arguments, _ in
        let level = LogLevel(rawValue: Int32(clamping: arguments.int(0))) ?? .error
        context.log.log(level, arguments.text(1)!)
        return 0
    }

    static let description = ServiceDescription(WH_SERVICE_LOG, [log], table: wh_log_v1(
        log: { host, level, message in
            guard let message else { return }
            _ = log.call(host, [.int(Int64(level)), .lossyCString(message)])
        }))
}
