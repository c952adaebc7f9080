import Glibc

/// The shared container: a key-value store in a directory, one file per key,
/// where an app writes data that widgets read (the App Group of the original
/// design). It lives in `$XDG_DATA_HOME/widget-host/shared/`.
///
/// Keys are 1 to 200 bytes of `[A-Za-z0-9._-]` starting with a letter or
/// digit, so a key can never name a path outside the directory, and never
/// collides with the dot-files used for writes in progress.
///
/// A write goes to a temporary file, is fsynced, and is renamed over the
/// old value; the directory is then fsynced. A reader therefore sees the
/// old value or the new one, never a torn mix, even if the writer is killed
/// or the disk fills mid-write, and a failed write leaves the old value.
public struct SharedStore: Sendable {
    public let directory: String
    /// Told of every completed put and remove, to publish `store.changed`.
    public var onChange: (@Sendable (_ key: String, _ change: String) -> Void)?

    public static let maxValueBytes = 64 << 20
    public static let changeTopic = "store.changed"

    public init(directory: String, onChange: (@Sendable (String, String) -> Void)? = nil) {
        self.directory = directory
        self.onChange = onChange
    }

    public static func defaultDirectory(_ environment: [String: String]) -> String {
        UserDirectories.data(environment) + "/widget-host/shared"
    }

    /// Why `key` is not a valid key, or nil if it is.
    public static func problem(withKey key: String) -> String? {
        guard (1...200).contains(key.utf8.count) else { return "key must be 1 to 200 bytes" }
        guard let first = key.utf8.first, isAlphanumeric(first) else {
            return "key '\(key)' must start with a letter or digit"
        }
        guard key.utf8.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }) else {
            return "key '\(key)' may only use letters, digits, '.', '_' and '-'"
        }
        return nil
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    public func get(_ key: String) throws(StoreError) -> [UInt8]? {
        let path = try self.path(key)
        do {
            let file = try ReadOnlyFile(path: path)
            guard file.size <= UInt64(Self.maxValueBytes) else { throw StoreError.tooLarge(key) }
            return try file.read(offset: 0, count: Int(file.size))
        } catch let error as StoreError {
            throw error
        } catch FileError.system(_, _, ENOENT) {
            return nil
        } catch {
            throw .io(key: key, message: "\(error)")
        }
    }

    public func put(_ key: String, _ value: [UInt8]) throws(StoreError) {
        let path = try self.path(key)
        guard value.count <= Self.maxValueBytes else { throw .tooLarge(key) }
        try makeDirectory()
        removeAbandonedWrites(of: key)
        let temporary = "\(directory)/.\(key).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io(key: key, message: "cannot create \(temporary): \(SystemError(code: errno))") }
        var failure: String?
        value.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let count = write(fd, bytes.baseAddress! + done, bytes.count - done)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    failure = "write failed: \(SystemError(code: count < 0 ? errno : EIO))"
                    return
                }
                done += count
            }
        }
        if failure == nil && fsync(fd) != 0 { failure = "fsync failed: \(SystemError(code: errno))" }
        if close(fd) != 0 && failure == nil { failure = "close failed: \(SystemError(code: errno))" }
        if failure == nil && rename(temporary, path) != 0 { failure = "rename failed: \(SystemError(code: errno))" }
        if let failure {
            unlink(temporary)
            throw .io(key: key, message: "\(failure); the previous value is intact")
        }
        syncDirectory()
        onChange?(key, "put")
    }

    /// Removes `key`; returns whether it existed.
    @discardableResult
    public func remove(_ key: String) throws(StoreError) -> Bool {
        let path = try self.path(key)
        guard unlink(path) == 0 else {
            if errno == ENOENT { return false }
            throw .io(key: key, message: "cannot remove: \(SystemError(code: errno))")
        }
        syncDirectory()
        onChange?(key, "remove")
        return true
    }

    /// Every key, sorted; writes in progress are not keys.
    public func keys() throws(StoreError) -> [String] {
        do {
            return try Discovery.entries(in: directory).filter { Self.problem(withKey: $0) == nil }
        } catch where error.code == ENOENT {
            return []
        } catch {
            throw .io(key: nil, message: "cannot list \(directory): \(error)")
        }
    }

    private func path(_ key: String) throws(StoreError) -> String {
        if let problem = Self.problem(withKey: key) { throw .badKey(problem) }
        return "\(directory)/\(key)"
    }

    private func makeDirectory() throws(StoreError) {
        do { try FileSystem.makeDirectories(directory, mode: 0o700) } catch {
            throw .io(key: nil, message: "cannot create \(directory): \(error)")
        }
    }

    /// Temporary files of writers that died (their process is gone).
    private func removeAbandonedWrites(of key: String) {
        let prefix = ".\(key)."
        guard let names = try? Discovery.entries(in: directory) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let middle = name.dropFirst(prefix.count).dropLast(4)
            let parts = middle.split(separator: ".")
            guard parts.count == 2, let pid = pid_t(parts[0]), pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink("\(directory)/\(name)") }
        }
    }

    private func syncDirectory() {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}

public enum StoreError: Error, Equatable, CustomStringConvertible {
    case badKey(String)
    case tooLarge(String)
    case io(key: String?, message: String)

    public var description: String {
        switch self {
        case let .badKey(problem): problem
        case let .tooLarge(key): "the value of '\(key)' is over \(SharedStore.maxValueBytes >> 20) MiB"
        case let .io(key, message): (key.map { "'\($0)': " } ?? "") + message
        }
    }
}
