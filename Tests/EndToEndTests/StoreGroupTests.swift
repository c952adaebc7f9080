import Foundation
import Glibc
import PluginABI
import Testing
@testable import WidgetHostKit
@testable import TestSupport

private typealias Kit = IsolationTestKit

/// The store's groups, proven by attack: services.c built as a nosy plugin
/// that declares other groups (or none) tries to read Trips' bookings and
/// overwrite Checkout's order, in process and isolated, and the files the
/// app wrote are unchanged afterwards.
@Suite("Store groups: a plugin reaches only the groups it declares")
struct StoreGroupTests {
    /// services.c as org.example.nosy, declaring `groups` (the inside of `"groups": {...}`).
    private static func nosy(_ groups: String) throws -> (path: String, candidate: PluginCandidate) {
        let path = try TestSupport.makeTemporaryDirectory("nosy") + "/nosy.so"
        let define = "-DSTORE_GROUPS=\"" + groups.replacingOccurrences(of: "\"", with: "\\\"") + "\""
        try TestSupport.compileC(source: TestSupport.fixtureDirectory + "/services.c", flags: [#"-DPLUGIN_ID="org.example.nosy""#, define],
                                 output: path)
        return (path, try Kit.candidate(path))
    }

    /// The plugin started in process or isolated, on a runtime whose store holds the victims.
    private struct Attack {
        let runtime: HostRuntime
        let instance: any WidgetInstance
        let recorder = LogRecorder()
        let store: SharedStore

        init(groups: String, isolated: Bool) throws {
            let (path, candidate) = try nosy(groups)
            let home = try Kit.Home()
            runtime = home.runtime(recorder)
            store = runtime.resolve(SharedStore.self)
            try store.put("trips.bookings", Array("the bookings".utf8))
            try store.put("checkout.orders.T", Array("the order".utf8))
            try store.put("legacy", Array("an old key in no group".utf8))
            if isolated {
                instance = try home.launcher().launch(candidate, runtime)
            } else {
                let loaded = try Loader.load(path: path, manifest: candidate.manifest!, serviceIDs: runtime.serviceIDs)
                instance = try PluginInstance(plugin: loaded, runtime: runtime)
            }
        }

        func act(_ action: String, _ value: String) throws -> JSONValue {
            try instance.handle(action: action, value: value)
            return try JSONParser.parse(Array(try instance.render(screen: "main", params: [:])))
        }

        /// Each victim's bytes, inode and modification time.
        func victims() throws -> [String] {
            try ["trips.bookings", "checkout.orders.T", "legacy"].map { key in
                var info = stat()
                guard stat(store.directory + "/" + key, &info) == 0 else { return "\(key): gone" }
                let bytes = try store.get(key) ?? []
                return "\(key): \(String(decoding: bytes, as: UTF8.self)) ino \(info.st_ino) mtime \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
            }
        }
    }

    private static let badKey = JSONValue.number(String(WH_STORE_BAD_KEY))

    @Test("without the group, a plugin cannot read Trips' bookings, overwrite Checkout's order, or reach a key in no group",
          arguments: [false, true])
    func noGroup(_ isolated: Bool) throws {
        let attack = try Attack(groups: "", isolated: isolated)
        let before = try attack.victims()
        let read = try attack.act("store_get", "trips.bookings")
        #expect(read["status"] == Self.badKey && read["value"] == .null, "\(read)")
        #expect(try attack.act("store_put", "checkout.orders.T=forged")["status"] == Self.badKey)
        #expect(try attack.act("store_remove", "checkout.orders.T")["status"] == Self.badKey)
        #expect(try attack.act("store_get", "legacy")["status"] == Self.badKey)
        #expect(try attack.act("store_put", "legacy=forged")["status"] == Self.badKey)
        #expect(try attack.victims() == before)
        #expect(try attack.store.keys() == ["checkout.orders.T", "legacy", "trips.bookings"])
        #expect(attack.recorder.recorded.contains { $0.contains("denied store read of 'trips.bookings': its manifest declares no store group \"trips\"") },
                "\(attack.recorder.recorded)")
    }

