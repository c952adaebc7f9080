import Glibc

/// The host's log kept on disk, `$XDG_STATE_HOME/widget-host/widget-host.log`,
/// where a plugin's warnings and denials can be read after the screen that
/// showed them is gone. Lines are appended whole (O_APPEND, one write each);
/// past `maxBytes` the file is renamed to `widget-host.log.1` (replacing the
/// one before) and a new one begun, so it never holds more than twice that.
/// A file that cannot be written is given up on quietly: the log on stderr
/// still says everything.
public final class LogFile: Sendable {
    public let path: String
    public static let maxBytes: Int64 = 1 << 20
    private let state = Locked<Int32>(-1)

    public init(path: String) {
        self.path = path
    }

    /// The file under the state directory of `environment` (the XDG spec's default: ~/.local/state).
    public convenience init(environment: [String: String]) {
        self.init(path: Self.defaultPath(environment))
    }

    public static func defaultPath(_ environment: [String: String]) -> String {
        UserDirectories.state(environment) + "/widget-host/widget-host.log"
    }

    func append(_ line: String) {
        state.withLock { fd in
            if fd == -1 { fd = max(open(), -2) }   // -2: given up on
            guard fd >= 0 else { return }
            var info = stat()
            if fstat(fd, &info) == 0, Int64(info.st_size) >= Self.maxBytes {
                rename(path, path + ".1")
                close(fd)
                fd = max(open(), -2)
                guard fd >= 0 else { return }
            }
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        }
    }

    private func open() -> Int32 {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        try? FileSystem.makeDirectories(directory, mode: 0o700)
        return Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    }
}
