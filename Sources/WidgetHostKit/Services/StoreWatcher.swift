import Foundation
import Glibc

/// Publishes `store.changed` for writes that other processes make to the
/// shared container, such as `widget-host store put` in another terminal
/// while a widget is on screen. (Writes made through this process's own
/// `SharedStore` already publish; those are seen here too, so a subscriber
/// may get the same change twice, which a reload tolerates.)
///
/// It watches the directory with inotify on a thread of its own. A put is a
/// rename onto the key (`IN_MOVED_TO`), a remove an unlink (`IN_DELETE`);
/// names that are not keys, such as the dot-files of writes in progress,
/// are ignored. While the directory does not exist (nothing was ever
/// written) it looks again every second, and reports every key it holds
/// once it appears; it starts over if the directory is removed. Call
/// `stop()` when done: the thread keeps the watcher alive until then.
public final class StoreWatcher: @unchecked Sendable {
    public typealias Change = @Sendable (_ key: String, _ change: String) -> Void

    private let directory: String
    private let onChange: Change
    /// Written to by `stop()`; the thread polls it with the inotify descriptor.
    private let stopPipe: (read: Int32, write: Int32)
    private var thread: Thread?

    public init(directory: String, onChange: @escaping Change) {
        self.directory = directory
        self.onChange = onChange
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) != 0 { fds = [-1, -1] }
        for fd in fds where fd >= 0 {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        stopPipe = (fds[0], fds[1])
    }

    /// A watcher that publishes on `bus` the event `SharedStore` itself publishes.
    public convenience init(store: SharedStore, bus: Bus) {
        self.init(directory: store.directory) { key, change in
            bus.enqueue(BusEvent(topic: SharedStore.changeTopic,
                                 payload: JSONValue.object([("key", .string(key)), ("change", .string(change))]).serialized))
        }
    }

    deinit {
        stop()
        close(stopPipe.read)
        close(stopPipe.write)
    }

    public func start() {
        guard thread == nil, stopPipe.read >= 0 else { return }
        let thread = Thread { [self] in run() }
        thread.name = "store-watcher"
        self.thread = thread
        thread.start()
    }

    /// Asks the thread to end; it lets go of the watcher as it does.
    public func stop() {
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
    }

    private static let mask = UInt32(IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF)

    private func run() {
        var wasMissing = false
        while true {
            let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
            guard fd >= 0 else { return }
            defer { close(fd) }
            if inotify_add_watch(fd, directory, Self.mask) < 0 {
                // No directory yet: look again in a second, unless told to stop.
                wasMissing = true
                if waitForStop(other: -1, milliseconds: 1000) { return }
                continue
            }
            if wasMissing {
                // Every key in a directory that has just appeared was put while no watch could see it.
                for key in (try? SharedStore(directory: directory).keys()) ?? [] { onChange(key, "put") }
                wasMissing = false
            }
            switch watch(fd) {
            case .stopped: return
            case .directoryGone: continue
            }
        }
    }

    private enum Outcome { case stopped, directoryGone }

    private func watch(_ fd: Int32) -> Outcome {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if waitForStop(other: fd, milliseconds: -1) { return .stopped }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                return .directoryGone
            }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len (4 native-endian bytes each), then len bytes of NUL-padded name.
            while offset + 16 <= count {
                let mask = Self.u32(buffer, offset + 4)
                let length = Int(Self.u32(buffer, offset + 12))
                let nameBytes = buffer[(offset + 16)..<min(offset + 16 + length, count)].prefix { $0 != 0 }
                offset += 16 + length
                if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 { return .directoryGone }
                guard let name = String(validating: nameBytes, as: UTF8.self), SharedStore.problem(withKey: name) == nil else { continue }
                if mask & UInt32(IN_MOVED_TO | IN_CLOSE_WRITE) != 0 {
                    onChange(name, "put")
                } else if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                    onChange(name, "remove")
                }
            }
        }
    }

    /// Waits for `other` to be readable or for a stop; true on a stop.
    private func waitForStop(other: Int32, milliseconds: Int32) -> Bool {
        var fds = [pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0), pollfd(fd: other, events: Int16(POLLIN), revents: 0)]
        while poll(&fds, other >= 0 ? 2 : 1, milliseconds) < 0 && errno == EINTR {}
        return fds[0].revents != 0
    }

    private static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
    }
}
