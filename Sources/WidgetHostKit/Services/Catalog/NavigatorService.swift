import PluginABI

/// "widget-host.navigator/1" (services/navigator.h): each function
/// publishes its navigation event for the host's navigator to route.
enum NavigatorService {
    static let push = go("push")
    static let replace = go("replace")
    static let root = go("root")
    static let pop = ServiceFunction(service: WH_SERVICE_NAVIGATOR, name: "pop", arguments: [],
                                     fallback: Int64(WH_NAV_MALFORMED_LINK)) { context, _, _ in
        context.bus.enqueue(BusEvent(topic: "nav.pop", payload: JSONValue.object([]).serialized))
        return 0
    }

    static let description = ServiceDescription(WH_SERVICE_NAVIGATOR, [push, replace, root, pop], table: wh_navigator_v1(
        push: { host, link in call(push, host, link) },
        replace: { host, link in call(replace, host, link) },
        root: { host, link in call(root, host, link) },
        pop: { host in Int32(clamping: pop.call(host, [])) }))

    /// A function that publishes "nav.NAME" with the link's target.
    private static func go(_ name: String) -> ServiceFunction {
        ServiceFunction(service: WH_SERVICE_NAVIGATOR, name: name, arguments: [.text],
                        fallback: Int64(WH_NAV_MALFORMED_LINK)) { context, arguments, _ in
            let target: NavigationTarget
            do { target = try NavigationTarget(link: arguments.text(0)!) } catch {
                context.log.warning("\(error)")
                return Int64(WH_NAV_MALFORMED_LINK)
            }
            context.bus.enqueue(BusEvent(topic: "nav." + name, payload: target.json.serialized, value: target))
            return 0
        }
    }

    /// A NULL link does not parse, whichever way the call travels.
    private static func call(_ function: ServiceFunction, _ host: UnsafePointer<wh_host>?, _ link: UnsafePointer<CChar>?) -> Int32 {
        guard let link = link.flatMap(ServiceValue.cString) else { return Int32(WH_NAV_MALFORMED_LINK) }
        return Int32(clamping: function.call(host, [link]))
    }
}
