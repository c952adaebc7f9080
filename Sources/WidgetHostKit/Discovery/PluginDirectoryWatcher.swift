import Foundation
import Glibc
import HostShim

/// Watches the plugin directories with inotify while a session runs, so a
/// plugin dropped in appears, and one rebuilt restarts, with no restart of
/// the host. Discovery needs no dlopen, so a rescan is cheap and safe.
///
/// It reacts to a file finished being written (`IN_CLOSE_WRITE`), moved in
/// or out, deleted, or whose mode changed, and only for names ending in
/// `.so`; a half-copied file is not reported until its writer closes it. A
/// directory that does not exist yet is looked for again every two seconds.
/// The thread keeps the watcher alive until `stop()`.
public final class PluginDirectoryWatcher: @unchecked Sendable {
    private let directories: [String]
    private let onChange: @Sendable () -> Void
    private let changed = Locked<Set<String>?>(nil)
    private let stopPipe: (read: Int32, write: Int32)
    private var thread: Thread?

    public init(directories: [String], onChange: @escaping @Sendable () -> Void) {
        self.directories = directories
        self.onChange = onChange
        var fds: [Int32] = [-1, -1]
        if wh_shim_pipe_cloexec(&fds) == 0 {
            for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        } else {
            fds = [-1, -1]
        }
        stopPipe = (fds[0], fds[1])
    }

    deinit {
        stop()
        close(stopPipe.read)
        close(stopPipe.write)
    }

    public func start() {
        guard thread == nil, stopPipe.read >= 0 else { return }
        let thread = Thread { [self] in run() }
        thread.name = "plugin-watcher"
        self.thread = thread
        thread.start()
    }

    public func stop() {
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
    }

    /// The plugin files that changed since the last call (an empty set when
    /// only a directory appeared), or nil if nothing did.
    public func takeChanges() -> Set<String>? {
        changed.withLock { changes in
            defer { changes = nil }
            return changes
        }
    }

    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

    private func run() {
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { return }
        defer { close(fd) }
        var watched: [Int32: String] = [:]
        var missing = directories
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var firstPass = true
        while true {
            var appeared = false
            missing = missing.filter { directory in
                let wd = inotify_add_watch(fd, directory, Self.mask)
                guard wd >= 0 else { return true }
                watched[wd] = directory
                appeared = true
                return false
            }
            // A directory that appears later may already hold plugins.
            if appeared && !firstPass { report(nil) }
            firstPass = false
            var fds = [pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0), pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            while poll(&fds, 2, missing.isEmpty ? -1 : 2000) < 0 && errno == EINTR {}
            if fds[0].revents != 0 { return }
            guard fds[1].revents != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of NUL-padded name.
            while offset + 16 <= count {
                let wd = Int32(bitPattern: Self.u32(buffer, offset))
                let mask = Self.u32(buffer, offset + 4)
                let length = Int(Self.u32(buffer, offset + 12))
                let nameBytes = buffer[(offset + 16)..<min(offset + 16 + length, count)].prefix { $0 != 0 }
                offset += 16 + length
                guard let directory = watched[wd] else { continue }
                if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
                    watched[wd] = nil
                    missing.append(directory)
                    report(nil)
                    continue
                }
                guard let name = String(validating: nameBytes, as: UTF8.self), name.hasSuffix(".so") else { continue }
                report(join(directory, name))
            }
        }
    }

    private func report(_ path: String?) {
        changed.withLock { changes in
            var set = changes ?? []
            if let path { set.insert(path) }
            changes = set
        }
        onChange()
    }

    private static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
    }
}
