import PluginABI

/// The host's half of an isolated plugin's service calls. Each call from the
/// child is carried out by the very C function an in-process plugin would
/// reach, on the host-side `PluginContext`'s `wh_host`, so every capability
/// check (declared services, topics, http hosts) happens here, in the host,
/// exactly as it does in process, and none is repeated in the child.
///
/// A call for a service the plugin was not granted cannot come from the
/// child's own code (its `get_service` returned NULL), so it is a forged
/// frame and stops the plugin.
struct HostServiceProxy {
    let context: PluginContext

    /// What a service call writes back is capped like any frame.
    static let outputLimit = Frame.maxPayloadBytes - 64 * 1024

    struct Violation: Error, CustomStringConvertible {
        let description: String
    }

    /// Whether the call may block for long (an http GET), so that it must
    /// not run on the thread that reads the child's frames.
    static func isSlow(_ frame: Frame) -> Bool {
        frame.fields["service"]?.string == WH_SERVICE_HTTP
    }

    func perform(_ frame: Frame) throws(Violation) -> Frame {
        let fields = frame.fields
        guard let function = fields["fn"]?.string else { throw Violation(description: "sent a service call without a function") }
        if function == "get_service" {
            let id = try string(fields, "id")
            let table = id.withCString { context.host.pointee.get_service!(context.host, $0) }
            return reply(frame, table == nil ? 0 : 1)
        }
        let service = try string(fields, "service")
        guard let table = context.service(service) else {
            throw Violation(description: "called service \(service), which it was not granted")
        }
        let host = UnsafePointer(context.host)
        switch (service, function) {
        case (WH_SERVICE_LOG, "log"):
            let log = table.assumingMemoryBound(to: wh_log_v1.self).pointee
            let level = Int32(clamping: fields["level"]?.int64 ?? Int64(WH_LOG_ERROR.rawValue))
            try string(fields, "message").withCString { log.log!(host, level, $0) }
            return reply(frame, 0)
        case (WH_SERVICE_CLOCK, "now_ms"):
            return reply(frame, table.assumingMemoryBound(to: wh_clock_v1.self).pointee.now_ms!(host))
        case (WH_SERVICE_CLOCK, "wake_at"):
            return reply(frame, Int64(table.assumingMemoryBound(to: wh_clock_v1.self).pointee.wake_at!(host, try integer(fields, "at"))))
        case (WH_SERVICE_CONFIG, "get"):
            let get = table.assumingMemoryBound(to: wh_config_v1.self).pointee.get!
            let key = fields["key"]?.string
            return try withOutput(frame) { out in
                key.map { $0.withCString { get(host, $0, out) } } ?? get(host, nil, out)
            }
        case (WH_SERVICE_STORE, "get"):
            let get = table.assumingMemoryBound(to: wh_store_v1.self).pointee.get!
            let key = try string(fields, "key")
            return try withOutput(frame) { out in key.withCString { get(host, $0, out) } }
        case (WH_SERVICE_STORE, "put"):
            let put = table.assumingMemoryBound(to: wh_store_v1.self).pointee.put!
            let status = try string(fields, "key").withCString { key in
                frame.body.withUnsafeBytes { put(host, key, $0.baseAddress?.assumingMemoryBound(to: CChar.self), UInt64($0.count)) }
            }
            return reply(frame, Int64(status))
        case (WH_SERVICE_STORE, "remove"):
            let remove = table.assumingMemoryBound(to: wh_store_v1.self).pointee.remove!
            return reply(frame, Int64(try string(fields, "key").withCString { remove(host, $0) }))
        case (WH_SERVICE_HTTP, "get"):
            let get = table.assumingMemoryBound(to: wh_http_v1.self).pointee.get!
            let url = try string(fields, "url")
            let timeout = UInt32(clamping: try integer(fields, "timeout_ms"))
            let maxBytes = UInt64(clamping: min(try integer(fields, "max_bytes"), Int64(Self.outputLimit)))
            return try withOutput(frame) { out in url.withCString { get(host, $0, timeout, maxBytes == 0 ? UInt64(Self.outputLimit) : maxBytes, out) } }
        case (WH_SERVICE_BUS, "publish"):
            let publish = table.assumingMemoryBound(to: wh_bus_v1.self).pointee.publish!
            let payload = try string(fields, "payload")
            return reply(frame, Int64(try string(fields, "topic").withCString { topic in payload.withCString { publish(host, topic, $0) } }))
        case (WH_SERVICE_BUS, "subscribe"):
            let subscribe = table.assumingMemoryBound(to: wh_bus_v1.self).pointee.subscribe!
            return reply(frame, try string(fields, "pattern").withCString { subscribe(host, $0) })
        case (WH_SERVICE_BUS, "unsubscribe"):
            table.assumingMemoryBound(to: wh_bus_v1.self).pointee.unsubscribe!(host, try integer(fields, "id"))
            return reply(frame, 0)
        case (WH_SERVICE_NAVIGATOR, "push"), (WH_SERVICE_NAVIGATOR, "replace"), (WH_SERVICE_NAVIGATOR, "root"):
            let navigator = table.assumingMemoryBound(to: wh_navigator_v1.self).pointee
            let go = function == "push" ? navigator.push! : function == "replace" ? navigator.replace! : navigator.root!
            return reply(frame, Int64(try string(fields, "link").withCString { go(host, $0) }))
        case (WH_SERVICE_NAVIGATOR, "pop"):
            return reply(frame, Int64(table.assumingMemoryBound(to: wh_navigator_v1.self).pointee.pop!(host)))
        default:
            throw Violation(description: "called \(function) on \(service), which has no such function")
        }
    }

    private func reply(_ frame: Frame, _ result: Int64, body: [UInt8] = []) -> Frame {
        Frame(.reply, id: frame.id, fields: ["result": .int(result)], body: body)
    }

    /// Runs a service function with a sink the host owns, and replies with
    /// what it wrote.
    private func withOutput(_ frame: Frame, _ call: (UnsafePointer<wh_output>) throws(Violation) -> Int32) throws(Violation) -> Frame {
        let buffer = OutputBuffer(limit: Self.outputLimit)
        var status: Int32 = 0
        var failure: Violation?
        buffer.withOutput { out in
            do throws(Violation) { status = try call(out) } catch { failure = error }
        }
        if let failure { throw failure }
        return reply(frame, Int64(status), body: buffer.bytes)
    }

    private func string(_ fields: JSONValue, _ key: String) throws(Violation) -> String {
        guard let value = fields[key]?.string else { throw Violation(description: "sent a service call whose \(key) is not a string") }
        return value
    }

    private func integer(_ fields: JSONValue, _ key: String) throws(Violation) -> Int64 {
        guard let value = fields[key]?.int64 else { throw Violation(description: "sent a service call whose \(key) is not an integer") }
        return value
    }
}
