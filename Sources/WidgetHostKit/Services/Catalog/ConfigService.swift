import PluginABI

/// "widget-host.config/1" (services/config.h): the plugin's own section of
/// the host configuration.
enum ConfigService {
    static let get = ServiceFunction(service: WH_SERVICE_CONFIG, name: "get", arguments: [.optionalText], writesOutput: true,
                                     fallback: 0,
                                     whenSinkRefuses: 0) { context, arguments, out in
        let section = context.configSection
        guard let value = arguments.text(0).map({ section[$0] }) ?? section else { return 0 }
        return out!.write(value.serialized) ? 1 : 0
    }

    static let description = ServiceDescription(WH_SERVICE_CONFIG, [get], table: wh_config_v1(
        get: { host, key, out in
            guard let out else { return 0 }
            return Int32(clamping: get.call(host, [.optionalCString(key)], out))
        }))
}
