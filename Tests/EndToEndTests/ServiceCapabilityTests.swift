import Foundation
import PluginABI
import Testing
@testable import WidgetHostKit
@testable import TestSupport

private typealias Locked = ServiceTestKit.Locked

/// Tests/Fixtures/plugins/services.c, compiled once per variant per test run.
private struct ServicesPlugin: Sendable {
    let path: String
    let manifest: Manifest

    static let standard = Result { try compile("services", defines: []) }
    static let other = Result { try compile("services-other", defines: [#"-DPLUGIN_ID="org.example.other""#]) }
    static let requiresFuture = Result { try compile("services-future", defines: ["-DREQUIRE_FUTURE"]) }

    private static func compile(_ name: String, defines: [String]) throws -> ServicesPlugin {
        let path = try ServiceTestKit.temporaryDirectory("services-plugin") + "/lib\(name).so"
        try TestSupport.compileC(source: TestSupport.fixtureDirectory + "/services.c", flags: defines, output: path)
        // Read the manifest from the ELF file, as discovery does.
        let image = try ELFImage(path: path, manifestSection: WH_MANIFEST_SECTION, entrySymbol: WH_ENTRY_SYMBOL,
                                 maxManifestBytes: Int(WH_MANIFEST_MAX_BYTES))
        guard let bytes = image.manifest else { throw TestSupport.Failure("\(path) has no manifest") }
        return ServicesPlugin(path: path, manifest: try Manifest(bytes: bytes))
    }
}

/// A runtime with a recording log, and one loaded instance of a services
/// plugin driven through its actions.
private final class Harness {
    let recorder = LogRecorder()
    let runtime: HostRuntime
    let instance: PluginInstance
    let wakes = ServiceTestKit.Counter()

    init(_ plugin: Result<ServicesPlugin, any Error> = ServicesPlugin.standard, config: HostConfig = .empty,
         clock: HostClock = HostClock(), storeDirectory: String? = nil, runtime shared: HostRuntime? = nil) throws {
        let directory = try storeDirectory ?? (ServiceTestKit.temporaryDirectory("services-store") + "/shared")
        runtime = shared ?? HostRuntime(config: config, clock: clock, storeDirectory: directory,
                                        log: HostLog(threshold: .debug, sink: recorder.sink))
        let plugin = try plugin.get()
        let loaded = try Loader.load(path: plugin.path, manifest: plugin.manifest, serviceIDs: runtime.serviceIDs)
        instance = try PluginInstance(plugin: loaded, runtime: runtime)
        instance.context.onWake { [wakes] in wakes.increment() }
    }

    /// Runs an action and returns the plugin's JSON record of what happened.
    @discardableResult
    func act(_ action: String, _ value: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
        try instance.handle(action: action, value: value)
        return try ServiceTestKit.json(instance.render(screen: "main"), sourceLocation: sourceLocation)
    }

    /// Every event that reached the plugin's on_event, as (topic, payload).
    func events() throws -> [(topic: String, payload: JSONValue)] {
        let json = try ServiceTestKit.json(instance.render(screen: "events"))
        return (json["events"]?.array ?? []).map { ($0["topic"]?.string ?? "?", $0["payload"] ?? .null) }
    }

    var log: [String] { recorder.recorded }

    func logged(_ level: String, _ parts: String...) -> Bool {
        log.contains { line in line.contains("[\(level)] \(instance.context.pluginID.value):") && parts.allSatisfy { line.contains($0) } }
    }
}

private func number(_ value: some BinaryInteger) -> JSONValue { .number(String(value)) }

/// A host-side subscriber that records (topic, payload) for a pattern.
private func record(_ bus: Bus, _ pattern: String) throws -> Locked<[BusEvent]> {
    let events = Locked<[BusEvent]>([])
    _ = try bus.subscribe(pattern) { event in events.withLock { $0.append(event) } }
    return events
}

@Suite("Service capabilities (C plugin, in process)")
struct ServiceCapabilityTests {
    // MARK: Services

    @Test("get_service grants declared services, denies undeclared ones with a log line naming plugin and service")
    func services() throws {
        let harness = try Harness()
        for id in [WH_SERVICE_LOG, WH_SERVICE_BUS, WH_SERVICE_CONFIG, WH_SERVICE_STORE, WH_SERVICE_CLOCK, WH_SERVICE_NAVIGATOR] {
            #expect(try harness.act("service", id)["found"] == true, "\(id) is declared")
        }
        #expect(!harness.log.contains { $0.contains("denied service") })

        // The host provides http, but the plugin did not declare it.
        #expect(try harness.act("service", WH_SERVICE_HTTP)["found"] == false)
        #expect(harness.logged("warning", "denied service \(WH_SERVICE_HTTP)", "does not declare it"), "\(harness.log)")

        // Unknown and malformed ids are denied too.
        for id in ["widget-host.bus/2", "nonsense", "", "widget-host.log/1 "] {
            #expect(try harness.act("service", id)["found"] == false, "'\(id)'")
            #expect(harness.logged("warning", "denied service \(id)"), "'\(id)': \(harness.log)")
        }

        // Declared (optional) but not provided by this host: NULL, logged as info.
        #expect(try harness.act("service", "widget-host.future/8")["found"] == false)
        #expect(harness.logged("info", "widget-host.future/8", "does not provide"), "\(harness.log)")
    }

    @Test("a required service the host lacks is rejected at load; a missing optional one is not")
    func missingRequiredService() throws {
        let runtime = HostRuntime(storeDirectory: try ServiceTestKit.temporaryDirectory("services-store"))
        let future = try ServicesPlugin.requiresFuture.get()
        #expect(throws: LoadError.missingService("widget-host.future/9")) {
            try Loader.load(path: future.path, manifest: future.manifest, serviceIDs: runtime.serviceIDs)
        }
        let standard = try ServicesPlugin.standard.get()
        #expect(standard.manifest.optionalServices.contains("widget-host.future/8"))
        _ = try Loader.load(path: standard.path, manifest: standard.manifest, serviceIDs: runtime.serviceIDs)
        var withoutLog = runtime.serviceIDs
        withoutLog.remove(WH_SERVICE_LOG)
        #expect(throws: LoadError.missingService(WH_SERVICE_LOG)) {
            try Loader.load(path: standard.path, manifest: standard.manifest, serviceIDs: withoutLog)
        }
        #expect(LoadError.missingService("widget-host.future/9").description.contains("widget-host.future/9"))
    }

    @Test("the log service attributes messages to the calling plugin")
    func logService() throws {
        let harness = try Harness()
        let other = try Harness(ServicesPlugin.other, runtime: harness.runtime)
        try harness.act("log", "hello from C")
        try other.act("log", "hello from the other")
        #expect(harness.log.contains("widget-host: [warning] org.example.services: hello from C"), "\(harness.log)")
        #expect(harness.log.contains("widget-host: [warning] org.example.other: hello from the other"), "\(harness.log)")
    }

    // MARK: Bus

    @Test("publish: declared topics are delivered, undeclared ones get WH_BUS_DENIED and go nowhere")
    func publish() throws {
        let harness = try Harness()
        let seen = try record(harness.runtime.resolve(Bus.self), "#")

        #expect(try harness.act("publish", #"services.out {"a":1}"#)["status"] == 0)
        #expect(try harness.act("publish", "services.status.ready []")["status"] == 0)

        let denied = ["services.secret", "services.status.a.b", "services.status", "feed.prices", "store.changed", "other"]
        for topic in denied {
            #expect(try harness.act("publish", "\(topic) {}")["status"] == number(WH_BUS_DENIED), "\(topic)")
            #expect(harness.logged("warning", "denied publish to \(topic)"), "\(topic): \(harness.log)")
        }
        for topic in ["bad..topic", "services.*", "services.#", ".services"] {
            #expect(try harness.act("publish", "\(topic) {}")["status"] == number(WH_BUS_INVALID_TOPIC), "\(topic)")
        }
        for payload in ["not-json", "{", "{\"a\":}", "[1,]"] {
            #expect(try harness.act("publish", "services.out \(payload)")["status"] == number(WH_BUS_INVALID_PAYLOAD), "\(payload)")
        }
        #expect(seen.value == [BusEvent(topic: "services.out", payload: #"{"a":1}"#),
                               BusEvent(topic: "services.status.ready", payload: "[]")])
    }

    @Test("subscribe: declared patterns and narrower ones are granted, anything wider or undeclared is denied")
    func subscribe() throws {
        let harness = try Harness()
        for pattern in ["feed.*", "feed.prices", "store.changed"] {
            let id = try harness.act("subscribe", pattern)["id"]
            guard case let .number(text)? = id, let value = Int64(text), value > 0 else {
                Issue.record("\(pattern): expected a subscription id > 0, got \(String(describing: id))")
                continue
            }
        }
        for pattern in ["feed.#", "#", "*.prices", "feed.prices.now", "services.out", "other.x", "*"] {
            #expect(try harness.act("subscribe", pattern)["id"] == number(WH_BUS_DENIED), "\(pattern)")
            #expect(harness.logged("warning", "denied subscription to \(pattern)"), "\(pattern): \(harness.log)")
        }
        for pattern in ["a.#.b", "feed..x", "", "feed.pri ces"] {
            #expect(try harness.act("subscribe", pattern)["id"] == number(WH_BUS_INVALID_TOPIC), "'\(pattern)'")
        }
        #expect(harness.runtime.resolve(Bus.self).subscriberCount == 3)
    }

    @Test("events reach on_event only through pump(), in order, once per matching subscription")
    func eventsThroughPump() throws {
        let harness = try Harness()
        let bus = harness.runtime.resolve(Bus.self)
        guard case let .number(wide)? = try harness.act("subscribe", "feed.*")["id"],
              case let .number(narrow)? = try harness.act("subscribe", "feed.prices")["id"] else {
            Issue.record("subscribe failed: \(harness.log)")
            return
        }
        let wakesBefore = harness.wakes.value
        try bus.publish("feed.prices", payload: #"{"usd":1}"#)
        try bus.publish("feed.news", payload: #"{"n":2}"#)
        try bus.publish("other.thing", payload: "{}")
        try bus.publish("feed.a.b", payload: "{}")
        // Nothing runs plugin code until the host's main thread pumps.
        #expect(try harness.events().isEmpty)
        #expect(harness.wakes.value > wakesBefore, "an event waiting must wake the host")

        #expect(harness.instance.pump() == 3)
        #expect(harness.instance.pump() == 0)
        var events = try harness.events()
        #expect(events.map(\.topic) == ["feed.prices", "feed.prices", "feed.news"])
        #expect(events.map(\.payload) == [["usd": 1], ["usd": 1], ["n": 2]])

        // After unsubscribing the narrow subscription, one delivery per event.
        try harness.act("unsubscribe", narrow)
        try bus.publish("feed.prices", payload: #"{"usd":3}"#)
        #expect(harness.instance.pump() == 1)

        // Events queued for a subscription that then ends are dropped.
        try bus.publish("feed.prices", payload: #"{"usd":4}"#)
        try harness.act("unsubscribe", wide)
        #expect(harness.instance.pump() == 0)
        try bus.publish("feed.prices", payload: #"{"usd":5}"#)
        #expect(harness.instance.pump() == 0)
        events = try harness.events()
        #expect(events.map(\.payload) == [["usd": 1], ["usd": 1], ["n": 2], ["usd": 3]])

        // Unknown ids are ignored.
        try harness.act("unsubscribe", "123456")
        #expect(bus.subscriberCount == 0)
    }

    @Test("store changes reach a subscribed plugin after a pump, and request_render wakes the host")
    func ownEventsAndWake() throws {
        let harness = try Harness()
        try harness.act("subscribe", "store.changed")
        let wakes = harness.wakes.value
        try harness.act("render_request")
        #expect(harness.wakes.value == wakes + 1)
        try harness.runtime.resolve(SharedStore.self).put("shared.key", [1])
        #expect(harness.instance.pump() == 1)
        #expect(try harness.events().first?.payload == ["key": "shared.key", "change": "put"])
    }

    @Test("releasing an instance ends its subscriptions")
    func instanceRelease() throws {
        let harness = try Harness()
        try harness.act("subscribe", "feed.*")
        #expect(harness.runtime.resolve(Bus.self).subscriberCount == 1)
        let runtime = harness.runtime
        do {
            let second = try Harness(runtime: runtime)
            try second.act("subscribe", "feed.*")
            #expect(runtime.resolve(Bus.self).subscriberCount == 2)
        }
        #expect(runtime.resolve(Bus.self).subscriberCount == 1)
        try runtime.resolve(Bus.self).publish("feed.x")
        #expect(harness.instance.pump() == 1)
    }

    // MARK: Config

    @Test("config: a plugin sees only its own section, by full id or short name, with --set overrides")
    func config() throws {
        var config = HostConfig(root: try ServiceTestKit.json("""
        {"plugins": {
            "services": {"a": 1, "shared": "short"},
            "org.example.services": {"shared": "full", "b": [1, 2]},
            "org.example.other": {"secret": "other's"},
            "other": {"alsoSecret": true},
            "org.example.unrelated": {"x": 1}
        }}
        """))
        try config.set("services.c=over")
        try config.set(#"org.example.services.d={"x":null}"#)
        try config.set("other.e=1")
        let harness = try Harness(config: config)
        let other = try Harness(ServicesPlugin.other, runtime: harness.runtime)

        let whole = try harness.act("config")
        #expect(whole["found"] == 1)
        #expect(whole["value"] == ["a": 1, "shared": "full", "b": [1, 2], "c": "over", "d": ["x": nil]])
        #expect(try harness.act("config", "shared")["value"] == "full")
        #expect(try harness.act("config", "d")["value"] == ["x": nil])
        for key in ["secret", "alsoSecret", "e", "x", "plugins", "org.example.other"] {
            let answer = try harness.act("config", key)
            #expect(answer["found"] == 0, "\(key)")
            #expect(answer["value"] == .null, "\(key)")
        }

        #expect(try other.act("config")["value"] == ["alsoSecret": true, "secret": "other's", "e": 1])
        #expect(try other.act("config", "a")["found"] == 0)
        #expect(try other.act("config", "shared")["found"] == 0)
    }

    @Test("config: an empty configuration gives an empty section")
    func emptyConfig() throws {
        let harness = try Harness()
        let whole = try harness.act("config")
        #expect(whole["found"] == 1)
        #expect(whole["value"] == .object([]))
        #expect(try harness.act("config", "anything")["found"] == 0)
    }

    // MARK: Store

    @Test("store: get, put and remove through the C table, with store.changed on the bus")
    func store() throws {
        let harness = try Harness()
        let changes = try record(harness.runtime.resolve(Bus.self), "store.changed")
        #expect(try harness.act("store_get", "shared.greeting") == ["action": "store_get", "status": number(WH_STORE_MISSING), "value": nil])
        #expect(try harness.act("store_put", "shared.greeting=hello \"world\"")["status"] == 0)
        #expect(try harness.act("store_get", "shared.greeting")["status"] == number(WH_STORE_FOUND))
        #expect(try harness.act("store_get", "shared.greeting")["value"] == "hello \"world\"")
        #expect(try harness.runtime.resolve(SharedStore.self).get("shared.greeting") == Array("hello \"world\"".utf8))

        // The host (an app) writes; the plugin reads.
        try harness.runtime.resolve(SharedStore.self).put("app.data", Array("app data".utf8))
        #expect(try harness.act("store_get", "app.data")["value"] == "app data")
        #expect(try harness.act("store_put", "shared.empty=")["status"] == 0)
        #expect(try harness.act("store_get", "shared.empty")["value"] == "")

        #expect(try harness.act("store_remove", "shared.greeting")["status"] == number(WH_STORE_FOUND))
        #expect(try harness.act("store_remove", "shared.greeting")["status"] == number(WH_STORE_MISSING))
        #expect(try harness.act("store_get", "shared.greeting")["status"] == number(WH_STORE_MISSING))
        #expect(try harness.runtime.resolve(SharedStore.self).keys() == ["app.data", "shared.empty"])

        let payloads = try changes.value.map { try ServiceTestKit.json($0.payload) }
        #expect(payloads == [["key": "shared.greeting", "change": "put"], ["key": "app.data", "change": "put"],
                             ["key": "shared.empty", "change": "put"], ["key": "shared.greeting", "change": "remove"]])
    }

    @Test("store: bad keys get WH_STORE_BAD_KEY and a log line, and change nothing",
          arguments: ["../escape", ".hidden", "a/b", "", "caf\u{E9}"])
    func storeBadKey(key: String) throws {
        let harness = try Harness()
        #expect(try harness.act("store_put", "\(key)=x")["status"] == number(WH_STORE_BAD_KEY))
        #expect(try harness.act("store_get", key)["status"] == number(WH_STORE_BAD_KEY))
        #expect(try harness.act("store_remove", key)["status"] == number(WH_STORE_BAD_KEY))
        #expect(harness.logged("warning", "store:"), "\(harness.log)")
        #expect(try harness.runtime.resolve(SharedStore.self).keys() == [])
    }

    @Test("store: a disk error is WH_STORE_IO_ERROR, not a crash")
    func storeIOError() throws {
        let base = try ServiceTestKit.temporaryDirectory("services-store")
        try TestSupport.write(Array("a file".utf8), to: base + "/shared")   // the store directory is a file
        let harness = try Harness(storeDirectory: base + "/shared")
        #expect(try harness.act("store_put", "shared.k=v")["status"] == number(WH_STORE_IO_ERROR))
        #expect(try harness.act("store_get", "shared.k")["status"] == number(WH_STORE_IO_ERROR))
        #expect(harness.logged("warning", "store:"), "\(harness.log)")
    }

    // MARK: Clock

    @Test("clock: now_ms follows the host clock's override")
    func clock() throws {
        let start = try #require(ISO8601.milliseconds(from: "2026-05-01T09:30:00Z"))
        let harness = try Harness(clock: HostClock(startingAt: start))
        guard case let .number(text)? = try harness.act("clock")["now"], let now = Int64(text) else {
            Issue.record("no clock reading")
            return
        }
        #expect(now >= start)
        #expect(now < start + 3_600_000, "the override applies (an hour is a sanity bound, not a timing test)")

        let past = try Harness(clock: HostClock(startingAt: 0))
        guard case let .number(early)? = try past.act("clock")["now"], let then = Int64(early) else { return }
        #expect(then >= 0 && then < 3_600_000)
    }

    // MARK: Navigator

    @Test("navigator: a plugin pushes its own screens and another plugin's; bad targets change nothing")
    func navigator() throws {
        let harness = try Harness()
        let maps = try ServiceTestKit.manifest(id: "org.example.maps", screens: ["map", "detail"])
        let manifests = [harness.instance.plugin.manifest, maps]
        let navigator = Navigator(bus: harness.runtime.resolve(Bus.self)) { name in
            manifests.first { $0.id.value == name || $0.id.shortName == name }
        }
        navigator.start()
        let errors = try record(harness.runtime.resolve(Bus.self), "nav.error")
        func stack() -> [String] { navigator.stack.map { "\($0.plugin.value)/\($0.screen)" } }

        #expect(try harness.act("nav_push", "widget://services/events")["status"] == 0)
        #expect(stack() == ["org.example.services/events"])
        #expect(try harness.act("nav_push", "widget://org.example.maps/detail?id=3&name=Caf%C3%A9")["status"] == 0)
        #expect(stack() == ["org.example.services/events", "org.example.maps/detail"])
        #expect(navigator.top?.params == ["id": "3", "name": "Caf\u{E9}"])
        #expect(try harness.act("nav_replace", "widget://maps")["status"] == 0)
        #expect(stack() == ["org.example.services/events", "org.example.maps/map"])
        #expect(try harness.act("nav_pop")["status"] == 0)
        #expect(stack() == ["org.example.services/events"])
        #expect(errors.value.isEmpty)

        // Refused by the navigator: the request is accepted, nav.error says why.
        try harness.act("nav_pop")
        try harness.act("nav_push", "widget://ghost/x")
        try harness.act("nav_push", "widget://maps/nowhere")
        #expect(stack() == ["org.example.services/events"])
        #expect(errors.value.count == 3)

        // Refused by the service itself: a link that does not parse.
        for link in ["not a link", "widget://", "widget://maps/a/b", "widget://maps/%zz"] {
            #expect(try harness.act("nav_push", link)["status"] == number(WH_NAV_MALFORMED_LINK), "\(link)")
        }
        #expect(harness.logged("warning", "malformed link"), "\(harness.log)")
        #expect(stack() == ["org.example.services/events"])

        #expect(try harness.act("nav_root", "widget://maps/detail")["status"] == 0)
        #expect(stack() == ["org.example.maps/detail"])
    }
}
