import Glibc

/// The host configuration: one JSON file with a section per plugin.
///
///     { "plugins": { "checkout": { "currencyCode": "USD" },
///                    "org.widgethost.crypto": { "refreshSeconds": 30 } } }
///
/// A section may be keyed by a plugin's full id or by its last segment; when
/// both exist their keys merge and the full id's win. `--set PLUGIN.KEY=VALUE`
/// overrides one key (VALUE is JSON if it parses as JSON, else a string).
///
/// A last segment addresses a plugin only while it names that one plugin on
/// the search path (`addressShortNames`, with the resolver `launch` uses):
/// otherwise `org.example.checkout` would read the section, API keys and all,
/// meant for the shipped Checkout. A short name that names several plugins
/// applies to none of them, and `shortNameWarnings` says so.
public struct HostConfig: Sendable, Equatable {
    public private(set) var root: JSONValue
    private var overrides: [(plugin: String, key: String, value: JSONValue)] = []
    /// Each short name and the one plugin it addresses; nil until the search
    /// path is known (then every short name addresses its plugins, as a
    /// configuration built by hand for one plugin expects).
    private var shortNames: [String: PluginID]?
    /// The short names used here that name several plugins, with their ids.
    public private(set) var ambiguousShortNames: [String: [String]] = [:]

    public static let empty = HostConfig(root: .object([]))

    /// The PLUGIN part of each `--set`, to warn about names no plugin has.
    public var overriddenPlugins: [String] { overrides.map(\.plugin) }

    public init(root: JSONValue) {
        self.root = root
    }

    public static func == (a: HostConfig, b: HostConfig) -> Bool {
        a.root == b.root && a.shortNames == b.shortNames && a.overrides.count == b.overrides.count
            && zip(a.overrides, b.overrides).allSatisfy { $0.plugin == $1.plugin && $0.key == $1.key && $0.value == $1.value }
    }

    /// The default location: `$XDG_CONFIG_HOME/widget-host/config.json`.
    public static func defaultPath(_ environment: [String: String]) -> String {
        UserDirectories.config(environment) + "/widget-host/config.json"
    }

    /// Reads the file at `path`. A missing file is an empty configuration
    /// unless the user named it (`--config`), when it is an error.
    public static func load(path: String, required: Bool) throws(ConfigError) -> HostConfig {
        let bytes: [UInt8]
        do {
            let file = try ReadOnlyFile(path: path)
            guard file.size <= 16 << 20 else { throw ConfigError(path: path, message: "the file is over 16 MiB") }
            bytes = try file.read(offset: 0, count: Int(file.size))
        } catch let error as ConfigError {
            throw error
        } catch FileError.system(_, _, ENOENT) where !required {
            return .empty
        } catch {
            throw ConfigError(path: path, message: "\(error)")
        }
        let root: JSONValue
        do { root = try JSONParser.parse(bytes) } catch { throw ConfigError(path: path, message: "\(error)") }
        guard root.isObject else { throw ConfigError(path: path, message: "the configuration must be a JSON object") }
        if let plugins = root["plugins"] {
            guard case let .object(sections) = plugins else {
                throw ConfigError(path: path, message: "\"plugins\" must be an object with a section per plugin")
            }
            if let bad = sections.first(where: { !$0.1.isObject }) {
                throw ConfigError(path: path, message: "the section for \"\(bad.0)\" must be a JSON object")
            }
        }
        if let host = root["host"] {
            guard host.isObject else { throw ConfigError(path: path, message: "\"host\" must be an object of the host's settings") }
            // Checked where every command reads the file, not where a command happens to run plugins: list, timeline and
            // config would otherwise pass a bad value without a word, and launch would report it only after scanning.
            do { _ = try PluginRunSettings(config: HostConfig(root: root)) } catch { throw ConfigError(path: path, message: error.message) }
        }
        return HostConfig(root: root)
    }

    /// Applies `PLUGIN.KEY=VALUE`, where PLUGIN is an id or a last segment.
    public mutating func set(_ assignment: String) throws(UsageError) {
        guard let equals = assignment.firstIndex(of: "="), let dot = assignment[..<equals].lastIndex(of: ".") else {
            throw UsageError("--set takes PLUGIN.KEY=VALUE, such as checkout.amount=250.00; got '\(assignment)'")
        }
        let plugin = String(assignment[..<dot]), key = String(assignment[assignment.index(after: dot)..<equals])
        guard !plugin.isEmpty, !key.isEmpty else {
            throw UsageError("--set takes PLUGIN.KEY=VALUE, such as checkout.amount=250.00; got '\(assignment)'")
        }
        let text = String(assignment[assignment.index(after: equals)...])
        let value = (try? JSONParser.parse(text)) ?? .string(text)
        overrides.append((plugin, key, value))
    }

    /// Lets each short name address only the one plugin among `manifests`
    /// it names, as `launch` would resolve it; notes those that name several.
    public mutating func addressShortNames(among manifests: [Manifest]) {
        var owners: [String: PluginID] = [:]
        var ambiguous: [String: [String]] = [:]
        let names = PluginNames.Index(manifests)
        for manifest in manifests {
            switch names.resolve(manifest.id.shortName) {
            case let .found(id) where id == manifest.id: owners[manifest.id.shortName] = id
            case let .ambiguous(ids): ambiguous[manifest.id.shortName] = ids
            default: continue
            }
        }
        shortNames = owners
        var used = Set(overrides.map(\.plugin))
        if case let .object(sections)? = root["plugins"] { used.formUnion(sections.map(\.0)) }
        ambiguousShortNames = ambiguous.filter { used.contains($0.key) }
    }

    /// Whether `name` (a section's key or a `--set`'s PLUGIN) addresses `id`.
    private func addresses(_ name: String, _ id: PluginID) -> Bool {
        name == id.value || (name == id.shortName && (shortNames == nil || shortNames?[name] == id))
    }

    /// The section a plugin sees: its own keys and nothing else.
    public func section(for id: PluginID) -> JSONValue {
        var members: [(String, JSONValue)] = []
        func merge(_ section: JSONValue?) {
            guard case let .object(pairs)? = section else { return }
            for (key, value) in pairs {
                if let index = members.firstIndex(where: { $0.0 == key }) { members[index].1 = value } else { members.append((key, value)) }
            }
        }
        if addresses(id.shortName, id) { merge(root["plugins"]?[id.shortName]) }
        merge(root["plugins"]?[id.value])
        for override in overrides where addresses(override.plugin, id) {
            merge(.object([(override.key, override.value)]))
        }
        return .object(members)
    }

    /// A host-wide setting from the "host" object.
    public func hostSetting(_ key: String) -> JSONValue? { root["host"]?[key] }
}

public struct ConfigError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let message: String
    public var description: String { "configuration \(path): \(message)" }
}
