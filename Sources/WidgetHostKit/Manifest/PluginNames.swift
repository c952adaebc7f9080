/// How a person names a plugin, the one rule every command and the
/// navigator share: its full id, or, when only one plugin answers to it, the
/// last segment of its id or its display name, in any case ("trips",
/// "My Trips", "org.widgethost.trips").
public enum PluginNames {
    public enum Resolution: Equatable, Sendable {
        case found(PluginID)
        /// More than one plugin answers to the name: these ids.
        case ambiguous([String])
        /// None does.
        case unknown
    }

    public static func resolve(_ name: String, among manifests: [Manifest]) -> Resolution {
        Index(manifests).resolve(name)
    }

    /// The names of many plugins, read once: resolving each of a thousand
    /// plugins' short names (as every configuration does) is then a
    /// thousand lookups, not a million comparisons of lowercased strings.
    public struct Index: Sendable {
        private var byID: [String: PluginID] = [:]
        /// Each id, last segment and display name, lowercased, with the
        /// ids that answer to it, in the order the manifests came.
        private var byName: [String: [PluginID]] = [:]

        public init(_ manifests: [Manifest]) {
            for manifest in manifests {
                let id = manifest.id
                byID[id.value] = id
                let names = [id.value.lowercased(), id.shortName.lowercased(), manifest.name.lowercased()]
                for (index, name) in names.enumerated() where !names[..<index].contains(name) {
                    byName[name, default: []].append(id)
                }
            }
        }

        public func resolve(_ name: String) -> Resolution {
            if let exact = byID[name] { return .found(exact) }
            let matches = byName[name.lowercased()] ?? []
            let distinct = Set(matches.map(\.value))
            guard distinct.count <= 1 else { return .ambiguous(distinct.sorted()) }
            return matches.first.map { .found($0) } ?? .unknown
        }
    }

    /// Why `name` names no one plugin, with the names that come close (or
    /// the plugins there are) so the next try can succeed.
    public static func failure(_ name: String, _ resolution: Resolution, among manifests: [Manifest]) -> String {
        if case let .ambiguous(ids) = resolution {
            return "'\(name)' is ambiguous: it could be \(ids.joined(separator: " or ")); use the full id"
        }
        // Names match in any case, so "Crypto" and "crypto" are one suggestion.
        var seen: Set<String> = []
        let known = manifests.flatMap { [$0.id.value, $0.id.shortName, $0.name] }.filter { seen.insert($0.lowercased()).inserted }
        if let close = Suggestions.closest(to: name, among: known, limit: 3) {
            return "no plugin named '\(name)'. Did you mean: \(close.joined(separator: ", "))?"
        }
        let available = Set(manifests.map(\.id.value)).sorted()
        return "no plugin named '\(name)'" + (available.isEmpty ? "; no plugins were found" : ". Plugins found: \(available.joined(separator: ", "))")
    }
}
