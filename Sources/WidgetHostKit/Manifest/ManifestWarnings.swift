/// What a person should know about a manifest before trusting it, said the
/// same way by `list`, `info`, `validate` and `install`: keys the host does
/// not know (a misspelt grant, `"htpp"`, is otherwise silently no grant),
/// and grants wider than they look (`"hosts": ["*"]`).
public enum ManifestWarnings {
    /// The keys the host reads, by the object they are in ("" is the top
    /// level, "screens[]" each screen).
    static let knownKeys: [String: [String]] = [
        "": ["abi", "id", "name", "version", "vendor", "description", "screens", "services", "topics", "contracts", "http", "store", "refreshes", "sizes",
             "settings"],
        "settings[]": ["key", "type", "default", "values", "minimum", "maximum", "help"],
        "screens[]": ["id", "title", "actions"],
        "services": ["required", "optional"],
        "topics": ["publish", "subscribe"],
        "contracts": ["provides", "requires"],
        "http": ["hosts"],
        "store": ["groups"],
    ]

    /// A key the host does not know, and the known key it is closest to.
    public struct UnknownKey: Equatable, Sendable, CustomStringConvertible {
        public let path: String
        public let suggestion: String?

        public var description: String {
            "unknown manifest key \"\(path)\"" + (suggestion.map { " (did you mean \"\($0)\"?)" } ?? "")
        }
    }

    /// Every warning about `manifest`, in words.
    public static func warnings(for manifest: Manifest) -> [String] {
        var warnings = unknownKeys(in: manifest.json).map(\.description)
        if manifest.httpHosts.contains(HTTPAllowList.anyHost) {
            warnings.append("http.hosts is \"*\": the plugin may reach any host on the network")
        }
        return warnings
    }

    /// Whether `validate` fails on the manifest's unknown keys: it does,
    /// unless the manifest speaks an ABI minor newer than this host, whose
    /// keys this host cannot know.
    public static func unknownKeysFail(_ manifest: Manifest) -> Bool {
        !(manifest.abi.major == ABIVersion.host.major && manifest.abi.minor > ABIVersion.host.minor)
    }

    /// A warning for each contract the manifest requires that none of `provided` answers.
    public static func missingContracts(of manifest: Manifest, provided: Set<String>) -> [String] {
        manifest.requiredContracts.filter { !provided.contains($0) }.map {
            "requires contract \($0), which no installed plugin provides"
        }
    }

    /// Every contract some usable plugin among `plugins` provides.
    public static func providedContracts(_ plugins: [PluginCandidate]) -> Set<String> {
        Set(plugins.filter { $0.status == .ok }.flatMap { $0.manifest?.providedContracts ?? [] })
    }

    /// The warnings about `plugin` that list, info and launch show, the
    /// missing contracts among them when `provided` is known.
    public static func warnings(for plugin: PluginCandidate, provided: Set<String>?) -> [String] {
        guard let manifest = plugin.manifest else { return [] }
        return warnings(for: manifest) + (provided.map { missingContracts(of: manifest, provided: $0) } ?? [])
    }

    public static func unknownKeys(in json: JSONValue) -> [UnknownKey] {
        var found: [UnknownKey] = []
        unknown(in: json, scope: "", prefix: "", into: &found)
        for (index, screen) in (json["screens"]?.array ?? []).enumerated() {
            unknown(in: screen, scope: "screens[]", prefix: "screens[\(index)].", into: &found)
        }
        for (index, setting) in (json["settings"]?.array ?? []).enumerated() {
            unknown(in: setting, scope: "settings[]", prefix: "settings[\(index)].", into: &found)
        }
        for scope in ["services", "topics", "contracts", "http", "store"] {
            if let nested = json[scope] { unknown(in: nested, scope: scope, prefix: scope + ".", into: &found) }
        }
        return found
    }

    /// The prefix is made only for a key that is unknown: every listing
    /// checks every manifest, and almost none has one.
    private static func unknown(in json: JSONValue, scope: String, prefix: @autoclosure () -> String, into found: inout [UnknownKey]) {
        guard case let .object(members) = json, let known = knownKeys[scope] else { return }
        for (key, _) in members where !known.contains(key) {
            let prefix = prefix()
            found.append(UnknownKey(path: prefix + key, suggestion: Suggestions.closest(to: key, among: known).map { prefix + $0 }))
        }
    }
}
