import Glibc
import PluginABI

/// One host service, described once: its versioned id, its functions and
/// its C table. Everything else follows from it:
///
/// - in process, the table's functions run the functions' bodies against the
///   calling plugin's `PluginContext`;
/// - in an isolated plugin's process the very same table is handed out, and
///   the same C functions, finding no context there, forward the call to the
///   host (`ServiceFunction.call`);
/// - the host's proxy (`HostServiceProxy`) finds the function by its service
///   and name here, checks the arguments against their kinds and runs the same
///   body.
///
/// So a service cannot exist in one mode and not the other, and the names on
/// both ends of a forwarded call are one value, not two strings kept equal by
/// hand. `ServiceCatalog.all` lists the descriptions.
struct ServiceDescription: @unchecked Sendable {
    let id: String
    let functions: [ServiceFunction]
    /// Whether the registry hands the table out under `id`; a contract's
    /// table is reached through the contract's own id instead.
    let grantedByID: Bool
    /// The C table (`wh_*_v1`) as the registry holds it.
    let table: ServiceTable
    /// Where the C table's function pointers are, in pointer-sized slots,
    /// to check against `functions` (a test does): all of it, but for a
    /// contract table's id, which comes first.
    let functionSlots: Range<Int>

    /// `table` is the C struct, in static storage for the life of the
    /// process; each of its function pointers is the C edge of one function
    /// (NULL checks, C to Swift values) and calls that function's `call`.
    init<Table>(_ id: String, _ functions: [ServiceFunction], table: Table, grantedByID: Bool = true) {
        precondition(functions.allSatisfy { $0.service == id }, "a function of \(id) names another service")
        self.id = id
        self.functions = functions
        self.grantedByID = grantedByID
        let pointer = UnsafeMutablePointer<Table>.allocate(capacity: 1)
        pointer.initialize(to: table)
        self.table = ServiceTable(id: id, pointer: UnsafeRawPointer(pointer))
        functionSlots = (grantedByID ? 0 : 1)..<(MemoryLayout<Table>.size / MemoryLayout<UnsafeRawPointer>.size)
    }

    func function(_ name: String) -> ServiceFunction? {
        functions.first { $0.name == name }
    }
}

/// One function of a service table, in the form both modes share.
struct ServiceFunction: Sendable {
    /// What an argument is on the wire; the host's proxy refuses a forwarded
    /// call whose arguments do not match (a forged frame).
    enum Kind: Sendable {
        case int, text, optionalText, bytes
    }

    let service: String
    let name: String
    let arguments: [Kind]
    /// Whether the function writes into a `wh_output` the plugin passes.
    var writesOutput = false
    /// Where the host runs a call forwarded from an isolated plugin.
    var runs = Placement.onReader
    /// The answer when there is no one to ask: a call through a `wh_host`
    /// whose instance is gone, or one too large to forward.
    let fallback: Int64
    /// The answer when the host wrote output that the plugin's own sink then
    /// refused (nil: the result stands), so that a forwarded call answers as
    /// an in-process one, whose body saw the refusal itself.
    var whenSinkRefuses: Int64? = nil
    let body: @Sendable (PluginContext, ServiceArguments, ServiceOutput?) -> Int64

    /// Runs the function for the plugin behind `host`: here, when the host
    /// is a `PluginContext`'s, or in the host process, when this is an
    /// isolated plugin's process.
    func call(_ host: UnsafePointer<wh_host>?, _ values: [ServiceValue], _ out: UnsafePointer<wh_output>? = nil) -> Int64 {
        if let context = PluginContext.from(host) {
            return body(context, ServiceArguments(values), out.map { ServiceOutput($0) })
        }
        // Only the isolated process's own wh_host speaks for the plugin there.
        guard let link = ChildLink.shared, host == UnsafePointer(ChildServices.host) else { return fallback }
        var body: [UInt8] = []
        let wire: [JSONValue] = values.map { value in
            switch value {
            case let .int(number): return .int(number)
            case let .text(text): return .string(text)
            case .none: return .null
            case let .bytes(bytes):
                body = bytes
                return .null
            }
        }
        guard let reply = link.service(service, name, [("args", .array(wire))], body: body),
              let result = reply.fields["result"]?.int64 else { return fallback }
        if let out, !reply.body.isEmpty, !ServiceOutput(out).write(reply.body), let refused = whenSinkRefuses {
            return refused
        }
        return result
    }

