import Glibc
import PluginABI

/// A `.so` found on the search path, and what the host makes of it.
public struct PluginCandidate: Sendable {
    public enum Status: Equatable, Sendable {
        case ok
        case rejected(String)
        /// `identical`: the two files hold the same bytes (a plugin
        /// installed from the build tree it is also found in), so nothing
        /// differs and nothing needs fixing.
        case shadowed(by: String, identical: Bool = false)

        public var name: String {
            switch self {
            case .ok: "ok"
            case .rejected: "rejected"
            case .shadowed: "shadowed"
            }
        }

        public var reason: String? {
            switch self {
            case .ok: nil
            case let .rejected(reason): reason
            case let .shadowed(path, false): "shadowed by \(path), which has the same id and comes first on the search path"
            case let .shadowed(path, true): "shadowed by \(path), an identical copy (the same bytes) that comes first on the search path"
            }
        }
    }

    public let path: String
    /// Present whenever the file held a readable manifest, even if rejected.
    public let manifest: Manifest?
    public internal(set) var status: Status
}

public struct DiscoveryReport: Sendable {
    public let plugins: [PluginCandidate]
    /// Problems with the search path itself, such as a missing --plugin-dir.
    public let warnings: [String]

    /// The plugins a host may load, in search order.
    public var usable: [PluginCandidate] { plugins.filter { $0.status == .ok } }

    /// The ids whose copy in `directory` (the shipped plugins, beside the
    /// executable) another, different copy earlier on the search path
    /// replaces: a person must see that what runs is not what shipped.
    public func shadowedIDs(in directory: String?) -> Set<PluginID> {
        guard let directory else { return [] }
        return Set(plugins.compactMap { plugin in
            guard case .shadowed(_, identical: false) = plugin.status, FileSystem.directory(of: plugin.path) == directory else { return nil }
            return plugin.manifest?.id
        })
    }
}

/// Finds plugins by reading their files, never by loading them: listing a
/// directory runs no plugin code, so a hostile or broken file can cost a few
/// reads but cannot crash or hang the host.
public struct Discovery: Sendable {
    public var allowInsecure: Bool
    /// Service ids the host provides, for checking manifests' requirements.
    public var availableServices: Set<String>
    /// What earlier scans read from unchanged files; nil reads every time.
    public var cache: DiscoveryCache?

    public init(allowInsecure: Bool = false, availableServices: Set<String>, cache: DiscoveryCache? = nil) {
        self.allowInsecure = allowInsecure
        self.availableServices = availableServices
        self.cache = cache
    }

    public func scan(_ searchPath: SearchPath) -> DiscoveryReport {
        guard let cache else {
            var memory = DiscoveryMemory(keepsContents: false)
            return scan(searchPath, remembering: &memory)
        }
        return cache.memory.withLock { scan(searchPath, remembering: &$0) }
    }

    /// Inspects one file as discovery would.
    public func inspect(path: String) -> PluginCandidate {
        var safety = FileSafety(), memory = DiscoveryMemory(keepsContents: false)
        return inspect(path: path, in: nil, canonicalDirectory: nil, safety: &safety, memory: &memory)
    }

