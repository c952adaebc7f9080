/// A widget's own small state that survives a restart: one JSON document
/// under a key of the widget's own store group, which the host writes
/// atomically (temp file and rename) and which is the same in both modes.
/// The manifest declares `widget-host.store/1` and the group read-write
/// (`"store": {"groups": {"crypto": "read-write"}}`).
public struct WidgetState {
    private let host: Host
    public let key: String

    /// `key` is GROUP.NAME in a group the manifest declares read-write.
    public init(host: Host, key: String) {
        self.host = host
        self.key = key
    }

    /// What was saved, nil when nothing was or it no longer parses (a widget
    /// then starts afresh; what it finds is never trusted to be well-formed).
    public func load() -> JSONValue? {
        guard let bytes = try? host.storeGet(key) else { return nil }
        return try? JSONParser.parse(bytes)
    }

    public func save(_ value: JSONValue) throws(Host.StoreFailure) {
        try host.storePut(key, Array(value.serialized.utf8))
    }
}
