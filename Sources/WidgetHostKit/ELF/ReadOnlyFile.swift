import Glibc

/// A file opened for bounded, positioned reads.
///
/// It opens with O_NONBLOCK and re-checks the type of what it opened, so a
/// FIFO or device swapped in after a directory listing can neither block nor
/// be read: discovery must never hang on what a directory holds.
struct ReadOnlyFile: ~Copyable {
    let descriptor: Int32
    let size: UInt64
    /// Which file this is, from the descriptor: what was read, whatever the path names by now.
    let identity: FileIdentity

    init(path: String) throws(FileError) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw .system(path: path, operation: "open", errno: errno) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let code = errno
            close(fd)
            throw .system(path: path, operation: "stat", errno: code)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw .notRegular(path: path, kind: FileKind(mode: status.st_mode))
        }
        descriptor = fd
        size = UInt64(status.st_size)
        identity = FileIdentity(status)
    }

    deinit { close(descriptor) }

    /// Exactly `count` bytes at `offset`; a range past the end of the file is
    /// an error, never a short read.
    func read(offset: UInt64, count: Int) throws(FileError) -> [UInt8] {
        guard count >= 0, offset <= size, UInt64(count) <= size - offset else {
            throw .outOfBounds(offset: offset, count: UInt64(max(count, 0)), size: size)
        }
        // Read into the array's own room, not over zeros written first: the
        // sections and manifests of every plugin listed pass through here.
        var failure: Int32?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let n = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    failure = n < 0 ? errno : EIO
                    break
                }
                done += n
            }
            initialized = failure == nil ? count : 0
        }
        if let failure { throw .system(path: nil, operation: "read", errno: failure) }
        return bytes
    }
}

enum FileError: Error, Equatable, CustomStringConvertible {
    case system(path: String?, operation: String, errno: Int32)
    case notRegular(path: String, kind: FileKind)
    case outOfBounds(offset: UInt64, count: UInt64, size: UInt64)

    var description: String {
        switch self {
        case let .system(_, operation, code): "\(operation) failed: \(String(cString: strerror(code)))"
        case let .notRegular(_, kind): "not a regular file (\(kind))"
        case let .outOfBounds(offset, count, size): "\(count) bytes at offset \(offset) lie outside the \(size)-byte file"
        }
    }
}

/// What a path is, in words a person would use.
enum FileKind: String, Sendable, CustomStringConvertible {
    var description: String { rawValue }

    case regular = "regular file", directory, fifo = "FIFO", socket, characterDevice = "character device"
    case blockDevice = "block device", symlink = "symbolic link", unknown

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFLNK: self = .symlink
        default: self = .unknown
        }
    }
}