    private func scan(_ searchPath: SearchPath, remembering memory: inout DiscoveryMemory) -> DiscoveryReport {
        if memory.services != availableServices {
            memory = DiscoveryMemory(keepsContents: memory.keepsContents)
            memory.services = availableServices
        }
        var safety = FileSafety()
        var warnings: [String] = []
        var plugins: [PluginCandidate] = []
        plugins.reserveCapacity(memory.report?.report.plugins.count ?? 16)
        let cutoff = FileStamp.settledCutoff()
        // Every directory and file as the last report found them: that report stands.
        var unchanged = true
        var stamps: [FileStamp?] = []
        stamps.reserveCapacity(searchPath.directories.count)
        for directory in searchPath.directories {
            stamps.append(nil)
            do {
                // Held open for the scan: its canonical path and its files'
                // stats come from the kernel's handle, not by walking the
                // path again for each.
                let open = try OpenDirectory(directory.path)
                let canonical = try open.canonicalPath()
                let stamp = try open.stamp()
                stamps[stamps.count - 1] = stamp
                let judgedUnder = DirectoryListing.Judgement(canonical: canonical, chain: allowInsecure ? nil : safety.chainProblem(canonical),
                                                              allowInsecure: allowInsecure)
                // Taken out while in use, so that changing it copies nothing.
                var previous = memory.listings.removeValue(forKey: directory.path)
                var listing: DirectoryListing
                if previous?.stamp == stamp, var kept = previous.take() {
                    if kept.judgedUnder != judgedUnder {
                        kept.judgedUnder = judgedUnder
                        for index in kept.entries.indices { kept.entries[index].last = nil }
                    }
                    listing = kept
                } else {
                    listing = DirectoryListing(stamp: stamp, judgedUnder: judgedUnder, directory: directory.path,
                                               found: try open.entries(keeping: Discovery.isSharedObjectName),
                                               previous: previous?.judgedUnder == judgedUnder ? previous : nil)
                    memory.reads.listings += 1
                    unchanged = false
                }
                for index in listing.entries.indices {
                    let (candidate, reused) = inspect(&listing.entries[index], in: open, canonical: canonical, cutoff: cutoff,
                                                      safety: &safety, memory: &memory)
                    plugins.append(candidate)
                    unchanged = unchanged && reused
                }
                // Trusted to stand for the directory's names only once no
                // change could still hide behind its times.
                if stamp.isSettled(before: cutoff) { memory.listings[directory.path] = listing }
            } catch {
                if directory.explicit || error.code != ENOENT {
                    warnings.append("plugin directory \(directory.path) (from \(directory.origin)): \(error)")
                    unchanged = false
                }
            }
        }
        if unchanged, let last = memory.report, last.allowInsecure == allowInsecure, last.stamps == stamps, last.searchPath == searchPath {
            return last.report
        }
        let (resolved, compared) = Self.resolveDuplicates(plugins)
        let report = DiscoveryReport(plugins: Self.noteReplacements(resolved), warnings: warnings + Self.replacementWarnings(resolved))
        // A copy that could not be compared with the one it shadows is told
        // apart again next time, not remembered as different.
        memory.report = compared ? RememberedReport(searchPath: searchPath, allowInsecure: allowInsecure, stamps: stamps, report: report) : nil
        return report
    }

    /// One entry of a listing: its last verdict when its file is as it was
    /// then (a stat), or a new one, kept for the next scan when it may be.
    private func inspect(
        _ entry: inout DirectoryListing.Entry, in open: OpenDirectory, canonical: String, cutoff: Int64,
        safety: inout FileSafety, memory: inout DiscoveryMemory
    ) -> (PluginCandidate, reused: Bool) {
        guard entry.isRegular else {
            return (inspect(path: entry.path, in: (open, entry.name), canonicalDirectory: nil, safety: &safety, memory: &memory), false)
        }
        var status = stat()
        guard open.stat(entry.name, &status, following: true) == 0 else {
            entry.last = nil
            return (inspect(path: entry.path, in: (open, entry.name), canonicalDirectory: canonical, safety: &safety, memory: &memory), false)
        }
        let stamp = FileStamp(status)
        if let last = entry.last, last.stamp == stamp { return (last.candidate, true) }
        let (candidate, lasting) = inspect(path: entry.path, status: status, canonicalDirectory: canonical, safety: &safety, memory: &memory)
        // Group write is judged against the group database, which may
        // change under an unchanged file: such a file is judged every time.
        let keep = lasting && stamp.isSettled(before: cutoff) && status.st_mode & S_IWGRP == 0
        entry.last = keep ? DirectoryListing.Verdict(stamp: stamp, candidate: candidate) : nil
        return (candidate, false)
    }

