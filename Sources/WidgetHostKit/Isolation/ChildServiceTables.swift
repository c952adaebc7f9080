import Glibc
import PluginABI

/// The `wh_host` and service tables a plugin sees inside its isolated
/// process: the same C types as in process, each function a forwarder that
/// sends the call to the host (`HostServiceProxy`) and hands back its
/// answer. The plugin's code cannot tell the difference, and no check is
/// made here: the host decides everything.
enum ChildServices {
    /// The `wh_host` the plugin's instance is created with.
    nonisolated(unsafe) static let host: UnsafeMutablePointer<wh_host> = {
        let host = UnsafeMutablePointer<wh_host>.allocate(capacity: 1)
        host.initialize(to: wh_host(
            abi_major: WH_ABI_MAJOR, abi_minor: WH_ABI_MINOR, struct_size: UInt32(MemoryLayout<wh_host>.size),
            host_data: nil,
            get_service: { _, id in
                guard let id else { return nil }
                let name = ServiceCalls.text(id)
                guard let table = tables[name], let reply = call(nil, "get_service", [("id", .string(name))]),
                      reply.fields["result"]?.int64 == 1 else { return nil }
                return table
            },
            request_render: { _ in
                ChildLink.shared?.send(Frame(.wake))
            }
        ))
        return host
    }()

    nonisolated(unsafe) private static let tables: [String: UnsafeRawPointer] = [
        WH_SERVICE_LOG: table(wh_log_v1(log: { _, level, message in
            guard let message else { return }
            _ = call(WH_SERVICE_LOG, "log", [("level", .int(level)), ("message", .string(ServiceCalls.text(message)))])
        })),
        WH_SERVICE_CLOCK: table(wh_clock_v1(
            now_ms: { _ in result(call(WH_SERVICE_CLOCK, "now_ms", []), otherwise: 0) },
            wake_at: { _, at in Int32(result(call(WH_SERVICE_CLOCK, "wake_at", [("at", .int(at))]), otherwise: 0)) })),
        WH_SERVICE_CONFIG: table(wh_config_v1(get: { _, key, out in
            let reply = call(WH_SERVICE_CONFIG, "get", [("key", key.map { .string(ServiceCalls.text($0)) } ?? .null)])
            let found = Int32(result(reply, otherwise: 0))
            return found == 1 && !write(reply, to: out) ? 0 : found
        })),
        WH_SERVICE_STORE: table(wh_store_v1(
            get: { _, key, out in
                guard let key else { return Int32(WH_STORE_BAD_KEY) }
                let reply = call(WH_SERVICE_STORE, "get", [("key", .string(ServiceCalls.text(key)))])
                let status = Int32(result(reply, otherwise: Int64(WH_STORE_IO_ERROR)))
                return status == Int32(WH_STORE_FOUND) && !write(reply, to: out) ? Int32(WH_STORE_IO_ERROR) : status
            },
            put: { _, key, data, count in
                guard let key, data != nil || count == 0 else { return Int32(WH_STORE_BAD_KEY) }
                guard count <= UInt64(Frame.maxPayloadBytes - 64 * 1024) else { return Int32(WH_STORE_IO_ERROR) }
                let bytes = data.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(count))) } ?? []
                return Int32(result(call(WH_SERVICE_STORE, "put", [("key", .string(ServiceCalls.text(key)))], body: bytes),
                                    otherwise: Int64(WH_STORE_IO_ERROR)))
            },
            remove: { _, key in
                guard let key else { return Int32(WH_STORE_BAD_KEY) }
                return Int32(result(call(WH_SERVICE_STORE, "remove", [("key", .string(ServiceCalls.text(key)))]),
                                    otherwise: Int64(WH_STORE_IO_ERROR)))
            })),
        WH_SERVICE_HTTP: table(wh_http_v1(get: { _, url, timeout, maxBytes, out in
            guard let url else { return Int32(WH_HTTP_BAD_URL) }
            let reply = call(WH_SERVICE_HTTP, "get", [("url", .string(ServiceCalls.text(url))), ("timeout_ms", .int(timeout)),
                                                       ("max_bytes", .int(min(maxBytes, UInt64(Int64.max))))])
            _ = write(reply, to: out)
            return Int32(result(reply, otherwise: Int64(WH_HTTP_FAILED)))
        })),
        WH_SERVICE_BUS: table(wh_bus_v1(
            publish: { _, topic, payload in
                guard let topic = topic.flatMap(ServiceCalls.strictText) else { return Int32(WH_BUS_INVALID_TOPIC) }
                guard let payload = payload.flatMap(ServiceCalls.strictText) else { return Int32(WH_BUS_INVALID_PAYLOAD) }
                // Past the bus's limit, the bytes just over it are enough for
                // the host to refuse the payload as it would in process.
                let carried = payload.utf8.count > Bus.maxPayloadBytes
                    ? String(decoding: payload.utf8.prefix(Bus.maxPayloadBytes + 1), as: UTF8.self) : payload
                return Int32(result(call(WH_SERVICE_BUS, "publish", [("topic", .string(topic)), ("payload", .string(carried))]),
                                    otherwise: Int64(WH_BUS_INVALID_PAYLOAD)))
            },
            subscribe: { _, pattern in
                guard let pattern else { return Int64(WH_BUS_INVALID_TOPIC) }
                return result(call(WH_SERVICE_BUS, "subscribe", [("pattern", .string(ServiceCalls.text(pattern)))]),
                              otherwise: Int64(WH_BUS_INVALID_TOPIC))
            },
            unsubscribe: { _, id in
                _ = call(WH_SERVICE_BUS, "unsubscribe", [("id", .int(id))])
            })),
        WH_SERVICE_NAVIGATOR: table(wh_navigator_v1(
            push: { _, link in navigate("push", link) },
            replace: { _, link in navigate("replace", link) },
            root: { _, link in navigate("root", link) },
            pop: { _ in Int32(result(call(WH_SERVICE_NAVIGATOR, "pop", []), otherwise: 0)) })),
    ]

    private static func navigate(_ function: String, _ link: UnsafePointer<CChar>?) -> Int32 {
        guard let link else { return Int32(WH_NAV_MALFORMED_LINK) }
        return Int32(result(call(WH_SERVICE_NAVIGATOR, function, [("link", .string(ServiceCalls.text(link)))]),
                            otherwise: Int64(WH_NAV_MALFORMED_LINK)))
    }

    private static func call(_ service: String?, _ function: String, _ fields: [(String, JSONValue)], body: [UInt8] = []) -> Frame? {
        ChildLink.shared?.service(service, function, fields, body: body)
    }

    private static func result(_ reply: Frame?, otherwise fallback: Int64) -> Int64 {
        reply?.fields["result"]?.int64 ?? fallback
    }

    /// Writes a reply's bytes into the plugin's sink; false if it refused.
    private static func write(_ reply: Frame?, to out: UnsafePointer<wh_output>?) -> Bool {
        guard let reply, let out, let sink = out.pointee.write else { return false }
        return reply.body.withUnsafeBytes { raw in
            sink(out, raw.baseAddress?.assumingMemoryBound(to: CChar.self), UInt64(raw.count)) == 0
        }
    }

    /// Static storage for a table: it lives as long as the process.
    private static func table<T>(_ value: T) -> UnsafeRawPointer {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        pointer.initialize(to: value)
        return UnsafeRawPointer(pointer)
    }
}
