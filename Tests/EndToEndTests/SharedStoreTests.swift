import Foundation
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

private typealias Locked = ServiceTestKit.Locked

/// A store in a new temporary directory that records its change callbacks.
private struct StoreFixture {
    let directory: String
    let changes = Locked<[String]>([])
    var store: SharedStore

    init(_ label: String = "store") throws {
        directory = try ServiceTestKit.temporaryDirectory(label) + "/widget-host/shared"
        store = SharedStore(directory: directory)
        store.onChange = { [changes] key, change in changes.withLock { $0.append("\(change) \(key)") } }
    }

    /// Every name in the directory, including dot-files, sorted.
    var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }
}

/// A pid that is certainly not running: a child that has exited and been reaped.
private func deadPID() throws -> pid_t {
    var child = try SpawnedProcess.start(["/bin/true"], environment: [:])
    _ = child.wait()
    return child.pid
}

@Suite("Shared store")
struct SharedStoreTests {
    // MARK: Keys

    @Test("valid keys", arguments: ["a", "Z", "0", "a.b", "a_b-c.d", "v1.2.3", "9lives", "a..b", "a.",
                                    String(repeating: "k", count: 200)])
    func validKey(key: String) throws {
        #expect(SharedStore.problem(withKey: key) == nil)
        let fixture = try StoreFixture()
        try fixture.store.put(key, Array(key.utf8))
        #expect(try fixture.store.get(key) == Array(key.utf8))
        #expect(fixture.files == [key])
    }

