import Glibc
import HostShim

/// The few file-system steps the host's commands need, on Glibc: Foundation's
/// `FileManager` would load Foundation into every run of the host.
enum FileSystem {
    /// `path` without its last component: "/a/b/c" -> "/a/b", "/a" -> "/",
    /// "a" -> "" (trailing slashes ignored).
    static func directory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// The last component of `path`: "/a/b/" -> "b".
    static func lastComponent(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Makes `path` and every missing directory above it with `mode`.
    static func makeDirectories(_ path: String, mode: mode_t) throws(SystemError) {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, mode) != 0 && errno != EEXIST { throw SystemError(code: errno) }
        }
    }

    /// Every byte of the file at `path`.
    static func contents(of path: String) throws(SystemError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError(code: errno) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw SystemError(code: errno) }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }

    /// Writes all of `bytes` to `descriptor`; false on an error.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
    }

    /// Creates (or truncates) the file at `path` with `mode` and writes `bytes`.
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t) throws(SystemError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw SystemError(code: errno) }
        let written = writeAll(bytes, to: descriptor)
        let code = errno
        guard close(descriptor) == 0, written else { throw SystemError(code: written ? errno : code) }
    }

    /// Whether two files hold the same bytes: their sizes first, then
    /// their contents a block at a time, stopping at the first difference.
    /// Nil when either cannot be read.
    static func sameContents(_ first: String, _ second: String) -> Bool? {
        let a = open(first, O_RDONLY | O_CLOEXEC), b = open(second, O_RDONLY | O_CLOEXEC)
        defer {
            if a >= 0 { close(a) }
            if b >= 0 { close(b) }
        }
        var statusA = stat(), statusB = stat()
        guard a >= 0, b >= 0, fstat(a, &statusA) == 0, fstat(b, &statusB) == 0 else { return nil }
        guard statusA.st_size == statusB.st_size else { return false }
        var blockA = [UInt8](repeating: 0, count: 1 << 16), blockB = blockA
        while true {
            let countA = read(a, &blockA, blockA.count)
            guard countA >= 0 else { return nil }
            var countB = 0
            while countB < countA {
                let got = blockB.withUnsafeMutableBytes { read(b, $0.baseAddress! + countB, countA - countB) }
                guard got > 0 else { return got < 0 ? nil : false }
                countB += got
            }
            if countA == 0 { return true }
            guard blockA.withUnsafeBytes({ x in blockB.withUnsafeBytes { memcmp(x.baseAddress!, $0.baseAddress!, countA) == 0 } }) else { return false }
        }
    }

    /// Removes `path` and everything under it, following no symbolic link.
    static func removeTree(_ path: String) {
        _ = wh_shim_remove_tree(path)
    }
}
