import Glibc
import HostShim

/// Watches directories with inotify on a thread of its own and says what
/// happened in them, for a watcher that turns that into its own reports.
///
/// A directory that does not exist, or no longer does, is waited for by
/// watching its nearest existing ancestor for entries made in it (so a
/// missing directory costs no wake-ups), and looked for again after each
/// such event; only when no ancestor can be watched is it looked for every
/// `retryMilliseconds`. One that was deleted or moved away is reported
/// as vanished, and as appeared once it is watched again. Events are
/// reported on the watcher's thread. The thread keeps the watcher, and the
/// `onEvent` given to `start`, alive until `stop()`.
final class DirectoryWatcher: @unchecked Sendable {
    enum Event {
        /// A watch was set on `directory` after the first look, so changes
        /// made before it went unseen; `afterAbsence` when a look had found
        /// no directory since it was last watched (or since the start).
        case appeared(directory: String, afterAbsence: Bool)
        /// `directory` was deleted or moved away.
        case vanished(directory: String)
        /// `name` in `directory` had the events in `mask`.
        case entry(directory: String, name: String, mask: UInt32)
    }

    private let directories: [String]
    private let mask: UInt32
    private let retryMilliseconds: Int32
    /// Written to by `stop()`; the thread polls it with the inotify descriptor.
    private let stopPipe: (read: Int32, write: Int32)
    private var started = false
    /// Signalled once the thread has taken its first look (set its watches).
    private let looked = Semaphore()

    /// `mask` is the events wanted on entries; a directory's own deletion
    /// or move is always watched.
    init(directories: [String], mask: UInt32, retryMilliseconds: Int32) {
        self.directories = directories
        self.mask = mask | UInt32(IN_DELETE_SELF | IN_MOVE_SELF)
        self.retryMilliseconds = retryMilliseconds
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

    func start(threadName: String, onEvent: @escaping @Sendable (Event) -> Void) {
        guard !started, stopPipe.read >= 0 else { return }
        started = true
        Threads.start(name: threadName) { [self] in run(onEvent) }
    }

    /// Waits up to `seconds` for the thread's first look, after which every
    /// change is reported; false if it has not been taken by then (inotify
    /// had no instance to spare, and the thread is still trying).
    func waitUntilWatching(seconds: Double) -> Bool {
        guard looked.wait(seconds: seconds) else { return false }
        looked.signal()   // for the next caller
        return true
    }

    /// Whether `stop()` was called, waiting up to `milliseconds` for it.
    private func stopRequested(waitingMilliseconds milliseconds: Int32) -> Bool {
        var stop = pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&stop, 1, milliseconds)
            if ready >= 0 || errno != EINTR { return ready != 0 }
        }
    }

    /// Asks the thread to end: nothing that happens after this is reported
    /// (a report already under way may finish).
    func stop() {
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
    }

    private func run(_ onEvent: (Event) -> Void) {
        // Every process of a user shares one allowance of inotify instances
        // (fs.inotify.max_user_instances, 128 by default): when it is spent,
        // try again each retry period until one is free or the watcher is
        // stopped, instead of watching nothing for the rest of the run.
        var fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        let retry = retryMilliseconds > 0 ? retryMilliseconds : 1000
        while fd < 0 {
            guard [EMFILE, ENFILE, ENOMEM].contains(errno), !stopRequested(waitingMilliseconds: retry) else { return }
            fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        }
        defer { close(fd) }
        var watched: [Int32: String] = [:]
        /// Watches on the nearest existing ancestors of missing directories.
        var ancestors: Set<Int32> = []
        var unwatched = directories.map { (directory: $0, absent: false) }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var firstLook = true
        while true {
            // The ancestors first, then the directories: one made in between is seen either way.
            // Watching an ancestor again returns its watch unchanged; one no
            // longer needed is removed (its removal's event is one turn more).
            var blind = false, needed: Set<Int32> = []
            for (directory, _) in unwatched {
                guard let wd = Self.watchAncestor(of: directory, fd) else { blind = true; continue }
                needed.insert(wd)
            }
            for wd in ancestors.subtracting(needed) where watched[wd] == nil { _ = inotify_rm_watch(fd, wd) }
            ancestors = needed
            unwatched = unwatched.compactMap { directory, absent in
                let wd = inotify_add_watch(fd, directory, mask)
                guard wd >= 0 else { return (directory, true) }
                watched[wd] = directory
                if !firstLook, !stopRequested(waitingMilliseconds: 0) { onEvent(.appeared(directory: directory, afterAbsence: absent)) }
                return nil
            }
            if firstLook { looked.signal() }
            firstLook = false
            var fds = [pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0), pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            while poll(&fds, 2, unwatched.isEmpty || !blind ? -1 : retryMilliseconds) < 0 && errno == EINTR {}
            if fds[0].revents != 0 { return }
            guard fds[1].revents != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            // A stop() between the poll and the read: what the read got may
            // have happened after it, and nothing that happens after a stop
            // is reported (a report already under way may finish).
            if stopRequested(waitingMilliseconds: 0) { return }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len (4 native-endian bytes each), then len bytes of NUL-padded name.
            while offset + 16 <= count {
                let wd = Int32(bitPattern: Self.u32(buffer, offset))
                let mask = Self.u32(buffer, offset + 4)
                let length = Int(Self.u32(buffer, offset + 12))
                let nameBytes = buffer[(offset + 16)..<min(offset + 16 + length, count)].prefix { $0 != 0 }
                offset += 16 + length
                // An event in an ancestor: the next turn looks for the missing directories again.
                guard let directory = watched[wd] else { continue }
                if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
                    // A directory moved away keeps its watch; events from it would only be dropped.
                    _ = inotify_rm_watch(fd, wd)
                    watched[wd] = nil
                    unwatched.append((directory, false))
                    onEvent(.vanished(directory: directory))
                    continue
                }
                guard let name = String(validating: nameBytes, as: UTF8.self) else { continue }
                onEvent(.entry(directory: directory, name: name, mask: mask))
            }
        }
    }

    /// Watches the nearest existing ancestor of `directory` for entries made
    /// or moved into it, or its own end; nil when none can be watched.
    private static func watchAncestor(of directory: String, _ fd: Int32) -> Int32? {
        let events = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
        var path = directory
        while let slash = path.lastIndex(of: "/") {
            path = slash == path.startIndex ? "/" : String(path[..<slash])
            // Added to the mask of a directory watched for itself, not replacing it.
            let wd = inotify_add_watch(fd, path, events | UInt32(IN_MASK_ADD))
            if wd >= 0 { return wd }
            if path == "/" { break }
        }
        return nil
    }

    private static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
    }
}
