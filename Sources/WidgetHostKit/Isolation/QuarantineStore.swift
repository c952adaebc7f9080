import Glibc

/// The crash-loop breaker's memory: for each plugin file, its recent crashes
/// and whether it is quarantined, in `$XDG_STATE_HOME/widget-host/quarantine.json`
/// (by default `~/.local/state/widget-host/`).
///
/// A plugin that stops (a crash, a deadline, a sandbox violation) three
/// times within five minutes is quarantined: the host refuses to start it
/// until its file changes (another device, inode, size or modification
/// time) or someone lifts the quarantine. Every entry remembers the file it
/// was about, so a rebuilt plugin starts with a clean record.
///
/// Each change is a read-modify-write under an exclusive lock on a
/// companion lock file, written to a temporary file that is fsynced and
/// renamed over the old one: hosts running side by side never lose each
/// other's records, and a reader never sees half a file.
public struct QuarantineStore: Sendable {
    public let path: String
    /// Counts how often the file is read: the seam a test uses to prove that
    /// listing reads it once per scan, whatever the number of plugins.
    let reads: ReadCounter?
    public static let crashLimit = 3
    public static let windowMilliseconds: Int64 = 5 * 60 * 1000

    public struct FileStamp: Equatable, Sendable {
        public let device: UInt64, inode: UInt64, size: Int64, modified: Int64

        /// The file as it is now, or nil if it cannot be read.
        public init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        }

