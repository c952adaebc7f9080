import PluginABI

/// "widget-host.bus/1" (services/bus.h): publish and subscribe within the
/// topics the manifest declares.
enum BusService {
    static let publish = ServiceFunction(service: WH_SERVICE_BUS, name: "publish", arguments: [.text, .text],
                                         fallback: Int64(WH_BUS_INVALID_PAYLOAD)) { context, arguments, _ in
        Int64(context.publish(topic: arguments.text(0)!, payload: arguments.text(1)!))
    }

    static let subscribe = ServiceFunction(service: WH_SERVICE_BUS, name: "subscribe", arguments: [.text],
                                           fallback: Int64(WH_BUS_INVALID_TOPIC)) { context, arguments, _ in
        context.subscribe(pattern: arguments.text(0)!)
    }

    static let unsubscribe = ServiceFunction(service: WH_SERVICE_BUS, name: "unsubscribe", arguments: [.int],
                                             fallback: 0) { context, arguments, _ in
        context.unsubscribe(arguments.int(0))
        return 0
    }

    static let description = ServiceDescription(WH_SERVICE_BUS, [publish, subscribe, unsubscribe], table: wh_bus_v1(
        publish: { host, topic, payload in
            // bus.h forbids ill-formed UTF-8: it is refused here, not repaired.
            guard let topic = topic.flatMap(strictText) else { return Int32(WH_BUS_INVALID_TOPIC) }
            guard let payload = payload.flatMap(strictText) else { return Int32(WH_BUS_INVALID_PAYLOAD) }
            // Past the bus's limit, the bytes just over it are enough to be
            // refused as too large, and they fit in a frame when isolated.
            let carried = payload.utf8.count > Bus.maxPayloadBytes
                ? String(decoding: payload.utf8.prefix(Bus.maxPayloadBytes + 1), as: UTF8.self) : payload
            return Int32(clamping: publish.call(host, [.text(topic), .text(carried)]))
        },
        subscribe: { host, pattern in
            guard let pattern else { return Int64(WH_BUS_INVALID_TOPIC) }
            return subscribe.call(host, [.cString(pattern)])
        },
        unsubscribe: { host, id in
            _ = unsubscribe.call(host, [.int(id)])
        }))
}