    /// `canonicalDirectory` is given when the directory listing says the
    /// file is a regular file (not a link), so its safety follows from its
    /// own stat and its directory's.
    private func inspect(
        path: String, in directory: (open: OpenDirectory, name: String)?, canonicalDirectory: String?, safety: inout FileSafety,
        memory: inout DiscoveryMemory
    ) -> PluginCandidate {
        var status = stat()
        // withCString: passing the String itself copies it into a new array.
        let found = directory.map { $0.open.stat($0.name, &status, following: true) } ?? path.withCString { stat($0, &status) }
        if found != 0 {
            let reason = switch errno {
            case ELOOP: "symbolic link loop"
            case ENOENT:
                (directory.map { $0.open.stat($0.name, &status, following: false) } ?? lstat(path, &status)) == 0
                    ? "broken symbolic link" : "no such file"
            case let code: "cannot stat: \(String(cString: strerror(code)))"
            }
            return PluginCandidate(path: path, manifest: nil, status: .rejected(reason))
        }
        return inspect(path: path, status: status, canonicalDirectory: canonicalDirectory, safety: &safety, memory: &memory).candidate
    }

    /// A file found by `stat`: its kind, its contents (read, or remembered
    /// by identity) and its safety; `lasting` when nothing but the file decided it.
    private func inspect(
        path: String, status: stat, canonicalDirectory: String?, safety: inout FileSafety, memory: inout DiscoveryMemory
    ) -> (candidate: PluginCandidate, lasting: Bool) {
        guard status.st_mode & S_IFMT == S_IFREG else {
            return (PluginCandidate(path: path, manifest: nil, status: .rejected("not a regular file (\(FileKind(mode: status.st_mode)))")), true)
        }
        let identity = FileIdentity(status)
        let contents = memory.contents[identity] ?? {
            let read = FileContents(path: path, availableServices: availableServices)
            memory.reads.files += 1
            if memory.keepsContents && read.lasting(as: identity) && FileStamp(status).isSettled(before: FileStamp.settledCutoff()) {
                memory.contents[identity] = read
            }
            return read
        }()
        if !allowInsecure {
            let unsafe = canonicalDirectory.map { safety.problem(regularFile: status, named: path, inCanonicalDirectory: $0) }
                ?? safety.problem(with: path)
            if let unsafe {
                return (PluginCandidate(path: path, manifest: contents.manifest,
                                        status: .rejected("unsafe: \(unsafe) (or, to load it as it is, --allow-insecure)")), contents.lasting(as: identity))
            }
        }
        return (PluginCandidate(path: path, manifest: contents.manifest, status: contents.problem.map(PluginCandidate.Status.rejected) ?? .ok),
                contents.lasting(as: identity))
    }

    /// The first usable plugin with an id wins; later ones are shadowed
    /// (only those are read whole, to tell an identical copy). `compared`:
    /// every shadowed copy could be read and compared.
    private static func resolveDuplicates(_ plugins: [PluginCandidate]) -> (plugins: [PluginCandidate], compared: Bool) {
        var owners: [PluginID: String] = [:]
        owners.reserveCapacity(plugins.count)
        var compared = true
        let resolved = plugins.map { candidate in
            guard candidate.status == .ok, let id = candidate.manifest?.id else { return candidate }
            // One hash for the common case, an id seen first; a duplicate
            // puts its owner back.
            guard let owner = owners.updateValue(candidate.path, forKey: id) else { return candidate }
            owners[id] = owner
            let identical = FileSystem.sameContents(owner, candidate.path)
            compared = compared && identical != nil
            var result = candidate
            result.status = .shadowed(by: owner, identical: identical ?? false)
            return result
        }
        return (resolved, compared)
    }

