import Glibc

/// Watches the plugin directories with inotify while a session runs, so a
/// plugin dropped in appears, and one rebuilt restarts, with no restart of
/// the host. Discovery needs no dlopen, so a rescan is cheap and safe.
///
/// It reacts to a file finished being written (`IN_CLOSE_WRITE`), moved in
/// or out, deleted, or whose mode changed, and only for names ending in
/// `.so`; a half-copied file is not reported until its writer closes it. A
/// directory that does not exist yet is waited for on its nearest existing
/// ancestor (DirectoryWatcher), with no timer.
/// The thread keeps the watcher alive until `stop()`.
public final class PluginDirectoryWatcher: @unchecked Sendable {
    private let onChange: @Sendable () -> Void
    private let changed = Locked<Set<String>?>(nil)
    private let watcher: DirectoryWatcher

    public init(directories: [String], onChange: @escaping @Sendable () -> Void) {
        self.onChange = onChange
        watcher = DirectoryWatcher(directories: directories, mask: UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ATTRIB),
                                   retryMilliseconds: 2000)
    }

    public func start() {
        watcher.start(threadName: "plugin-watcher") { [self] event in
            switch event {
            // A directory that appears may already hold plugins; one that vanishes took its plugins along.
            case .appeared, .vanished: report(nil)
            case let .entry(directory, name, _): if name.hasSuffix(".so") { report(join(directory, name)) }
            }
        }
    }

    public func stop() { watcher.stop() }

    /// The plugin files that changed since the last call (an empty set when
    /// only a directory appeared), or nil if nothing did.
    public func takeChanges() -> Set<String>? {
        changed.withLock { changes in
            defer { changes = nil }
            return changes
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
}
