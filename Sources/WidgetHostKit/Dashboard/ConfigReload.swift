import Glibc

struct ReloadError: Error, CustomStringConvertible {
    let description: String
}

/// Applies an edit of the configuration file while the dashboard runs:
/// its directory is watched (inotify, no polling; a directory that does
/// not exist is not watched), a write of the file wakes the loop, and the
/// loop asks `load` for the new layout. A broken edit keeps the last good
/// layout; the loop says why.
final class ConfigReload {
    private let watcher: DirectoryWatcher?
    private let changed = Locked(false)
    let load: () throws(ReloadError) -> DashboardSpec

    init(path: String, wakeup: Wakeup, load: @escaping () throws(ReloadError) -> DashboardSpec) {
        self.load = load
        let directory = FileSystem.directory(of: path), name = FileSystem.lastComponent(of: path)
        var status = stat()
        guard stat(directory, &status) == 0 else {
            watcher = nil
            return
        }
        watcher = DirectoryWatcher(directories: [directory], mask: UInt32(IN_CLOSE_WRITE | IN_MOVED_TO), retryMilliseconds: -1)
        watcher?.start(threadName: "config-watcher") { [changed] event in
            guard case let .entry(_, entry, _) = event, entry == name else { return }
            changed.withLock { $0 = true }
            wakeup.signal()
        }
    }

    deinit { watcher?.stop() }

    /// Whether the file was written since the last call.
    func takeChange() -> Bool {
        changed.withLock { changed in
            defer { changed = false }
            return changed
        }
    }
}
