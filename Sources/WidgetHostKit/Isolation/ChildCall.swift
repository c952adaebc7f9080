/// A call the host makes of an isolated plugin's process: the one
/// description of the host-to-child half of the protocol (the child-to-host
/// half is the service catalogue). The host writes it, the child reads it,
/// so neither side spells the other's layout.
///
/// On the wire, a call frame's head: the call's code (one byte, `Code`),
/// then its arguments in order, each a text (a u32 little-endian length and
/// UTF-8), an optional text (a byte, 0 for none or 1, then the text) or a
/// JSON value (`FrameFields`).
enum ChildCall: Equatable, Sendable {
    /// The load handshake alone, against the manifest the host read.
    case load(manifest: JSONValue)
    /// The handshake if not yet made, then the plugin's `create`.
    case create(manifest: JSONValue)
    /// `params` is the screen's parameters, a JSON object (plugin.h).
    case render(screen: String, params: JSONValue)
    case query(String)
    case action(String, value: String?)
    case event(topic: String, payload: String)
    case destroy

    /// The call's name, which is also whose deadline it has.
    var name: PluginRunSettings.Call {
        switch self {
        case .load: .load
        case .create: .create
        case .render: .render
        case .query: .query
        case .action: .action
        case .event: .event
        case .destroy: .destroy
        }
    }

    /// A call's first byte. Append-only: a code once given keeps its meaning.
    private enum Code: UInt8 {
        case load = 1, create, render, query, action, event, destroy
    }

    func write(to out: FrameWriter) {
        switch self {
        case let .load(manifest):
            out.append(Code.load.rawValue)
            FrameFields.write(manifest, to: out)
        case let .create(manifest):
            out.append(Code.create.rawValue)
            FrameFields.write(manifest, to: out)
        case let .render(screen, params):
            out.append(Code.render.rawValue)
            FrameFields.writeText(screen, to: out)
            FrameFields.write(params, to: out)
        case let .query(id):
            out.append(Code.query.rawValue)
            FrameFields.writeText(id, to: out)
        case let .action(action, value):
            out.append(Code.action.rawValue)
            FrameFields.writeText(action, to: out)
            if let value {
                out.append(1)
                FrameFields.writeText(value, to: out)
            } else {
                out.append(0)
            }
        case let .event(topic, payload):
            out.append(Code.event.rawValue)
            FrameFields.writeText(topic, to: out)
            FrameFields.writeText(payload, to: out)
        case .destroy:
            out.append(Code.destroy.rawValue)
        }
    }

    /// The call a head holds; an unknown code, a missing argument or
    /// parameters that are not an object break the protocol.
    init(reading reader: inout FrameFields.Reader) throws(FrameError) {
        let byte = try reader.byte()
        guard let code = Code(rawValue: byte) else { throw .malformed("its head names an unknown call \(byte)") }
        switch code {
        case .load: self = .load(manifest: try reader.value(depth: 0))
        case .create: self = .create(manifest: try reader.value(depth: 0))
        case .render:
            let screen = try reader.text()
            let params = try reader.value(depth: 0)
            // Screen parameters are an object, never JSON text inside a string.
            guard params.isObject else { throw .malformed("its render parameters are not an object") }
            self = .render(screen: screen, params: params)
        case .query: self = .query(try reader.text())
        case .action:
            let action = try reader.text()
            switch try reader.byte() {
            case 0: self = .action(action, value: nil)
            case 1: self = .action(action, value: try reader.text())
            case let other: throw .malformed("its action's value is marked \(other), neither 0 nor 1")
            }
        case .event: self = .event(topic: try reader.text(), payload: try reader.text())
        case .destroy: self = .destroy
        }
    }
}
