import Glibc

/// The configuration file as `config set` and `config unset` edit it: read
/// and checked as every command reads it (a malformed file is refused and
/// left as it is), one key changed in the plugin's section, the rest kept
/// (every other value, and the order of keys), then written to a temporary
/// file beside it and renamed over it, so no reader ever sees half a file.
/// Every change goes through `update`, which holds a lock across the read
/// and the write, so two writers at once cannot lose each other's change.
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

    /// How long a writer waits for another one to finish with the file.
    static let lockWait = 5.0

    /// Reads the file, lets `change` edit it and writes it when `change`
    /// says it changed; whether it did. The rename replaces the file's inode,
    /// so the lock is taken on its directory: a directory is never replaced,
    /// and flock ends with the process, so a writer that dies leaves nothing
    /// behind. A holder that stays longer than `wait` seconds gets an error,
    /// the file left as it is, rather than a command that hangs.
    @discardableResult
    static func update(_ path: String, wait: Double = lockWait, _ change: (inout ConfigFile) -> Bool) throws(ConfigError) -> Bool {
        let directory = FileSystem.directory(of: target(path))
        if access(directory.isEmpty ? "." : directory, F_OK) != 0 {
            // No directory, so no file: a change that writes nothing (an unset of
            // what was never set) must not leave a directory behind, nor fail to make one.
            var nothing = try open(path)
            guard change(&nothing) else { return false }
            do { try FileSystem.makeDirectories(directory, mode: 0o700) } catch {
                throw ConfigError(path: path, message: "cannot create its directory: \(error)")
            }
        }
        let lock = Glibc.open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard lock >= 0 else { throw ConfigError(path: path, message: "cannot open its directory to lock it: \(SystemError(code: errno))") }
        defer { Glibc.close(lock) }
        let deadline = Clock.now + wait
        while flock(lock, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                throw ConfigError(path: path, message: "cannot lock its directory: \(SystemError(code: code)); the file was left as it is")
            }
            guard Clock.now < deadline else {
                throw ConfigError(path: path, message: "another process is changing it (it holds the lock on the file's directory) "
                                      + "and did not finish within \(wait.formatted1) seconds; the file was left as it is, try again")
            }
            usleep(20_000)
        }
        var file = try open(path)
        guard change(&file) else { return false }
        try file.save()
        return true
    }

    /// The file a write replaces: the one a symbolic link points to, so a linked dotfile stays linked.
    private static func target(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// Writes the file: a temporary one in the same directory, synced, then
    /// renamed over the target, with the old file's permissions or 0600
    /// (a section may hold an API key).
    private func save() throws(ConfigError) {
        let target = Self.target(path)
        var status = stat()
        let mode = stat(target, &status) == 0 ? status.st_mode & 0o7777 : 0o600
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