    /// A refused copy whose id another, later copy provides: the later one
    /// runs in its place, which must not pass without a word (a fix to the
    /// first copy's permissions would otherwise seem to do nothing).
    private static func replacements(_ plugins: [PluginCandidate]) -> [(refused: PluginCandidate, user: PluginCandidate)] {
        plugins.compactMap { candidate in
            guard case .rejected = candidate.status, let id = candidate.manifest?.id,
                  let user = plugins.first(where: { $0.status == .ok && $0.manifest?.id == id }) else { return nil }
            return (candidate, user)
        }
    }

    private static func noteReplacements(_ plugins: [PluginCandidate]) -> [PluginCandidate] {
        let users = Dictionary(replacements(plugins).map { ($0.refused.path, $0.user.path) }) { first, _ in first }
        return plugins.map { candidate in
            guard let user = users[candidate.path], case let .rejected(reason) = candidate.status else { return candidate }
            var noted = candidate
            noted.status = .rejected(reason + "; \(user), which has the same id, is used instead")
            return noted
        }
    }

    private static func replacementWarnings(_ plugins: [PluginCandidate]) -> [String] {
        replacements(plugins).map { refused, user in
            "\(refused.path) (\(refused.manifest!.id)) was refused (\(refused.status.reason ?? "")); "
                + "\(user.path), another copy of the same id, is used instead"
        }
    }

    struct Entry {
        let name: String
        /// The listing says a regular file: not a link, FIFO or device.
        let isRegular: Bool
        /// The name's first 8 bytes, big-endian, zero after its end: most
        /// pairs differ there, so the sort compares one integer, not two Strings.
        let prefix: UInt64

        init(cName: UnsafePointer<CChar>, isRegular: Bool) {
            name = String(cString: cName)
            self.isRegular = isRegular
            var prefix: UInt64 = 0, index = 0
            while index < 8, cName[index] != 0 {
                prefix |= UInt64(UInt8(bitPattern: cName[index])) << (56 - 8 * index)
                index += 1
            }
            self.prefix = prefix
        }

        /// By UTF-8 bytes: a shorter name first when it begins the longer.
        static func precedes(_ a: Entry, _ b: Entry) -> Bool {
            a.prefix != b.prefix ? a.prefix < b.prefix : utf8Precedes(a.name, b.name)
        }
    }

    /// The names in `directory` but . and .., sorted.
    static func entries(in directory: String) throws(SystemError) -> [String] {
        guard let stream = opendir(directory) else { throw SystemError(code: errno) }
        defer { closedir(stream) }
        return try entries(of: stream).map(\.name)
    }

    /// The entries of an open directory stream but . and .., sorted so that
    /// results are stable; only those whose name `keep` accepts, when given,
    /// judged before a String is made (a scan of a large directory such as
    /// /tmp or /usr/bin keeps a few of thousands).
    /// A failing read (EIO, a network file system's timeout) throws, not
    /// passes for the end of the directory: a listing cut short is kept.
    static func entries(of stream: OpaquePointer, keeping keep: ((UnsafePointer<CChar>) -> Bool)? = nil) throws(SystemError) -> [Entry] {
        var entries: [Entry] = []
        entries.reserveCapacity(64)
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw SystemError(code: errno) }
                break
            }
            let kept: Entry? = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let name = raw.bindMemory(to: CChar.self).baseAddress!
                let dot = CChar(UInt8(ascii: "."))
                if name[0] == dot && (name[1] == 0 || (name[1] == dot && name[2] == 0)) { return nil }
                if let keep, !keep(name) { return nil }
                return Entry(cName: name, isRegular: entry.pointee.d_type == UInt8(DT_REG))
            }
            if let kept { entries.append(kept) }
        }
        // By UTF-8 bytes: stable, and the same on every system and Unicode
        // version, where String's `<` compares canonical equivalents as equal.
        return entries.sorted(by: Entry.precedes)
    }

    /// Whether `a`'s UTF-8 bytes sort before `b`'s. Names in a directory hold no NUL, so strcmp (unsigned bytes) is the order.
    static func utf8Precedes(_ a: String, _ b: String) -> Bool {
        a.withCString { left in b.withCString { right in strcmp(left, right) < 0 } }
    }

    /// Ends in `.so`, with a name before it: what a scan lists.
    static func isSharedObjectName(_ name: UnsafePointer<CChar>) -> Bool {
        let count = strlen(name)
        return count > 3 && strcmp(name + count - 3, ".so") == 0
    }

    static func canonical(_ directory: String) throws(SystemError) -> String {
        guard let real = realpath(directory, nil) else { throw SystemError(code: errno) }
        defer { free(real) }
        return String(cString: real)
    }
}

