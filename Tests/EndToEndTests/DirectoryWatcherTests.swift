import Foundation
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The two inotify watchers as their users see them. A watch is set on the
/// watcher's own thread, with no signal when it is in place, so a test
/// first writes probes until one is seen: after that, every later change
/// is reported, and no earlier one is still on its way.
@Suite("Directory watchers")
struct DirectoryWatcherTests {
    // MARK: StoreWatcher

    /// A store, and a watcher on its directory that records what it reports.
    private struct WatchedStore {
        let directory: String
        let store: SharedStore
        let watcher: StoreWatcher
        private let changes = Locked<[String]>([])

        init(existing: Bool) throws {
            directory = try TestSupport.makeTemporaryDirectory("watched-store") + "/shared"
            if existing { try TestSupport.makeDirectory(directory) }
            store = SharedStore(directory: directory)
            watcher = StoreWatcher(directory: directory) { [changes] key, change in changes.withLock { $0.append("\(change) \(key)") } }
        }

        /// What the watcher reported, less the probes.
        var reported: [String] { changes.withLock { $0 }.filter { !$0.hasSuffix(" probe") } }

        func waitUntilWatching() throws {
            // Up to 30 s: under a parallel test run the watch may wait for an inotify instance.
            try #require(eventually(600) {
                try store.put("probe", [])
                return changes.withLock { $0.contains("put probe") }
            })
        }
    }

    @Test("StoreWatcher reports another writer's puts and removes, never the dot-files of writes in progress")
    func storeChanges() throws {
        let watched = try WatchedStore(existing: true)
        try watched.store.put("before", [1])
        watched.watcher.start()
        defer { watched.watcher.stop() }
        try watched.waitUntilWatching()
        try watched.store.put("key", [1, 2, 3])
        try watched.store.remove("key")
        #expect(eventually { watched.reported.count >= 2 })
        #expect(watched.reported == ["put key", "remove key"], "a directory there from the start is not listed")
    }

    @Test("StoreWatcher looks again for a directory that does not exist yet and reports every key it holds once it appears")
    func storeDirectoryAppears() throws {
        let watched = try WatchedStore(existing: false)
        // Filled elsewhere and renamed into place, so that only a listing can find its keys.
        let filled = watched.directory + ".filled"
        try TestSupport.makeDirectory(filled)
        for name in ["a", "b", ".a.1.tmp"] { try TestSupport.write([1], to: filled + "/" + name) }
        watched.watcher.start()
        defer { watched.watcher.stop() }
        // start() returns after the first look, which found no directory.
        let parent = String(watched.directory[..<watched.directory.lastIndex(of: "/")!])
        #expect(TestSupport.isWatchedByInotify(parent), "the first look did not watch the nearest existing ancestor, \(parent)")
        try #require(rename(filled, watched.directory) == 0)
        #expect(eventually { watched.reported.count >= 2 })
        #expect(watched.reported.sorted() == ["put a", "put b"])
    }

    @Test("StoreWatcher.start() returns with the watch in place: a put made straight after it is reported")
    func startReturnsWatching() throws {
        let watched = try WatchedStore(existing: true)
        watched.watcher.start()
        defer { watched.watcher.stop() }
        #expect(TestSupport.isWatchedByInotify(watched.directory), "start() returned before the watch was set")
        try watched.store.put("first", [1])
        #expect(eventually { watched.reported == ["put first"] }, "\(watched.reported)")
    }

    @Test("StoreWatcher reports nothing after stop()")
    func storeStops() throws {
        let watched = try WatchedStore(existing: true)
        watched.watcher.start()
        try watched.waitUntilWatching()
        watched.watcher.stop()
        try watched.store.put("after", [1])
        usleep(500_000)
        #expect(watched.reported.isEmpty, "\(watched.reported)")
    }

    // MARK: PluginDirectoryWatcher

    /// Plugin directories, and a watcher on them whose changes are gathered;
    /// it stops with this object.
    private final class WatchedPlugins: Sendable {
        private let root: String
        let watcher: PluginDirectoryWatcher
        private let wakeupCount: Locked<Int>
        private let gathered = Locked<Set<String>?>(nil)
        private let probes = Locked(0)

        /// `probe` and `present` exist, `later` does not yet; the watcher
        /// runs, and its watches are set.
        init() throws {
            root = try TestSupport.makeTemporaryDirectory("watched-plugins")
            try TestSupport.makeDirectory(root + "/probe")
            try TestSupport.makeDirectory(root + "/present")
            let wakeupCount = Locked(0)
            self.wakeupCount = wakeupCount
            watcher = PluginDirectoryWatcher(directories: [root + "/probe", root + "/present", root + "/later"]) {
                wakeupCount.withLock { $0 += 1 }
            }
            watcher.start()
            // Up to 30 s: under a parallel test run the watch may wait for an inotify instance.
            try #require(eventually(600) {
                let probe = path("probe/\(probes.withLock { $0 += 1; return $0 }).so")
                try Self.create(probe)
                return changes?.contains(probe) == true
            })
            clear()
        }

        deinit { watcher.stop() }

        func path(_ relative: String) -> String { root + "/" + relative }

        /// How many times the watcher has called its `onChange`.
        var wakeups: Int { wakeupCount.withLock { $0 } }

        /// Everything `takeChanges()` returned since the last `clear()`, or
        /// nil if it returned nil each time.
        var changes: Set<String>? {
            let taken = watcher.takeChanges()
            return gathered.withLock { gathered in
                if let taken { gathered = (gathered ?? []).union(taken) }
                return gathered
            }
        }

        func clear() {
            _ = changes
            gathered.withLock { $0 = nil }
        }

        /// A new file, closed after writing: one IN_CLOSE_WRITE and nothing after it.
        static func create(_ path: String) throws {
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw TestSupport.Failure("create \(path): \(String(cString: strerror(errno)))") }
            close(fd)
        }
    }

    @Test("PluginDirectoryWatcher reports a .so once its writer closes it, and no other name")
    func pluginChanges() throws {
        let watched = try WatchedPlugins()
        let wakeups = watched.wakeups
        try WatchedPlugins.create(watched.path("present/notes.txt"))
        try WatchedPlugins.create(watched.path("present/new.so"))
        #expect(eventually { watched.changes?.contains(watched.path("present/new.so")) == true })
        #expect(watched.changes == [watched.path("present/new.so")])
        #expect(watched.wakeups > wakeups)
    }

    @Test("PluginDirectoryWatcher looks again for a missing directory, reports its appearance, then what it holds")
    func pluginDirectoryAppears() throws {
        let watched = try WatchedPlugins()
        try TestSupport.makeDirectory(watched.path("later"))
        #expect(eventually { watched.changes != nil })
        #expect(watched.changes == [], "an appearance names no file")
        watched.clear()
        try WatchedPlugins.create(watched.path("later/late.so"))
        #expect(eventually { watched.changes == [watched.path("later/late.so")] })
    }

    @Test("a missing directory two levels down is seen when it is made, by its ancestor's watch alone: no looking again on a timer")
    func missingDirectoryWithoutPolling() throws {
        let root = try TestSupport.makeTemporaryDirectory("watched-ancestor")
        let directory = root + "/a/b/plugins"
        let events = Locked<[String]>([])
        // A retry this long never fires within the test: only inotify can report the directory.
        let watcher = DirectoryWatcher(directories: [directory], mask: UInt32(IN_CLOSE_WRITE), retryMilliseconds: Int32.max)
        watcher.start(threadName: "test-watcher") { event in
            switch event {
            case let .appeared(path, _): events.withLock { $0.append("appeared \(path)") }
            case let .entry(path, name, _) where path == directory: events.withLock { $0.append("entry \(name)") }
            default: break
            }
        }
        defer { watcher.stop() }
        // Each step once the watch has moved down to the nearest existing ancestor.
        try #require(watcher.waitUntilWatching(seconds: 30), "the watcher took no first look")
        #expect(TestSupport.isWatchedByInotify(root), "the first look did not watch \(root)")
        try TestSupport.makeDirectory(root + "/a")
        try #require(eventually(600) { TestSupport.isWatchedByInotify(root + "/a") }, "the watch did not move to \(root)/a")
        try TestSupport.makeDirectory(root + "/a/b")
        try TestSupport.makeDirectory(directory)
        #expect(eventually { events.withLock { $0 }.contains("appeared \(directory)") })
        try TestSupport.write([1], to: directory + "/x.so")
        #expect(eventually { events.withLock { $0 }.contains("entry x.so") })
    }

    @Test("PluginDirectoryWatcher reports a watched directory's removal, and watches it again when it is back")
    func pluginDirectoryRemoved() throws {
        let watched = try WatchedPlugins()
        let before = watched.wakeups
        try #require(rmdir(watched.path("present")) == 0)
        #expect(eventually { watched.changes != nil })
        #expect(watched.changes == [], "a removal names no file")
        let removed = watched.wakeups
        #expect(removed > before)
        try TestSupport.makeDirectory(watched.path("present"))
        #expect(eventually { watched.wakeups > removed }, "the return is reported too")
        #expect(watched.changes == [])
        watched.clear()
        try WatchedPlugins.create(watched.path("present/back.so"))
        #expect(eventually { watched.changes == [watched.path("present/back.so")] })
    }

    @Test("PluginDirectoryWatcher reports nothing after stop()")
    func pluginStops() throws {
        let watched = try WatchedPlugins()
        watched.watcher.stop()
        let wakeups = watched.wakeups
        try WatchedPlugins.create(watched.path("present/after.so"))
        try TestSupport.makeDirectory(watched.path("later"))
        usleep(500_000)
        #expect(watched.changes == nil)
        #expect(watched.wakeups == wakeups)
    }
}

/// Polls `condition` (a throw counts as false) up to `attempts` times, 50 ms apart.
private func eventually(_ attempts: Int = 200, _ condition: () throws -> Bool) -> Bool {
    IsolationTestKit.eventually(attempts) { (try? condition()) ?? false }
}