        init(device: UInt64, inode: UInt64, size: Int64, modified: Int64) {
            self.device = device
            self.inode = inode
            self.size = size
            self.modified = modified
        }
    }

    public struct Crash: Equatable, Sendable {
        public let at: Int64
        public let reason: String
    }

    public struct Entry: Equatable, Sendable {
        public let path: String
        public var pluginID: String
        public var file: FileStamp?
        public var crashes: [Crash]
        /// When and why it was quarantined; nil while it is not.
        public var quarantined: Crash?

        /// Whether the record still holds: a file changed since (rebuilt, replaced, touched) is let run, and its
        /// crashes no longer count. The one rule that `list`, `info`, a launch and `quarantine list` all apply.
        public var holds: Bool { file == FileStamp(path: path) }

        /// The words `list`, `info` and a refused launch show.
        public var quarantineReason: String? {
            quarantined.map { QuarantineStore.refusal + "it stopped \(QuarantineStore.crashLimit) times in 5 minutes (last: \($0.reason)); "
                + "it runs again when its file changes, or after: widget-host quarantine lift \(pluginID)" }
        }
    }

    /// How a refusal to start a quarantined plugin begins (the dashboard stops restarting its card).
    public static let refusal = "quarantined: "

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(path: String) {
        self.init(path: path, reads: nil)
    }

    init(path: String, reads: ReadCounter?) {
        self.path = path
        self.reads = reads
    }

    final class ReadCounter: Sendable {
        private let count = AtomicCell<Int>(0)
        var value: Int { count.load(ordering: .relaxed) }
        func add() { count.add(1, ordering: .relaxed) }
    }

    public init(environment: [String: String]) {
        self.init(path: Self.defaultPath(environment))
    }

    /// The record every command shares.
    public static func defaultPath(_ environment: [String: String]) -> String {
        stateDirectory(environment) + "/widget-host/quarantine.json"
    }

    /// `$XDG_STATE_HOME`, or `~/.local/state`.
    public static func stateDirectory(_ environment: [String: String]) -> String { UserDirectories.state(environment) }

    // MARK: Questions

    /// Every entry, as recorded.
    public func entries() throws(Failure) -> [Entry] {
        try load()
    }

    /// The entry for the plugin at `path` if it still describes the file
    /// there now; a changed file has no record.
    public func current(path: String) throws(Failure) -> Entry? {
        let path = Self.canonical(path)
        guard let entry = try load().first(where: { $0.path == path }), entry.holds else { return nil }
        return entry
    }

    /// Entries are keyed by the file's resolved path, so the same plugin
    /// reached through another directory spelling is the same entry.
    static func canonical(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// Why the plugin at `path` may not run, or nil if it may.
    public func quarantineReason(path: String) throws(Failure) -> String? {
        try current(path: path)?.quarantineReason
    }

    /// Why each of the plugins at `paths` may not run, keyed by the path as
    /// given; plugins that may run are absent. The file is read once for the
    /// whole list, so listing costs one read however many plugins there are.
    public func quarantineReasons(paths: [String]) throws(Failure) -> [String: String] {
        var held: [String: Entry] = [:]
        for entry in try load() where entry.quarantined != nil { held[entry.path] = held[entry.path] ?? entry }
        guard !held.isEmpty else { return [:] }
        var reasons: [String: String] = [:]
        for path in paths {
            let canonical = Self.canonical(path)
            guard let entry = held[canonical], entry.holds else { continue }
            reasons[path] = entry.quarantineReason
        }
        return reasons
    }

    // MARK: Changes

    /// Records that the plugin at `path` stopped for `reason`; returns true
    /// if this crash put it in quarantine.
    @discardableResult
    public func recordCrash(path: String, pluginID: String, reason: String, at now: Int64 = QuarantineStore.now()) throws(Failure) -> Bool {
        let path = Self.canonical(path)
        return try update { entries in
            let stamp = FileStamp(path: path)
            var entry = entries.first { $0.path == path && $0.file == stamp }
                ?? Entry(path: path, pluginID: pluginID, file: stamp, crashes: [], quarantined: nil)
            entry.pluginID = pluginID
            entry.crashes = entry.crashes.filter { now - $0.at < Self.windowMilliseconds } + [Crash(at: now, reason: reason)]
            let tripped = entry.quarantined == nil && entry.crashes.count >= Self.crashLimit
            if tripped { entry.quarantined = Crash(at: now, reason: reason) }
            entries.removeAll { $0.path == path }
            entries.append(entry)
            return tripped
        }
    }

    /// Lifts the quarantine of every entry whose plugin id, last id segment
    /// or path is `name`, and forgets its crashes. Returns what was lifted.
    public func lift(_ name: String) throws(Failure) -> [Entry] {
        let path = name.contains("/") ? Self.canonical(name) : name
        return try update { entries in
            let matches = entries.filter { entry in
                entry.path == path || entry.pluginID == name || entry.pluginID.split(separator: ".").last.map(String.init) == name
            }
            entries.removeAll { entry in matches.contains { $0.path == entry.path } }
            return matches
        }
    }

    public static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }

    // MARK: The file

    private func update<R>(_ change: (inout [Entry]) -> R) throws(Failure) -> R {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        try Self.makeDirectories(directory)
        let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw Failure(description: "cannot open \(path).lock: \(SystemError(code: errno))") }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Failure(description: "cannot lock \(path).lock: \(SystemError(code: errno))") }
        }
        // A damaged file is replaced rather than left to block every launch.
        var entries = (try? load()) ?? []
        // Entries about files that changed are stale: drop them, by the rule `quarantine list` shows.
        entries.removeAll { !$0.holds }
        let result = change(&entries)
        try write(entries)
        return result
    }

    private func load() throws(Failure) -> [Entry] {
        reads?.add()
        let bytes: [UInt8]
        do {
            let file = try ReadOnlyFile(path: path)
            guard file.size <= 4 << 20 else { throw Failure(description: "\(path) is over 4 MiB") }
            bytes = try file.read(offset: 0, count: Int(file.size))
        } catch let failure as Failure {
            throw failure
        } catch FileError.system(_, _, ENOENT) {
            return []
        } catch {
            throw Failure(description: "cannot read \(path): \(error)")
        }
        do {
            let json = try JSONParser.parse(bytes)
            guard let plugins = json["plugins"]?.array else { throw Failure(description: "\(path) has no \"plugins\" array") }
            return try plugins.map { (item) throws(Failure) -> Entry in try Self.entry(item) }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "\(path) is not valid JSON: \(error)")
        }
    }

    private func write(_ entries: [Entry]) throws(Failure) {
        let text = JSONValue.object([("version", 1), ("plugins", .array(entries.map(Self.json)))]).serialized + "\n"
        let temporary = "\(path).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(description: "cannot write \(temporary): \(SystemError(code: errno))") }
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let count = bytes[done...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            done += count
        }
        let synced = done == bytes.count && fsync(fd) == 0
        close(fd)
        guard synced, rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw Failure(description: "cannot write \(path): \(SystemError(code: code))")
        }
    }

    private static func makeDirectories(_ directory: String) throws(Failure) {
        do { try FileSystem.makeDirectories(directory, mode: 0o700) } catch {
            throw Failure(description: "cannot create \(directory): \(error)")
        }
    }

    private static func json(_ entry: Entry) -> JSONValue {
        func crash(_ crash: Crash) -> JSONValue { ["at": .int(crash.at), "reason": .string(crash.reason)] }
        let file: JSONValue = entry.file.map {
            ["device": .int(Int64(bitPattern: $0.device)), "inode": .int(Int64(bitPattern: $0.inode)), "size": .int($0.size), "modified": .int($0.modified)]
        } ?? .null
        return ["path": .string(entry.path), "id": .string(entry.pluginID), "file": file,
                "crashes": .array(entry.crashes.map(crash)), "quarantined": entry.quarantined.map(crash) ?? .null]
    }

    private static func entry(_ json: JSONValue) throws(Failure) -> Entry {
        func crash(_ value: JSONValue?) -> Crash? {
            guard let value, let at = value["at"]?.int64, let reason = value["reason"]?.string else { return nil }
            return Crash(at: at, reason: reason)
        }
        guard let path = json["path"]?.string, let id = json["id"]?.string else {
            throw Failure(description: "an entry of the quarantine file lacks its path or id")
        }
        var file: FileStamp?
        if let stamp = json["file"], stamp != .null {
            guard let device = stamp["device"]?.int64, let inode = stamp["inode"]?.int64, let size = stamp["size"]?.int64,
                  let modified = stamp["modified"]?.int64 else { throw Failure(description: "the entry for \(path) has a bad file stamp") }
            file = FileStamp(device: UInt64(bitPattern: device), inode: UInt64(bitPattern: inode), size: size, modified: modified)
        }
        return Entry(path: path, pluginID: id, file: file, crashes: (json["crashes"]?.array ?? []).compactMap(crash),
                     quarantined: crash(json["quarantined"]))
    }
}
