import Glibc
import Synchronization
import Testing
@testable import WidgetHostKit

/// Small file-system and console helpers, made with system calls only.
enum UnitFixtures {
    /// A new, empty directory under /tmp, with symbolic links resolved.
    static func temporaryDirectory() throws -> String {
        var template = Array("/tmp/widgethost-unit.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestSupport.Failure.systemCall("mkdtemp") }
        guard let real = realpath(made, nil) else { throw TestSupport.Failure.systemCall("realpath") }
        defer { free(real) }
        return String(cString: real)
    }

    /// Removes `path` and everything under it, not following links.
    static func remove(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        if status.st_mode & S_IFMT == S_IFDIR, let stream = opendir(path) {
            var names: [String] = []
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
                }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(stream)
            for name in names { remove(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    static func makeDirectory(_ path: String, mode: mode_t = 0o755) throws {
        guard mkdir(path, 0o700) == 0 else { throw TestSupport.Failure.systemCall("mkdir \(path)") }
        try changeMode(path, mode)
    }

    static func writeFile(_ path: String, _ contents: String = "", mode: mode_t = 0o755) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw TestSupport.Failure.systemCall("open \(path)") }
        defer { close(fd) }
        var contents = contents
        let written = contents.withUTF8 { write(fd, $0.baseAddress, $0.count) }
        guard written == contents.utf8.count else { throw TestSupport.Failure.systemCall("write \(path)") }
        try changeMode(path, mode)
    }

    /// chmod, which unlike open and mkdir ignores the umask.
    static func changeMode(_ path: String, _ mode: mode_t) throws {
        guard chmod(path, mode) == 0 else { throw TestSupport.Failure.systemCall("chmod \(path)") }
    }

    static func changeOwner(_ path: String, user: uid_t? = nil, group: gid_t? = nil) throws {
        guard chown(path, user ?? uid_t.max, group ?? gid_t.max) == 0 else { throw TestSupport.Failure.systemCall("chown \(path)") }
    }

    static func symlink(_ target: String, at path: String) throws {
        guard Glibc.symlink(target, path) == 0 else { throw TestSupport.Failure.systemCall("symlink \(path)") }
    }

    /// Everything a `Console` was given, for assertions.
    final class CapturedConsole: Sendable {
        private let buffer = Mutex<(out: String, err: String)>((out: "", err: ""))

        var console: Console {
            Console(out: { text in self.buffer.withLock { $0.out += text } },
                    err: { text in self.buffer.withLock { $0.err += text } })
        }

        var out: String { buffer.withLock { $0.out } }
        var err: String { buffer.withLock { $0.err } }
    }
}