    @Test("invalid keys are refused by every operation",
          arguments: ["", "/", "a/b", "../x", "..", ".", ".hidden", ".a.tmp", "-a", "_a", "a b", "a\tb", "caf\u{E9}",
                      "a\\b", "a:b", "~", String(repeating: "k", count: 201)])
    func invalidKey(key: String) throws {
        #expect(SharedStore.problem(withKey: key) != nil)
        let fixture = try StoreFixture()
        let errors = [
            #expect(throws: StoreError.self) { try fixture.store.put(key, [1]) },
            #expect(throws: StoreError.self) { try fixture.store.get(key) },
            #expect(throws: StoreError.self) { try fixture.store.remove(key) },
        ]
        for error in errors {
            guard case .badKey? = error else {
                Issue.record("expected .badKey for '\(key)', got \(String(describing: error))")
                continue
            }
        }
        #expect(fixture.changes.value.isEmpty)
        #expect(fixture.files.isEmpty)
        // Nothing escaped the directory either.
        let parent = (fixture.directory as NSString).deletingLastPathComponent
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []) == [])
    }

    // MARK: Operations

    @Test("put, get, keys and remove, with onChange told of each completed change")
    func roundTrip() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        #expect(try store.keys() == [])                       // no directory yet
        #expect(try store.get("missing") == nil)
        #expect(try store.remove("missing") == false)

        let binary: [UInt8] = [0, 1, 2, 255, 10, 13, 0]
        try store.put("b.bin", binary)
        try store.put("a", Array("first".utf8))
        try store.put("a", Array("second".utf8))             // replaces
        try store.put("empty", [])
        #expect(try store.get("b.bin") == binary)
        #expect(try store.get("a") == Array("second".utf8))
        #expect(try store.get("empty") == [])
        #expect(try store.keys() == ["a", "b.bin", "empty"])

        #expect(try store.remove("a") == true)
        #expect(try store.remove("a") == false)
        #expect(try store.get("a") == nil)
        #expect(try store.keys() == ["b.bin", "empty"])
        #expect(fixture.changes.value == ["put b.bin", "put a", "put a", "put empty", "remove a"])
        #expect(fixture.files == ["b.bin", "empty"], "no temporary files are left behind")
    }

    @Test("the directory is created with every missing parent")
    func createsDirectory() throws {
        let base = try ServiceTestKit.temporaryDirectory("store")
        let store = SharedStore(directory: base + "/x/y/z")
        try store.put("k", [7])
        #expect(try TestSupport.readBytes(base + "/x/y/z/k") == [7])
    }

    @Test("the default directory follows XDG_DATA_HOME, then HOME")
    func defaultDirectory() {
        #expect(SharedStore.defaultDirectory(["XDG_DATA_HOME": "/d", "HOME": "/h"]) == "/d/widget-host/shared")
        #expect(SharedStore.defaultDirectory(["HOME": "/h"]) == "/h/.local/share/widget-host/shared")
        #expect(SharedStore.defaultDirectory(["XDG_DATA_HOME": "relative", "HOME": "/h"]) == "/h/.local/share/widget-host/shared")
    }

    @Test("keys() lists neither dot-files (writes in progress) nor anything that is not a key")
    func keysSkipTemporaryFiles() throws {
        let fixture = try StoreFixture()
        try fixture.store.put("real", [1])
        for name in [".real.123.456.tmp", ".hidden", "bad name"] {
            try TestSupport.write([0], to: fixture.directory + "/" + name)
        }
        #expect(try fixture.store.keys() == ["real"])
    }

    @Test("a value over the limit is refused on put and on get")
    func tooLarge() throws {
        let fixture = try StoreFixture()
        let huge = [UInt8](repeating: 0x41, count: SharedStore.maxValueBytes + 1)
        #expect(throws: StoreError.tooLarge("big")) { try fixture.store.put("big", huge) }
        #expect(fixture.files.filter { $0.hasPrefix(".") } == [])
        try fixture.store.put("big", [1])
        // A file grown past the limit behind the store's back (sparse, so cheap).
        try TestSupport.truncateFile(fixture.directory + "/big", to: Int64(SharedStore.maxValueBytes) + 1)
        #expect(throws: StoreError.tooLarge("big")) { try fixture.store.get("big") }
        #expect(fixture.changes.value == ["put big"])
    }

    @Test("a put removes temporary files of dead writers of that key, and only those")
    func abandonedWrites() throws {
        let fixture = try StoreFixture()
        try fixture.store.put("k", [1])
        let dead = try deadPID()
        let abandoned = ".k.\(dead).12345.tmp"
        let live = ".k.1.999.tmp"                       // pid 1 is always alive
        let mine = ".k.\(getpid()).42.tmp"              // ours: in progress, never touched
        let otherKey = ".other.\(dead).1.tmp"
        let notOurs = ".k.notapid.tmp"
        for name in [abandoned, live, mine, otherKey, notOurs] { try TestSupport.write([9], to: fixture.directory + "/" + name) }
        try fixture.store.put("k", [2])
        let files = fixture.files
        #expect(!files.contains(abandoned))
        #expect(files.contains(live))
        #expect(files.contains(mine))
        #expect(files.contains(otherKey))
        #expect(files.contains(notOurs))
        #expect(try fixture.store.get("k") == [2])
        #expect(try fixture.store.keys() == ["k"])
    }

    @Test("a put never removes the in-progress write of another key that extends its name (k vs k.123)")
    func abandonedWritesOfLongerKeys() throws {
        let fixture = try StoreFixture()
        let dead = try deadPID()
        // A live writer (this process) of key "k.<dead pid>" has its write in progress...
        let inProgress = ".k.\(dead).\(getpid()).77.tmp"
        try fixture.store.put("seed", [])   // creates the directory
        try TestSupport.write([1], to: fixture.directory + "/" + inProgress)
        // ...when another writer puts key "k": it must not take "<dead pid>" for the owner.
        try fixture.store.put("k", [2])
        #expect(fixture.files.contains(inProgress), "the write in progress of key 'k.\(dead)' was deleted")
    }

    // MARK: Failures

    @Test("a failed rename leaves what was there, removes the temporary file and reports no change")
    func renameFailure() throws {
        let fixture = try StoreFixture()
        try fixture.store.put("seed", [0])
        // The key's path is a directory: rename(2) over it fails (EISDIR), as root too.
        try TestSupport.makeDirectory(fixture.directory + "/k")
        try TestSupport.write([5], to: fixture.directory + "/k/inside")
        let error = #expect(throws: StoreError.self) { try fixture.store.put("k", [1, 2, 3]) }
        #expect(error?.description.contains("rename failed") == true, "\(String(describing: error))")
        #expect(error?.description.contains("the previous value is intact") == true)
        #expect(fixture.files == ["k", "seed"], "the temporary file must be removed")
        #expect(try TestSupport.readBytes(fixture.directory + "/k/inside") == [5])
        #expect(fixture.changes.value == ["put seed"])
    }

    @Test("a store whose directory is a file fails every operation cleanly")
    func directoryIsAFile() throws {
        let base = try ServiceTestKit.temporaryDirectory("store")
        try TestSupport.write(Array("I am a file".utf8), to: base + "/shared")
        let changes = Locked<Int>(0)
        let store = SharedStore(directory: base + "/shared", onChange: { _, _ in changes.withLock { $0 += 1 } })
        let put = #expect(throws: StoreError.self) { try store.put("k", [1]) }
        #expect(put?.description.contains("cannot create") == true, "\(String(describing: put))")
        #expect(throws: StoreError.self) { try store.get("k") }
        #expect(throws: StoreError.self) { try store.keys() }
        #expect(throws: StoreError.self) { try store.remove("k") }
        #expect(try TestSupport.readBytes(base + "/shared") == Array("I am a file".utf8))
        #expect(changes.value == 0)
    }

    @Test("a failed write (file size limit, EFBIG) leaves the old value intact", .timeLimit(.minutes(2)))
    func writeFailureKeepsOldValue() throws {
        // Provoked in a child: `ulimit -f` caps file writes at 512 bytes even
        // for root, and an ignored SIGXFSZ turns the overrun into EFBIG.
        let home = try ServiceTestKit.temporaryDirectory("store-efbig")
        let environment = SpawnedProcess.hostEnvironment(home: home)
        let store = SharedStore(directory: SharedStore.defaultDirectory(environment))
        try store.put("app.k", Array("old value".utf8))
        let big = home + "/big.bin"
        try TestSupport.write([UInt8](repeating: 0x42, count: 64 << 10), to: big)
        let script = "trap '' XFSZ; ulimit -f 1; exec \"$0\" store put app.k --file \"$1\""
        let result = try SpawnedProcess.run(["/bin/sh", "-c", script, TestSupport.widgetHost, big],
                                            environment: environment, input: [])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("write failed"), "\(result)")
        #expect(result.stderr.contains("the previous value is intact"), "\(result)")
        #expect(try store.get("app.k") == Array("old value".utf8))
        let leftovers = ((try? FileManager.default.contentsOfDirectory(atPath: store.directory)) ?? []).filter { $0.hasPrefix(".") }
        #expect(leftovers == [], "the temporary file must be removed")
    }

    @Test("a read-only directory makes put fail and keeps the old value (not provokable as root)",
          .enabled(if: geteuid() != 0, "root writes to read-only directories; see the EFBIG and rename tests instead"))
    func readOnlyDirectory() throws {
        let fixture = try StoreFixture()
        try fixture.store.put("k", [1])
        try TestSupport.setMode(fixture.directory, 0o500)
        defer { try? TestSupport.setMode(fixture.directory, 0o700) }
        #expect(throws: StoreError.self) { try fixture.store.put("k", [2]) }
        #expect(throws: StoreError.self) { try fixture.store.remove("k") }
        #expect(try fixture.store.get("k") == [1])
        #expect(fixture.changes.value == ["put k"])
    }

    // MARK: Killing writers

    /// THE test of atomic writes: a writer killed with SIGKILL at a random
    /// moment (before, during or after its write) never leaves a torn value.
    @Test("a writer killed with SIGKILL mid-write never leaves a torn value", .timeLimit(.minutes(5)))
    func killedWriters() throws {
        let size = 4 << 20
        let home = try ServiceTestKit.temporaryDirectory("store-kill")
        let environment = SpawnedProcess.hostEnvironment(home: home)
        let directory = SharedStore.defaultDirectory(environment)
        let store = SharedStore(directory: directory)
        let contents: [UInt8] = [UInt8(ascii: "A"), UInt8(ascii: "B")]
        let files = contents.map { home + "/value-\(Character(Unicode.Scalar($0))).bin" }
        for (byte, file) in zip(contents, files) { try TestSupport.write([UInt8](repeating: byte, count: size), to: file) }

        // How long one uninterrupted put takes here, measured on another
        // store so that this one starts empty. Kill delays are spread over
        // 0 to 120% of it, so kills land before, during and after writes.
        let calibrationHome = try ServiceTestKit.temporaryDirectory("store-kill-calibration")
        let started = Date()
        var calibration = try SpawnedProcess.start([TestSupport.widgetHost, "store", "put", "app.big", "--file", files[0]],
                                                   environment: SpawnedProcess.hostEnvironment(home: calibrationHome))
        #expect(calibration.wait() == .exited(0), "an uninterrupted put must succeed")
        let fullRun = max(Date().timeIntervalSince(started), 0.002)

        /// Which complete content the stored value is: 0 (all A), 1 (all B), or nil if absent; fails on a torn value.
        func stored() throws -> Int?? {
            guard let value = try store.get("app.big") else { return .some(nil) }
            guard value.count == size, let first = value.first, let index = contents.firstIndex(of: first),
                  value.allSatisfy({ $0 == first }) else {
                let histogram = Dictionary(grouping: value, by: { $0 }).mapValues(\.count)
                Issue.record("torn value: \(value.count) bytes, byte counts \(histogram)")
                return nil
            }
            return .some(index)
        }

        let iterations = 60
        var previous: Int? = nil
        var killed = 0, completed = 0, changedWhileKilled = 0, killedMidWrite = 0
        for iteration in 0..<iterations {
            let which = iteration % 2
            var writer = try SpawnedProcess.start([TestSupport.widgetHost, "store", "put", "app.big", "--file", files[which]],
                                                  environment: environment)
            usleep(useconds_t(Double.random(in: 0...(fullRun * 1.2)) * 1_000_000))
            writer.kill(SIGKILL)
            let termination = writer.wait()
            guard let now = try stored() else { return }   // torn: already recorded
            switch termination {
            case .exited(0):
                completed += 1
                #expect(now == which, "iteration \(iteration): a completed put must leave its own value")
            case .signaled(SIGKILL):
                killed += 1
                // A killed writer leaves the old value, or its new one if it
                // got as far as the rename.
                #expect(now == previous || now == which,
                        "iteration \(iteration): after a kill the value is \(String(describing: now)), expected \(String(describing: previous)) or \(which)")
                if now != previous { changedWhileKilled += 1 }
                // A temporary file of this writer means it died between creating and renaming it.
                let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
                if names.contains(where: { $0.hasPrefix(".big.\(writer.pid).") }) { killedMidWrite += 1 }
            default:
                Issue.record("iteration \(iteration): writer \(termination)")
            }
            if previous != nil { #expect(now != nil, "iteration \(iteration): the value vanished") }
            previous = now
        }
        print("killedWriters: \(killed) killed (\(killedMidWrite) mid-write, \(changedWhileKilled) after their rename), "
                + "\(completed) completed; a full put takes ~\(Int(fullRun * 1000)) ms")
        #expect(killed + completed == iterations)

        // Whatever killed writers left behind, `store list` shows only keys.
        let list = try TestSupport.runHost(["store", "list"], environment: environment)
        #expect(list.status == 0, "\(list)")
        #expect(list.stdout == (previous == nil ? "" : "app.big\n"), "\(list)")
        let json = try TestSupport.runHost(["store", "list", "--json"], environment: environment)
        #expect(json.stdout == (previous == nil ? "[]\n" : "[\"app.big\"]\n"), "\(json)")

        // A put that completes cleans up every dead writer's temporary file.
        let final = try TestSupport.runHost(["store", "put", "app.big", "--file", files[1]], environment: environment)
        #expect(final.status == 0, "\(final)")
        #expect(try stored() == .some(1))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        #expect(names == ["app.big"], "left after a clean put: \(names.sorted())")
    }

    // MARK: The command line

    @Test("store put --file, get, list, rm through the CLI")
    func cliRoundTrip() throws {
        let home = try ServiceTestKit.temporaryDirectory("store-cli")
        let environment = SpawnedProcess.hostEnvironment(home: home)
        let value: [UInt8] = Array("line one\nline two\0binary\u{1}".utf8) + [0xFF, 0xFE]
        try TestSupport.write(value, to: home + "/value.bin")

        let empty = try TestSupport.runHost(["store", "list"], environment: environment)
        #expect(empty.status == 0 && empty.stdout.isEmpty, "\(empty)")

        let put = try TestSupport.runHost(["store", "put", "app.greeting", "--file", home + "/value.bin"], environment: environment)
        #expect(put.status == 0, "\(put)")
        #expect(put.stdout.isEmpty)
        let get = try ChildProcess.run([TestSupport.widgetHost, "store", "get", "app.greeting"], timeout: 60, environment: environment)
        #expect(get.termination == .exited(0))
        #expect(get.standardOutput == value, "get must print the exact bytes")

        _ = try TestSupport.runHost(["store", "put", "app.another", "--file", home + "/value.bin"], environment: environment)
        let list = try TestSupport.runHost(["store", "list"], environment: environment)
        #expect(list.stdout == "app.another\napp.greeting\n", "\(list)")
        let listJSON = try TestSupport.runHost(["store", "list", "--json"], environment: environment)
        #expect(try ServiceTestKit.json(listJSON.stdout) == ["app.another", "app.greeting"])

        let remove = try TestSupport.runHost(["store", "rm", "app.greeting"], environment: environment)
        #expect(remove.status == 0, "\(remove)")
        let gone = try TestSupport.runHost(["store", "get", "app.greeting"], environment: environment)
        #expect(gone.status == 1, "\(gone)")
        #expect(gone.stderr.contains("no value for 'app.greeting'"), "\(gone)")
        #expect(gone.stdout.isEmpty)
        let removeAgain = try TestSupport.runHost(["store", "rm", "app.greeting"], environment: environment)
        #expect(removeAgain.status == 1, "\(removeAgain)")

        // The CLI and the library see the same store.
        let store = SharedStore(directory: SharedStore.defaultDirectory(environment))
        #expect(try store.keys() == ["app.another"])
        #expect(try store.get("app.another") == value)
    }

    @Test("store put reads standard input with '-' or when piped")
    func cliStandardInput() throws {
        let home = try ServiceTestKit.temporaryDirectory("store-stdin")
        let environment = SpawnedProcess.hostEnvironment(home: home)
        let store = SharedStore(directory: SharedStore.defaultDirectory(environment))
        let large = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }

        let dash = try SpawnedProcess.run([TestSupport.widgetHost, "store", "put", "app.piped", "-"], environment: environment, input: large)
        #expect(dash.status == 0, "\(dash)")
        #expect(try store.get("app.piped") == large)

        let implicit = try SpawnedProcess.run([TestSupport.widgetHost, "store", "put", "app.implicit"], environment: environment,
                                              input: Array("from a pipe".utf8))
        #expect(implicit.status == 0, "\(implicit)")
        #expect(try store.get("app.implicit") == Array("from a pipe".utf8))

        let empty = try SpawnedProcess.run([TestSupport.widgetHost, "store", "put", "app.nothing", "-"], environment: environment, input: [])
        #expect(empty.status == 0, "\(empty)")
        #expect(try store.get("app.nothing") == [])
    }

    @Test("CLI usage errors exit 2 and change nothing",
          arguments: [
              ["store", "put", "../escape", "--file", "/dev/null"],
              ["store", "put", ".hidden", "-"],
              ["store", "get", "a/b"],
              ["store", "rm", ".."],
              ["store", "get", String(repeating: "k", count: 201)],
              ["store"],
              ["store", "frobnicate"],
              ["store", "get"],
              ["store", "put"],
              ["store", "list", "extra"],
              ["store", "get", "k", "extra"],
              ["store", "put", "app.k", "--file", "/dev/null", "-"],
              ["store", "put", "app.k", "notdash"],
              ["store", "put", "nogroup", "--file", "/dev/null"],
              // Options that would change nothing: refused, not ignored.
              ["store", "put", "app.k", "--file", "/dev/null", "--now", "2026-06-11T12:00:00+02:00"],
              ["store", "get", "app.k", "--file", "/dev/null"],
              ["store", "rm", "app.k", "--shift-dates", "2026-06-11T12:00:00+02:00"],
              ["store", "list", "--lines"],
              ["store", "put", "app.k", "--file", "/dev/null", "--json"],
              ["store", "rm", "app.k", "--json"],
          ])
    func cliUsageErrors(arguments: [String]) throws {
        let home = try ServiceTestKit.temporaryDirectory("store-usage")
        let environment = SpawnedProcess.hostEnvironment(home: home)
        let run = try TestSupport.runHost(arguments, environment: environment)
        #expect(run.status == 2, "\(run)")
        #expect(!run.stderr.isEmpty)
        let store = SharedStore(directory: SharedStore.defaultDirectory(environment))
        #expect(try store.keys() == [])
        #expect(!FileManager.default.fileExists(atPath: home + "/escape"))
    }

    @Test("CLI failures exit 1: a missing key, an unreadable file")
    func cliFailures() throws {
        let home = try ServiceTestKit.temporaryDirectory("store-fail")
        let environment = SpawnedProcess.hostEnvironment(home: home)
        let missing = try TestSupport.runHost(["store", "get", "absent"], environment: environment)
        #expect(missing.status == 1, "\(missing)")
        #expect(missing.stderr.contains("no value for 'absent'"))
        let rm = try TestSupport.runHost(["store", "rm", "absent"], environment: environment)
        #expect(rm.status == 1, "\(rm)")
        let noFile = try TestSupport.runHost(["store", "put", "app.k", "--file", home + "/no-such-file"], environment: environment)
        #expect(noFile.status == 1, "\(noFile)")
        #expect(noFile.stderr.contains("cannot read"), "\(noFile)")
        let store = SharedStore(directory: SharedStore.defaultDirectory(environment))
        #expect(try store.keys() == [])
    }
}
