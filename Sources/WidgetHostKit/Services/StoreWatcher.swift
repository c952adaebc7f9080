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
/// written) it waits for it on its nearest existing ancestor (no timer),
/// and reports every key it holds
/// once it appears; it starts over if the directory is removed. Call
/// `stop()` when done: the thread keeps the watcher alive until then.
public final class StoreWatcher: @unchecked Sendable {
    public typealias Change = @Sendable (_ key: String, _ change: String) -> Void

    private let directory: String
    private let onChange: Change
    private let watcher: DirectoryWatcher

    public init(directory: String, onChange: @escaping Change) {
        self.directory = directory
        self.onChange = onChange
        watcher = DirectoryWatcher(directories: [directory], mask: UInt32(IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM),
                                   retryMilliseconds: 1000)
    }

    /// A watcher that publishes on `bus` the event `SharedStore` itself publishes.
    public convenience init(store: SharedStore, bus: Bus) {
        self.init(directory: store.directory) { key, change in
            bus.enqueue(BusEvent(topic: SharedStore.changeTopic,
                                 payload: JSONValue.object([("key", .string(key)), ("change", .string(change))]).serialized))
        }
    }

    /// Starts watching, and returns once the watch is in place, so that a
    /// write made after `start()` returns is reported (a screen drawn, or an
    /// address announced, after it can promise that); after 2 s at most, if
    /// inotify has no instance to spare and the watcher goes on trying.
    public func start() {
        watcher.start(threadName: "store-watcher") { [self] event in
            switch event {
            case let .appeared(_, afterAbsence):
                // Every key in a directory that has just appeared was put while no watch could see it.
                guard afterAbsence else { return }
                for key in (try? SharedStore(directory: directory).keys()) ?? [] { onChange(key, "put") }
            case .vanished:
                break
            case let .entry(_, name, mask):
                guard SharedStore.problem(withKey: name) == nil else { return }
                if mask & UInt32(IN_MOVED_TO | IN_CLOSE_WRITE) != 0 {
                    onChange(name, "put")
                } else if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                    onChange(name, "remove")
                }
            }
        }
        _ = watcher.waitUntilWatching(seconds: 2)
    }

    /// Asks the thread to end; it lets go of the watcher as it does.
    public func stop() { watcher.stop() }
}