/// A directory held open for one scan: one descriptor serves its canonical
/// path, its listing and its files' stats, so no path is walked twice.
final class OpenDirectory {
    let path: String
    private let fd: Int32
    /// Made when the entries are read: a warm scan, whose listing is
    /// unchanged, never reads them, and fdopendir costs three system calls.
    private var stream: OpaquePointer?

    init(_ path: String) throws(SystemError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError(code: errno) }
        self.path = path
        self.fd = fd
    }

    deinit {
        if let stream { closedir(stream) } else { close(fd) }
    }

    /// What the path resolves to, as the kernel holds it (one readlink, where
    /// realpath would lstat each component); realpath where /proc is absent.
    func canonicalPath() throws(SystemError) -> String {
        let link = "/proc/self/fd/" + String(fd)
        let text = withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(PATH_MAX)) { buffer in
            let count = readlink(link, buffer.baseAddress!, buffer.count)
            guard count > 0 else { return "" }
            return UnsafeRawBufferPointer(start: buffer.baseAddress, count: count).withMemoryRebound(to: UInt8.self) {
                String(decoding: $0, as: UTF8.self)
            }
        }
        // A directory removed since it was opened reads "... (deleted)".
        guard text.hasPrefix("/"), !text.hasSuffix(" (deleted)") else { return try Discovery.canonical(path) }
        return text
    }

    /// Its entries but . and .., sorted (those `keep` accepts, if given); once per instance.
    func entries(keeping keep: ((UnsafePointer<CChar>) -> Bool)? = nil) throws(SystemError) -> [Discovery.Entry] {
        if stream == nil {
            guard let opened = fdopendir(fd) else { throw SystemError(code: errno) }
            stream = opened
        }
        return try Discovery.entries(of: stream!, keeping: keep)
    }

    /// The directory's own stamp, from its descriptor.
    func stamp() throws(SystemError) -> FileStamp {
        var status = Glibc.stat()
        guard fstat(fd, &status) == 0 else { throw SystemError(code: errno) }
        return FileStamp(status)
    }

    /// fstatat of an entry, following a symbolic link or not; 0, or -1 with errno.
    func stat(_ name: String, _ status: inout stat, following: Bool) -> Int32 {
        name.withCString { fstatat(fd, $0, &status, following ? 0 : AT_SYMLINK_NOFOLLOW) }
    }
}

/// `directory/name`, made in one allocation: discovery joins a path for
/// every file it lists, and two appends cost several times one copy.
func join(_ directory: String, _ name: String) -> String {
    var directory = directory, name = name
    let slash = directory.utf8.last == UInt8(ascii: "/") ? 0 : 1
    let count = directory.utf8.count + slash + name.utf8.count
    return directory.withUTF8 { head in
        name.withUTF8 { tail in
            String(unsafeUninitializedCapacity: count) { buffer in
                var index = buffer.initialize(fromContentsOf: head)
                if slash == 1 {
                    buffer[index] = UInt8(ascii: "/")
                    index += 1
                }
                index = buffer[index...].initialize(fromContentsOf: tail)
                return index
            }
        }
    }
}

/// An errno with its text.
public struct SystemError: Error, CustomStringConvertible {
    public let code: Int32
    public var description: String { String(cString: strerror(code)) }
}