    /// A forwarded call's arguments, checked against their kinds; nil names
    /// what is wrong.
    func decode(_ wire: JSONValue?, body: [UInt8]) -> Result<ServiceArguments, ServiceCallError> {
        guard let items = wire?.array, items.count == arguments.count else {
            return .failure(ServiceCallError("sent \(service) \(name) with other than \(arguments.count) arguments"))
        }
        var values: [ServiceValue] = []
        for (kind, item) in zip(arguments, items) {
            switch (kind, item) {
            case (.int, _) where item.int64 != nil: values.append(.int(item.int64!))
            case (.text, .string(let text)), (.optionalText, .string(let text)): values.append(.text(text))
            case (.optionalText, .null): values.append(.none)
            case (.bytes, .null): values.append(.bytes(body))
            default: return .failure(ServiceCallError("sent \(service) \(name) an argument that is not \(kind)"))
            }
        }
        return .success(ServiceArguments(values))
    }
}

/// Where the host runs a forwarded call: most are quick and run on the thread
/// that reads the plugin's frames.
enum Placement: Sendable {
    case onReader
    /// May take seconds (an http GET): off the reader thread, so that other
    /// frames keep flowing.
    case offReader
    /// Must run on the thread that is waiting for the plugin's answer to the
    /// host's call (a contract asks another plugin, which only that thread
    /// may call); refused when the host is not calling the plugin.
    case onWaitingCaller
}

struct ServiceCallError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// An argument as both modes carry it.
enum ServiceValue: Sendable {
    case int(Int64)
    case text(String)
    case none
    case bytes([UInt8])

    /// A plugin's C string as text; invalid UTF-8 is replaced. Only for a
    /// log message, which is shown, never acted on: losing the line would
    /// hide what the plugin meant to say.
    static func lossyCString(_ pointer: UnsafePointer<CChar>) -> ServiceValue {
        .text(lossyText(pointer))
    }

    /// A plugin's C string as text, or nil unless it is well-formed UTF-8:
    /// a key, link, URL or topic with an overlong form or an encoded
    /// surrogate is refused, never repaired into another name.
    static func cString(_ pointer: UnsafePointer<CChar>) -> ServiceValue? {
        strictText(pointer).map(ServiceValue.text)
    }
}

/// A function's arguments, in the order of its `arguments`. The kinds were
/// checked where the values were made (the C edge, or `decode`), so reading
/// one of another kind is a programming error.
struct ServiceArguments {
    private let values: [ServiceValue]
    init(_ values: [ServiceValue]) { self.values = values }

    func int(_ index: Int) -> Int64 {
        guard case let .int(value) = values[index] else { preconditionFailure("argument \(index) is not an int") }
        return value
    }

    func text(_ index: Int) -> String? {
        switch values[index] {
        case let .text(value): value
        case .none: nil
        default: preconditionFailure("argument \(index) is not text")
        }
    }

    func bytes(_ index: Int) -> [UInt8] {
        guard case let .bytes(value) = values[index] else { preconditionFailure("argument \(index) is not bytes") }
        return value
    }
}

/// The sink a function writes its output into: the plugin's own in process,
/// a host buffer of `limit` bytes when the call was forwarded.
struct ServiceOutput {
    let sink: UnsafePointer<wh_output>
    let limit: Int

    init(_ sink: UnsafePointer<wh_output>, limit: Int = .max) {
        self.sink = sink
        self.limit = limit
    }

    /// False if the sink refused.
    func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    func write(_ bytes: [UInt8]) -> Bool {
        guard let write = sink.pointee.write else { return false }
        return bytes.withUnsafeBytes { raw in
            write(sink, raw.baseAddress?.assumingMemoryBound(to: CChar.self), UInt64(raw.count)) == 0
        }
    }
}

/// A plugin's C string as Swift text; invalid UTF-8 is replaced.
func lossyText(_ pointer: UnsafePointer<CChar>) -> String {
    String(decoding: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)), as: UTF8.self)
}

/// A plugin's C string as Swift text, or nil unless it is well-formed UTF-8:
/// overlong (non-shortest) forms and encoded surrogates, which `bus.h`
/// forbids, are refused rather than repaired into valid text.
func strictText(_ pointer: UnsafePointer<CChar>) -> String? {
    String(validatingCString: pointer)
}
