import Foundation
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The crash-loop breaker's record: three stops in five minutes quarantine
/// a plugin file until it changes or the quarantine is lifted.
@Suite("Isolation: the crash-loop breaker's record")
struct IsolationQuarantineTests {
    private let minute: Int64 = 60_000

    private func fixture() throws -> (store: QuarantineStore, plugin: String) {
        let directory = try TestSupport.makeTemporaryDirectory("quarantine")
        let plugin = directory + "/plugin.so"
        try TestSupport.write(Array("first version".utf8), to: plugin)
        return (QuarantineStore(path: directory + "/state/widget-host/quarantine.json"), plugin)
    }

    @Test("the third stop within five minutes quarantines, with the last reason")
    func threeStrikes() throws {
        let (store, plugin) = try fixture()
        #expect(try !store.recordCrash(path: plugin, pluginID: "org.example.x", reason: "SIGSEGV during render", at: 0))
        #expect(try !store.recordCrash(path: plugin, pluginID: "org.example.x", reason: "SIGABRT during render", at: minute))
        #expect(try store.quarantineReason(path: plugin) == nil)
        #expect(try store.recordCrash(path: plugin, pluginID: "org.example.x", reason: "timed out in render after 5s", at: 2 * minute))
        let reason = try #require(try store.quarantineReason(path: plugin))
        #expect(reason.contains("it stopped 3 times in 5 minutes (last: timed out in render after 5s)"))
        #expect(reason.contains("widget-host quarantine lift org.example.x"))
    }

    @Test("stops further apart than five minutes never add up to three")
    func slowCrashes() throws {
        let (store, plugin) = try fixture()
        for index in 0..<6 {
            #expect(try !store.recordCrash(path: plugin, pluginID: "org.example.x", reason: "SIGSEGV", at: Int64(index) * 3 * minute))
        }
        #expect(try store.quarantineReason(path: plugin) == nil)
        #expect(try store.current(path: plugin)?.crashes.count == 2)
    }

    @Test("a changed file starts with a clean record")
    func fileChangeLifts() throws {
        let (store, plugin) = try fixture()
        for index in 0..<3 { try store.recordCrash(path: plugin, pluginID: "org.example.x", reason: "SIGSEGV", at: Int64(index)) }
        #expect(try store.quarantineReason(path: plugin) != nil)
        try TestSupport.write(Array("second, longer version".utf8), to: plugin)
        #expect(try store.quarantineReason(path: plugin) == nil)
        #expect(try !store.recordCrash(path: plugin, pluginID: "org.example.x", reason: "SIGSEGV", at: 10))
        #expect(try store.current(path: plugin)?.crashes.count == 1)
    }

    @Test("lift works by full id, last segment or path, and forgets the crashes", arguments: ["org.example.x", "x", "PATH"])
    func lift(_ name: String) throws {
        let (store, plugin) = try fixture()
        for index in 0..<3 { try store.recordCrash(path: plugin, pluginID: "org.example.x", reason: "SIGSEGV", at: Int64(index)) }
        let lifted = try store.lift(name == "PATH" ? plugin : name)
        #expect(lifted.map(\.pluginID) == ["org.example.x"])
        #expect(try store.quarantineReason(path: plugin) == nil)
        #expect(try store.entries().isEmpty)
        #expect(try store.lift("org.example.x").isEmpty)
    }

    @Test("the same file reached through another spelling of its path is the same entry")
    func canonicalPaths() throws {
        let (store, plugin) = try fixture()
        let directory = String(plugin[..<plugin.lastIndex(of: "/")!])
        let other = directory + "/./" + "plugin.so"
        for index in 0..<3 { try store.recordCrash(path: index == 1 ? other : plugin, pluginID: "org.example.x", reason: "SIGSEGV", at: Int64(index)) }
        #expect(try store.quarantineReason(path: other) != nil)
    }