    @Test("a group declared read may be read, never written", arguments: [false, true])
    func readOnly(_ isolated: Bool) throws {
        let attack = try Attack(groups: #""trips": "read""#, isolated: isolated)
        let before = try attack.victims()
        #expect(try attack.act("store_get", "trips.bookings")["value"] == "the bookings")
        #expect(try attack.act("store_put", "trips.bookings=forged")["status"] == Self.badKey)
        #expect(try attack.act("store_remove", "trips.bookings")["status"] == Self.badKey)
        #expect(try attack.act("store_put", "trips.extra=new")["status"] == Self.badKey)
        #expect(try attack.victims() == before)
        #expect(attack.recorder.recorded.contains { $0.contains("declares store group \"trips\" read-only") })
    }

    @Test("a group declared read-write may be written", arguments: [false, true])
    func readWrite(_ isolated: Bool) throws {
        let attack = try Attack(groups: #""mine": "read-write""#, isolated: isolated)
        #expect(try attack.act("store_put", "mine.note=hello")["status"] == 0)
        #expect(try attack.store.get("mine.note") == Array("hello".utf8))
        #expect(try attack.act("store_remove", "mine.note")["status"] == .number(String(WH_STORE_FOUND)))
    }

    @Test("store.changed reaches a plugin only for the groups it may read", arguments: [false, true])
    func changeEvents(_ isolated: Bool) throws {
        let attack = try Attack(groups: #""mine": "read""#, isolated: isolated)
        _ = try attack.act("subscribe", "store.changed")
        try attack.store.put("trips.bookings", Array("changed bookings".utf8))
        try attack.store.put("mine.note", Array("for me".utf8))
        var keys: [String] = []
        #expect(Kit.eventually {
            attack.instance.pump()
            let events = (try? JSONParser.parse(Array((try? attack.instance.render(screen: "events", params: [:])) ?? [])))?["events"]?.array ?? []
            keys = events.compactMap { $0["payload"]?["key"]?.string }
            return keys.contains("mine.note")
        }, "\(keys)")
        #expect(keys == ["mine.note"])
    }

    @Test("the manifest's store field: groups and their access, or a clear error", arguments: [
        (#"{"groups": {"trips": "read", "a-b_1": "read-write"}}"#, nil as String?),
        (#"{"groups": {}}"#, nil),
        (#"{"groups": {"trips": "write"}}"#, "group \"trips\" must be \"read\" or \"read-write\""),
        (#"{"groups": {"a.b": "read"}}"#, "\"a.b\" is not a group name"),
        (#"{"groups": ["trips"]}"#, "manifest field \"store\" must be an object"),
        (#"["trips"]"#, "manifest field \"store\" must be an object"),
    ])
    func manifestField(_ field: String, _ problem: String?) throws {
        let text = #"{"abi": "1.0", "id": "org.example.s", "name": "S", "version": "1.0.0", "screens": [{"id": "main"}], "store": "#
            + field + "}"
        do {
            let manifest = try Manifest(bytes: Array(text.utf8))
            #expect(problem == nil, "accepted: \(field)")
            #expect(manifest.storeGroups.count == (field.contains("trips") ? 2 : 0))
        } catch {
            #expect(problem.map { error.description.contains($0) } == true, "\(error)")
        }
    }

    @Test("store put writes into a group: a key without one is refused and nothing is written")
    func putNeedsGroup() throws {
        let home = try Kit.Home()
        let file = home.root + "/value"
        try TestSupport.write(Array("v".utf8), to: file)
        let refused = try home.run(["store", "put", "nogroup", "--file", file])
        #expect(refused.status != 0 && refused.stderr.contains("GROUP.NAME"), "\(refused)")
        #expect(try home.run(["store", "list"]).stdout == "")
        #expect(try home.run(["store", "put", "trips.bookings", "--file", file]).status == 0)
    }
}
