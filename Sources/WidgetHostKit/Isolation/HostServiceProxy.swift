import PluginABI

/// The host's half of an isolated plugin's service calls. A call from the
/// child names its service and function; the function is found in the
/// `ServiceCatalog`, its arguments are checked against their kinds, and the
/// same body an in-process call runs is run on the host-side
/// `PluginContext`, so every capability check (declared services, topics,
/// http hosts) happens here, in the host, exactly as it does in process.
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

    /// Where the call must run (an http GET off the thread that reads the
    /// child's frames); a malformed frame is refused on the reader.
    static func placement(of frame: Frame) -> Placement {
        function(of: frame)?.runs ?? .onReader
    }

    private static func function(of frame: Frame) -> ServiceFunction? {
        guard let service = frame.fields["service"]?.string, let name = frame.fields["fn"]?.string else { return nil }
        return ServiceCatalog.function(service, name)
    }

    func perform(_ frame: Frame) throws(Violation) -> Frame {
        let fields = frame.fields
        guard let name = fields["fn"]?.string else { throw Violation(description: "sent a service call without a function") }
        if name == "get_service" {
            guard let id = fields["id"]?.string else { throw Violation(description: "sent get_service without an id") }
            return reply(frame, granted(id) ? 1 : 0)
        }
        guard let service = fields["service"]?.string else { throw Violation(description: "sent a service call without a service") }
        // A contract's ask is granted per contract, which its body checks.
        guard ServiceCatalog.service(service)?.grantedByID == false || context.service(service) != nil else {
            throw Violation(description: "called service \(service), which it was not granted")
        }
        guard let function = ServiceCatalog.function(service, name) else {
            throw Violation(description: "called \(name) on \(service), which has no such function")
        }
        let arguments: ServiceArguments
        switch function.decode(fields["args"], body: frame.body) {
        case let .success(decoded): arguments = decoded
        case let .failure(error): throw Violation(description: error.description)
        }
        guard function.writesOutput else { return reply(frame, function.body(context, arguments, nil)) }
        let buffer = OutputBuffer(limit: Self.outputLimit)
        let result = buffer.withOutput { function.body(context, arguments, ServiceOutput($0, limit: Self.outputLimit)) }
        return reply(frame, result, body: buffer.bytes)
    }

    /// The child hands out the catalog's tables, so a service the registry
    /// grants but the catalog does not describe (it could not be forwarded)
    /// is refused, and said so, rather than silently NULL.
    private func granted(_ id: String) -> Bool {
        guard id.withCString({ context.host.pointee.get_service!(context.host, $0) }) != nil else { return false }
        guard ServiceCatalog.table(for: id) != nil else {
            context.log.warning("asked for service \(id), which the host has but cannot forward to an isolated plugin")
            return false
        }
        return true
    }

    private func reply(_ frame: Frame, _ result: Int64, body: [UInt8] = []) -> Frame {
        Frame(.reply, id: frame.id, fields: ["result": .int(result)], body: body)
    }
}