    @Test("a damaged record is a clear error to read, and is replaced by the next write")
    func damagedFile() throws {
        let (store, plugin) = try fixture()
        try store.recordCrash(path: plugin, pluginID: "org.example.x", reason: "SIGSEGV", at: 0)
        try TestSupport.write(Array("{\"plugins\": [".utf8), to: store.path)
        #expect {
            _ = try store.entries()
        } throws: { error in
            "\(error)".contains("is not valid JSON")
        }
        try store.recordCrash(path: plugin, pluginID: "org.example.x", reason: "SIGABRT", at: 1)
        #expect(try store.entries().map { $0.crashes.map(\.reason) } == [["SIGABRT"]])
    }

    @Test("the record is written whole: no temporary files are left beside it")
    func atomicWrites() throws {
        let (store, plugin) = try fixture()
        for index in 0..<5 { try store.recordCrash(path: plugin, pluginID: "org.example.x", reason: "SIGSEGV", at: Int64(index)) }
        let directory = String(store.path[..<store.path.lastIndex(of: "/")!])
        #expect(try Discovery.entries(in: directory).sorted() == ["quarantine.json", "quarantine.json.lock"])
    }

    @Test("listing reads the quarantine file once, whatever the number of plugins", arguments: [3, 40])
    func listingReadsOnce(_ count: Int) throws {
        let directory = try TestSupport.makeTemporaryDirectory("quarantine-scan")
        let reads = QuarantineStore.ReadCounter()
        let store = QuarantineStore(path: directory + "/state/quarantine.json", reads: reads)
        var plugins: [String] = []
        for index in 0..<count {
            let plugin = directory + "/plugin\(index).so"
            try TestSupport.write(Array("version \(index)".utf8), to: plugin)
            plugins.append(plugin)
        }
        // The first plugin is quarantined; the second was, but its file changed since.
        for plugin in plugins.prefix(2) {
            for at in 0..<3 { try store.recordCrash(path: plugin, pluginID: "org.example.p", reason: "SIGSEGV", at: Int64(at)) }
        }
        try TestSupport.write(Array("rebuilt".utf8), to: plugins[1])
        let before = reads.value
        let reasons = try store.quarantineReasons(paths: plugins + [directory + "/missing.so"])
        #expect(reads.value - before == 1)
        #expect(Array(reasons.keys) == [plugins[0]])
        #expect(reasons[plugins[0]] == (try store.quarantineReason(path: plugins[0])))
    }

    @Test("quarantine list agrees with list: once the file changes, the record shows released, not quarantined")
    func quarantineListAgreesWithList() throws {
        let directory = try TestSupport.makeTemporaryDirectory("quarantine-command")
        let plugin = directory + "/plugin.so"
        try TestSupport.write(Array("first version".utf8), to: plugin)
        let environment = ["XDG_STATE_HOME": directory + "/state"]
        let store = QuarantineStore(environment: environment)
        for at in 0..<3 { try store.recordCrash(path: plugin, pluginID: "org.example.x", reason: "SIGSEGV during render", at: Int64(at)) }
        func listed() throws -> (status: String?, reason: String?, text: String, held: Bool) {
            let json = try InProcessCLI.run(["quarantine", "list", "--json"], extraEnvironment: environment)
            let text = try InProcessCLI.run(["quarantine", "list"], extraEnvironment: environment)
            let entry = try JSONParser.parse(json.out).array?.first
            return (entry?["status"]?.string, entry?["reason"]?.string, text.out, try !store.quarantineReasons(paths: [plugin]).isEmpty)
        }
        let before = try listed()
        #expect(before.held && before.status == "quarantined" && before.reason?.contains("runs again when its file changes") == true)
        #expect(before.text.contains("org.example.x  quarantined"), "\(before.text)")
        try TestSupport.write(Array("second, longer version".utf8), to: plugin)
        let after = try listed()
        #expect(!after.held, "list lets it run")
        #expect(after.status == "released" && after.reason == "its file changed since, so it runs again and these crashes no longer count")
        #expect(after.text.contains("org.example.x  released") && !after.text.contains("quarantined"), "\(after.text)")
    }

    @Test("a damaged quarantine file is an error for the whole list, not a guess")
    func listingDamagedFile() throws {
        let directory = try TestSupport.makeTemporaryDirectory("quarantine-damaged")
        try TestSupport.write(Array("{not json".utf8), to: directory + "/quarantine.json")
        let store = QuarantineStore(path: directory + "/quarantine.json")
        #expect(throws: QuarantineStore.Failure.self) { try store.quarantineReasons(paths: [directory + "/a.so"]) }
        #expect(try QuarantineStore(path: directory + "/absent.json").quarantineReasons(paths: [directory + "/a.so"]).isEmpty)
    }
}
