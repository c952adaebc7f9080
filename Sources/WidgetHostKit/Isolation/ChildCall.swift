/// A call the host makes of an isolated plugin's process: the one
/// description of the host-to-child half of the protocol (the child-to-host
/// half is the service catalogue). The host encodes it, the child decodes
/// it, so neither side spells a key of the other's.
enum ChildCall: Equatable {
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

    /// The call's name on the wire, which is also whose deadline it has.
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

    /// The frame's fields: the call's name, then its arguments.
    var fields: JSONValue {
        let call = ("call", JSONValue.string(name.rawValue))
        // One array each, built whole: this runs on every call.
        return switch self {
        case let .load(manifest), let .create(manifest): .object([call, ("manifest", manifest)])
        case let .render(screen, params): .object([call, ("screen", .string(screen)), ("params", params)])
        case let .query(id): .object([call, ("query", .string(id))])
        case let .action(action, value): .object([call, ("action", .string(action)), ("value", .optional(value))])
        case let .event(topic, payload): .object([call, ("topic", .string(topic)), ("payload", .string(payload))])
        case .destroy: .object([call])
        }
    }

    /// The call `fields` describe; nil for an unknown call or a missing argument.
    init?(fields: JSONValue) {
        guard let name = fields["call"]?.string.flatMap(PluginRunSettings.Call.init(rawValue:)) else { return nil }
        func text(_ key: String) -> String? { fields[key]?.string }
        switch name {
        case .load: self = .load(manifest: fields["manifest"] ?? .null)
        case .create: self = .create(manifest: fields["manifest"] ?? .null)
        case .render:
            guard let screen = text("screen"), case let params = fields["params"] ?? [:], case .object = params else { return nil }
            self = .render(screen: screen, params: params)
        case .query:
            guard let id = text("query") else { return nil }
            self = .query(id)
        case .action:
            guard let action = text("action") else { return nil }
            self = .action(action, value: text("value"))
        case .event:
            guard let topic = text("topic"), let payload = text("payload") else { return nil }
            self = .event(topic: topic, payload: payload)
        case .destroy: self = .destroy
        }
    }
}
