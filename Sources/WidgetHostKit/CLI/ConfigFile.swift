import Glibc

/// The configuration file as `config set` and `config unset` edit it: read
/// and checked as every command reads it (a malformed file is refused and
/// left as it is), one key changed in the plugin's section, the rest kept
/// (every other value, and the order of keys), then written to a temporary
/// file beside it and renamed over it, so no reader ever sees half a file.
struct ConfigFile {
    let path: String
    private(set) var root: JSONValue

    /// The file at `path`; a missing one is empty, and `save` creates it.
    static func open(_ path: String) throws(ConfigError) -> ConfigFile {
        ConfigFile(path: path, root: try HostConfig.load(path: path, required: false).root)
    }

    /// The name of the section that holds `manifest`'s settings: the one
    /// its full id names, else the one its short name names (while that name
    /// is its alone among `manifests`, the #23 rule), else a new one named
    /// the short way when that is unambiguous.
    func sectionName(for manifest: Manifest, among manifests: [Manifest]) -> String {
        let short = manifest.id.shortName
        let shortIsItsOwn = PluginNames.resolve(short, among: manifests) == .found(manifest.id)
        if root["plugins"]?[manifest.id.value] != nil || !shortIsItsOwn { return manifest.id.value }
        return short
    }

    /// The section `manifest` would see from the file alone (the full id's
    /// keys win over the short name's).
    func section(for manifest: Manifest, among manifests: [Manifest]) -> JSONValue {
        var config = HostConfig(root: root)
        config.addressShortNames(among: manifests)
        return config.section(for: manifest.id)
    }

    /// The setting `key` of `manifest`, or nil when the widget declares none;
    /// a key it does not declare is refused, naming the ones it does.
    static func declared(_ manifest: Manifest, _ key: String) throws(UsageError) -> DeclaredSetting? {
        guard let settings = manifest.settings else { return nil }
        guard let setting = settings.first(where: { $0.key == key }) else { throw UsageError(SettingsCheck.unknownKey(manifest, key)) }
        return setting
    }

    /// `text` as the value of `key` the person means (read as the declared
    /// type), checked against the declaration: the one check of `config set`
    /// and the dashboard's settings screen. A refusal names the setting and the widget.
    static func checkedValue(_ text: String, key: String, of manifest: Manifest) throws(UsageError) -> JSONValue {
        let setting = try declared(manifest, key)
        let value = setting.map { $0.value(fromText: text) } ?? ((try? JSONParser.parse(text)) ?? .string(text))
        if let problem = SettingsCheck.problem(manifest, key: key, value: value) { throw UsageError(problem) }
        return value
    }

    mutating func set(_ key: String, to value: JSONValue, section: String) {
        var sections = root["plugins"]?.members ?? []
        var members = sections.first { $0.0 == section }?.1.members ?? []
        Self.put(key, value, into: &members)
        Self.put(section, .object(members), into: &sections)
        var top = root.members ?? []
        Self.put("plugins", .object(sections), into: &top)
        root = .object(top)
    }

    /// Removes `key` from each of `sections`; a section left empty goes too.
    /// Whether there was anything to remove.
    mutating func unset(_ key: String, sections names: [String]) -> Bool {
        guard var sections = root["plugins"]?.members else { return false }
        var removed = false
        for name in names {
            guard let index = sections.firstIndex(where: { $0.0 == name }), var members = sections[index].1.members,
                  let keyIndex = members.firstIndex(where: { $0.0 == key }) else { continue }
            members.remove(at: keyIndex)
            removed = true
            if members.isEmpty { sections.remove(at: index) } else { sections[index].1 = .object(members) }
        }
        var top = root.members ?? []
        Self.put("plugins", .object(sections), into: &top)
        root = .object(top)
        return removed
    }

    /// Writes the file: a temporary one in the same directory, synced, then
    /// renamed over the target (the file a symbolic link points to, so a
    /// linked dotfile stays linked), with the old file's permissions or 0600
    /// (a section may hold an API key).
    func save() throws(ConfigError) {
        var target = path
        if let real = realpath(path, nil) {
            target = String(cString: real)
            free(real)
        }
        var status = stat()
        let mode = stat(target, &status) == 0 ? status.st_mode & 0o7777 : 0o600
        do { try FileSystem.makeDirectories(FileSystem.directory(of: target), mode: 0o700) } catch {
            throw ConfigError(path: path, message: "cannot create its directory: \(error)")
        }
        let temporary = "\(target).\(getpid()).tmp"
        let descriptor = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw ConfigError(path: path, message: "cannot write \(temporary): \(SystemError(code: errno))") }
        let written = FileSystem.writeAll(Array((Self.layout(root, depth: 0) + "\n").utf8), to: descriptor) && fsync(descriptor) == 0
        let code = errno
        Glibc.close(descriptor)
        guard written, rename(temporary, target) == 0 else {
            let failure = written ? errno : code
            unlink(temporary)
            throw ConfigError(path: path, message: "cannot write: \(SystemError(code: failure))")
        }
    }

    /// One stable layout, so that two edits of the same file differ only
    /// where a value did: the file, `plugins` and each section one member a
    /// line, anything deeper on one line as people write it.
    static func layout(_ value: JSONValue, depth: Int) -> String {
        guard case let .object(members) = value, depth < 3, !members.isEmpty else { return HelpPages.spaced(value) }
        let indent = String(repeating: "  ", count: depth + 1)
        let lines = members.map { indent + JSONValue.string($0.0).serialized + ": " + layout($0.1, depth: depth + 1) }
        return "{\n" + lines.joined(separator: ",\n") + "\n" + String(repeating: "  ", count: depth) + "}"
    }

    private static func put(_ key: String, _ value: JSONValue, into members: inout [(String, JSONValue)]) {
        if let index = members.firstIndex(where: { $0.0 == key }) { members[index].1 = value } else { members.append((key, value)) }
    }
}

extension JSONValue {
    /// An object's members in order; nil for anything else.
    var members: [(String, JSONValue)]? {
        if case let .object(members) = self { return members }
        return nil
    }
}
