/// The shared container's groups, as App Groups partition the original's:
/// a key's group is the part before its first dot (`trips.bookings` is in
/// `trips`), and a plugin reaches a key only through a group its manifest
/// declares, for reading or for reading and writing:
/// `"store": {"groups": {"trips": "read", "checkout": "read-write"}}`.
/// A key without a dot is in no group: only the app side (`widget-host
/// store`) reaches it. The same rule decides which `store.changed` events a
/// plugin receives, so a change in a group it cannot read is never news to it.
public enum StoreGroups {
    public enum Access: String, Sendable {
        case read
        case readWrite = "read-write"
    }

    public struct Grant: Equatable, Sendable {
        public let group: String
        public let access: Access
    }

    /// The group of `key`, nil when it has none.
    public static func group(of key: String) -> String? {
        guard let dot = key.firstIndex(of: "."), dot != key.startIndex else { return nil }
        return String(key[..<dot])
    }

    /// Why `name` is not a group name, or nil if it is: a key's first part,
    /// 1 to 64 of [A-Za-z0-9_-] starting with a letter or digit.
    public static func problem(withGroup name: String) -> String? {
        guard (1...64).contains(name.utf8.count), !name.contains("."), SharedStore.problem(withKey: name) == nil else {
            return "\"\(name)\" is not a group name: 1 to 64 letters, digits, '_' or '-', starting with a letter or digit"
        }
        return nil
    }

    /// The manifest's `"store"` field; absent, it grants no group.
    static func grants(from store: JSONValue?) throws(ManifestError) -> [Grant] {
        guard let store, store != .null else { return [] }
        let shape = "manifest field \"store\" must be an object such as {\"groups\": {\"trips\": \"read\"}}"
        guard store.isObject else { throw ManifestError(shape) }
        guard let groups = store["groups"], groups != .null else { return [] }
        guard case let .object(members) = groups else { throw ManifestError(shape) }
        var grants: [Grant] = []
        for (name, value) in members {
            if let problem = problem(withGroup: name) { throw ManifestError("manifest store.groups: \(problem)") }
            guard let access = value.string.flatMap(Access.init(rawValue:)) else {
                throw ManifestError("manifest store.groups: group \"\(name)\" must be \"read\" or \"read-write\", not \(value.serialized)")
            }
            guard !grants.contains(where: { $0.group == name }) else { throw ManifestError("manifest store.groups lists \"\(name)\" twice") }
            grants.append(Grant(group: name, access: access))
        }
        return grants.sorted { $0.group < $1.group }
    }

    /// Why the plugin may not read (or, `writing`, change) `key`, or nil if it may.
    static func denial(of key: String, writing: Bool, for manifest: Manifest) -> String? {
        let verb = writing ? "write" : "read"
        guard let group = group(of: key) else {
            return "denied store \(verb) of '\(key)': the key is in no group (a plugin reaches only GROUP.NAME keys)"
        }
        guard let grant = manifest.storeGroups.first(where: { $0.group == group }) else {
            return "denied store \(verb) of '\(key)': its manifest declares no store group \"\(group)\""
        }
        guard !writing || grant.access == .readWrite else {
            return "denied store write of '\(key)': its manifest declares store group \"\(group)\" read-only"
        }
        return nil
    }

    /// Whether a `store.changed` event (or any other) may reach the plugin.
    static func mayReceive(_ event: BusEvent, manifest: Manifest) -> Bool {
        guard event.topic == SharedStore.changeTopic else { return true }
        guard let key = (try? JSONParser.parse(event.payload))?["key"]?.string else { return false }
        return denial(of: key, writing: false, for: manifest) == nil
    }

    /// The grants in words, as `info` and `install` show them.
    static func text(_ grants: [Grant]) -> String {
        grants.isEmpty ? "none" : grants.map { "\($0.group) (\($0.access.rawValue))" }.joined(separator: ", ")
    }
}
