import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

private typealias Locked = ServiceTestKit.Locked

/// A bus with a started navigator over a catalog of test manifests, and a
/// record of every nav.changed and nav.error it published.
private final class NavigationHarness: Sendable {
    let bus = Bus()
    let navigator: Navigator
    let changed = Locked<[JSONValue]>([])
    let errors = Locked<[JSONValue]>([])

    init(_ manifests: [Manifest]) throws {
        navigator = Navigator(bus: bus) { name in
            manifests.first { $0.id.value == name || $0.id.shortName == name }
        }
        navigator.start()
        _ = try bus.subscribe("nav.changed") { [changed] event in
            let json = try JSONParser.parse(event.payload)
            changed.withLock { $0.append(json) }
        }
        _ = try bus.subscribe("nav.error") { [errors] event in
            let json = try JSONParser.parse(event.payload)
            errors.withLock { $0.append(json) }
        }
    }

    static func standard() throws -> NavigationHarness {
        try NavigationHarness([
            ServiceTestKit.manifest(id: "org.widgethost.checkout", screens: ["summary", "pay", "done"]),
            ServiceTestKit.manifest(id: "org.widgethost.trips", screens: ["list", "detail"]),
        ])
    }

    func send(_ topic: String, _ payload: JSONValue = .object([])) throws {
        try bus.publish(topic, payload: payload.serialized)
    }

    /// The stack as "plugin/screen" strings.
    var stack: [String] { navigator.stack.map { "\($0.plugin.value)/\($0.screen)" } }
}

@Suite("Navigator")
struct NavigatorTests {
    @Test("the host moves the stack by direct call and hears why not; a plugin's parsed link travels as a value, never parsed back")
    func directMovesAndValues() throws {
        let nav = try NavigationHarness.standard()
        let entry = NavigationEntry(plugin: try PluginID("org.widgethost.trips"), screen: "detail", params: ["id": "7"])
        try nav.navigator.apply(.root(entry))
        #expect(nav.stack == ["org.widgethost.trips/detail"])
        #expect(nav.navigator.top?.params == ["id": "7"])
        #expect(nav.bus.waitUntilIdle())
        #expect(nav.changed.value.last?["screen"] == "detail")
        // A refused direct move throws, changes nothing, and publishes no nav.error: its caller has the reason.
        #expect(throws: NavigationError("cannot pop the last screen")) { try nav.navigator.apply(.pop) }
        #expect(nav.bus.waitUntilIdle())
        #expect(nav.stack == ["org.widgethost.trips/detail"] && nav.changed.value.count == 1 && nav.errors.value.isEmpty)
        // A payload the navigator would refuse if it read it: it must not.
        nav.bus.enqueue(BusEvent(topic: "nav.push", payload: "not JSON", value: NavigationTarget(plugin: "checkout", screen: "pay")))
        #expect(nav.bus.waitUntilIdle())
        #expect(nav.stack == ["org.widgethost.trips/detail", "org.widgethost.checkout/pay"])
        // A parsed target is still checked against the plugins.
        nav.bus.enqueue(BusEvent(topic: "nav.push", payload: "{}", value: NavigationTarget(plugin: "ghost", screen: nil)))
        #expect(nav.bus.waitUntilIdle())
        #expect(nav.errors.withLock { $0.last?["reason"]?.string } == "unknown plugin 'ghost'")
        #expect(nav.stack.count == 2)
    }

    @Test("push, replace, pop and root change the stack and publish nav.changed")
    func stackOperations() throws {
        let nav = try NavigationHarness.standard()
        #expect(nav.navigator.stack.isEmpty)
        #expect(nav.navigator.top == nil)

        try nav.send("nav.push", ["plugin": "checkout", "screen": "summary"])
        #expect(nav.stack == ["org.widgethost.checkout/summary"])
        try nav.send("nav.push", ["plugin": "org.widgethost.trips", "screen": "detail", "params": ["id": "42"]])
        #expect(nav.stack == ["org.widgethost.checkout/summary", "org.widgethost.trips/detail"])
        #expect(nav.navigator.top?.params == ["id": "42"])
        try nav.send("nav.replace", ["plugin": "trips", "screen": "list"])
        #expect(nav.stack == ["org.widgethost.checkout/summary", "org.widgethost.trips/list"])
        try nav.send("nav.push", ["link": "widget://checkout/pay?amount=250.00"])
        #expect(nav.stack == ["org.widgethost.checkout/summary", "org.widgethost.trips/list", "org.widgethost.checkout/pay"])
        #expect(nav.navigator.top?.params == ["amount": "250.00"])
        try nav.send("nav.pop")
        #expect(nav.stack == ["org.widgethost.checkout/summary", "org.widgethost.trips/list"])
        try nav.send("nav.root", ["plugin": "checkout", "screen": "done"])
        #expect(nav.stack == ["org.widgethost.checkout/done"])

        #expect(nav.errors.value.isEmpty)
        let changes = nav.changed.value
        #expect(changes.count == 6)
        #expect(changes.map { $0["depth"] } == [.number("1"), .number("2"), .number("2"), .number("3"), .number("2"), .number("1")])
        #expect(changes.map { $0["screen"]?.string } == ["summary", "detail", "list", "pay", "list", "done"])
        #expect(changes[1]["plugin"] == "org.widgethost.trips")
        #expect(changes[1]["params"] == ["id": "42"])
        #expect(changes[3]["params"] == ["amount": "250.00"])
    }

    @Test("replace and push onto an empty stack start it")
    func emptyStack() throws {
        let nav = try NavigationHarness.standard()
        try nav.send("nav.replace", ["plugin": "trips"])
        #expect(nav.stack == ["org.widgethost.trips/list"])
        let other = try NavigationHarness.standard()
        try other.send("nav.push", ["link": "widget://trips"])
        #expect(other.stack == ["org.widgethost.trips/list"])
    }

    @Test("a target without a screen opens the plugin's first screen")
    func defaultScreen() throws {
        let nav = try NavigationHarness.standard()
        try nav.send("nav.push", ["plugin": "org.widgethost.checkout"])
        try nav.send("nav.push", ["link": "widget://trips/"])
        try nav.send("nav.push", ["link": "widget://org.widgethost.trips?x=1"])
        #expect(nav.stack == ["org.widgethost.checkout/summary", "org.widgethost.trips/list", "org.widgethost.trips/list"])
        #expect(nav.navigator.top?.params == ["x": "1"])
    }

    static let refusals: [(String, JSONValue, String)] = [
        ("nav.push", ["plugin": "nope"], "unknown plugin 'nope'"),
        ("nav.push", ["plugin": "org.widgethost.nope", "screen": "summary"], "unknown plugin"),
        ("nav.push", ["plugin": "checkout", "screen": "list"], "org.widgethost.checkout has no screen 'list'"),
        ("nav.replace", ["plugin": "trips", "screen": "summary"], "has no screen 'summary'"),
        ("nav.root", ["link": "widget://ghost/main"], "unknown plugin 'ghost'"),
        ("nav.root", ["link": "widget://checkout/nothing"], "has no screen 'nothing'"),
        ("nav.push", ["link": "http://checkout/summary"], "malformed link"),
        ("nav.push", ["link": "widget://checkout/a/b"], "malformed link"),
        ("nav.push", [:], "needs \"plugin\" or \"link\""),
        ("nav.push", ["plugin": ""], "needs \"plugin\" or \"link\""),
        ("nav.push", ["screen": "summary"], "needs \"plugin\" or \"link\""),
        ("nav.push", "just a string", "needs \"plugin\" or \"link\""),
        ("nav.push", ["link": "widget://trips/detail?widget-host.size=large"], "the parameter 'widget-host.size' is the host's to set"),
        ("nav.replace", ["plugin": "trips", "params": ["id": "7", "widget-host.other": "x"]], "the parameter 'widget-host.other' is the host's"),
    ]

    @Test("an unknown plugin or screen, or a reserved parameter, publishes nav.error and leaves the stack unchanged", arguments: refusals)
    func refusedRequest(topic: String, payload: JSONValue, reason: String) throws {
        let nav = try NavigationHarness.standard()
        try nav.send("nav.push", ["plugin": "checkout", "screen": "pay"])
        let changesBefore = nav.changed.value.count
        try nav.send(topic, payload)
        #expect(nav.stack == ["org.widgethost.checkout/pay"])
        #expect(nav.changed.value.count == changesBefore)
        let errors = nav.errors.value
        #expect(errors.count == 1)
        #expect(errors.first?["request"] == .string(topic))
        let text = errors.first?["reason"]?.string ?? ""
        #expect(text.contains(reason), "reason was: \(text)")
    }

    @Test("popping the last screen is refused, and so is popping an empty stack")
    func popLast() throws {
        let nav = try NavigationHarness.standard()
        try nav.send("nav.pop")
        #expect(nav.errors.value.count == 1)
        #expect(nav.navigator.stack.isEmpty)
        try nav.send("nav.push", ["plugin": "trips"])
        try nav.send("nav.push", ["plugin": "trips", "screen": "detail"])
        try nav.send("nav.pop")
        try nav.send("nav.pop")
        #expect(nav.stack == ["org.widgethost.trips/list"])
        let errors = nav.errors.value
        #expect(errors.count == 2)
        #expect(errors.last?["request"] == "nav.pop")
        #expect(errors.last?["reason"] == "cannot pop the last screen")
    }

    @Test("a payload that is not JSON (bypassing the bus's check) is refused with nav.error")
    func nonJSONPayload() throws {
        let nav = try NavigationHarness.standard()
        nav.bus.enqueue(BusEvent(topic: "nav.push", payload: "not json"))
        #expect(nav.navigator.stack.isEmpty)
        #expect(nav.errors.value.first?["reason"] == "payload is not JSON")
    }

    @Test("a stopped (released) navigator no longer listens")
    func releasedNavigator() throws {
        let bus = Bus()
        let manifest = try ServiceTestKit.manifest(id: "org.example.one", screens: ["main"])
        do {
            let navigator = Navigator(bus: bus) { $0 == "one" ? manifest : nil }
            navigator.start()
            #expect(bus.subscriberCount == Navigator.topics.count)
            try bus.publish("nav.push", payload: #"{"plugin":"one"}"#)
            #expect(navigator.stack.count == 1)
        }
        #expect(bus.subscriberCount == 0)
        try bus.publish("nav.push", payload: #"{"plugin":"one"}"#)
    }

    @Test("resolve checks a target against the catalog")
    func resolve() throws {
        let nav = try NavigationHarness.standard()
        let entry = try nav.navigator.resolve(NavigationTarget(plugin: "trips", screen: "detail", params: [("id", "7")]))
        #expect(entry == NavigationEntry(plugin: try PluginID("org.widgethost.trips"), screen: "detail", params: ["id": "7"]))
        #expect(throws: NavigationError.self) { try nav.navigator.resolve(NavigationTarget(plugin: "trips", screen: "pay")) }
        #expect(throws: NavigationError.self) { try nav.navigator.resolve(NavigationTarget(plugin: "x", screen: nil)) }
    }

    @Test("a person's --screen, deep link or served address naming a widget-host. parameter is refused as the host's, whatever the screen")
    func reservedParameters() throws {
        let nav = try NavigationHarness.standard()
        let refusal = NavigationError("the parameter 'widget-host.size' is the host's to set: names starting widget-host. are reserved")
        let targets = [
            try LaunchCommand.target("trips", screen: "detail?id=7&widget-host.size=large"),
            try LaunchCommand.target("widget://trips?widget-host.size=small", screen: nil),
            try #require(HTMLWriter.target(path: "/w/trips/detail", query: "id=7&widget-host.size=medium")),
            try NavigationTarget(link: "widget://trips/detail?widget-host.size=large"),
        ]
        for target in targets {
            #expect(throws: refusal, "\(target.link)") { try nav.navigator.resolve(target) }
        }
        // Only the host's prefix: a plugin's own parameter that merely mentions it is the plugin's.
        #expect(try nav.navigator.resolve(NavigationTarget(plugin: "trips", screen: "detail", params: [("x.widget-host.size", "1")])).screen == "detail")
    }

    @Test("a parameter given twice is refused, however it came: an isolated widget's process took the object it made for a broken protocol")
    func repeatedParameters() throws {
        let nav = try NavigationHarness.standard()
        let refusal = NavigationError("the parameter 'id' is given twice; give each parameter once")
        for target in [try #require(HTMLWriter.target(path: "/w/trips/detail", query: "id=1&id=2")),
                       try NavigationTarget(link: "widget://trips/detail?id=1&x=0&id=1"),
                       try LaunchCommand.target("trips", screen: "detail?id=7&id=8")] {
            #expect(throws: refusal, "\(target.link)") { try nav.navigator.resolve(target) }
        }
        #expect(try nav.navigator.resolve(NavigationTarget(link: "widget://trips/detail?id=1&x=1")).params == ["id": "1", "x": "1"])
    }
}

@Suite("Deep links")
struct DeepLinkTests {
    @Test("widget://PLUGIN/SCREEN?k=v parses, with percent-decoding and params in order")
    func parse() throws {
        let target = try NavigationTarget(link: "widget://checkout/summary?amount=250.00&note=hello%20world&note=again")
        #expect(target.plugin == "checkout")
        #expect(target.screen == "summary")
        #expect(target.params.map(\.0) == ["amount", "note", "note"])
        #expect(target.params.map(\.1) == ["250.00", "hello world", "again"])
    }

    @Test("the screen and query are optional",
          arguments: [
              ("widget://org.widgethost.trips", "org.widgethost.trips", nil as String?, 0),
              ("widget://trips/", "trips", nil, 0),
              ("widget://trips?x=1", "trips", nil, 1),
              ("widget://trips/?x=1&y=2", "trips", nil, 2),
              ("widget://trips/detail", "trips", "detail", 0),
              ("widget://trips/detail?", "trips", "detail", 0),
              ("widget://trips/detail?&&", "trips", "detail", 0),
              ("widget://my-plugin_2/screen_1-a", "my-plugin_2", "screen_1-a", 0),
          ])
    func optionalParts(link: String, plugin: String, screen: String?, paramCount: Int) throws {
        let target = try NavigationTarget(link: link)
        #expect(target.plugin == plugin)
        #expect(target.screen == screen)
        #expect(target.params.count == paramCount)
    }

    @Test("values decode %XX (UTF-8) and +, keep = after the first, and may be empty")
    func decoding() throws {
        let target = try NavigationTarget(link: "widget://p/s?city=S%C3%A3o+Paulo&eq=a=b&flag&empty=&amp=%26%3D%25&k%20ey=v")
        #expect(target.params.map(\.0) == ["city", "eq", "flag", "empty", "amp", "k ey"])
        #expect(target.params.map(\.1) == ["S\u{E3}o Paulo", "a=b", "", "", "&=%", "v"])
        let encodedScreen = try NavigationTarget(link: "widget://p/d%65tail")
        #expect(encodedScreen.screen == "detail")
        let lowercaseHex = try NavigationTarget(link: "widget://p/s?x=%c3%a9")
        #expect(lowercaseHex.params.first?.1 == "\u{E9}")
    }

    @Test("malformed links are refused",
          arguments: [
              ("http://checkout/summary", "must start with widget://"),
              ("widget:/checkout", "must start with widget://"),
              ("WIDGET://checkout", "must start with widget://"),
              ("checkout/summary", "must start with widget://"),
              ("", "must start with widget://"),
              ("widget://", "names no plugin"),
              ("widget:///summary", "names no plugin"),
              ("widget://?x=1", "names no plugin"),
              ("widget://checkout/summary/extra", "more than PLUGIN/SCREEN"),
              ("widget://checkout/summary/", "more than PLUGIN/SCREEN"),
              ("widget://checkout//summary", "more than PLUGIN/SCREEN"),
              ("widget://checkout/%zz", "bad percent-encoding"),
              ("widget://checkout/%4", "bad percent-encoding"),
              ("widget://checkout/summary?x=%", "bad percent-encoding"),
              ("widget://checkout/summary?x=%G1", "bad percent-encoding"),
              ("widget://check%ZZout", "bad percent-encoding"),
              ("widget://checkout/%FF", "not UTF-8"),
              ("widget://checkout/Summary", "not a screen id"),
              ("widget://checkout/sum mary", "not a screen id"),
              ("widget://checkout/%2E%2E", "not a screen id"),
              ("widget://checkout/a%2Fb", "not a screen id"),
              ("widget://checkout/" + String(repeating: "s", count: 65), "not a screen id"),
              ("widget://check out/summary", "not a plugin id"),
              ("widget://check%2Fout", "not a plugin id"),
              ("widget://caf%C3%A9", "not a plugin id"),
              ("widget://checkout/summary?=v", "has no name"),
              ("widget://checkout/summary?a=1&=2", "has no name"),
          ])
    func malformed(link: String, message: String) throws {
        let error = #expect(throws: DeepLinkError.self) { try NavigationTarget(link: link) }
        #expect(error?.link == link)
        #expect(error?.message.contains(message) == true, "message was: \(error?.message ?? "none")")
        #expect(error?.description.hasPrefix("malformed link") == true)
    }

    @Test("a target's link parses back into the same target")
    func roundTrip() throws {
        let targets = [
            NavigationTarget(plugin: "checkout", screen: "summary", params: [("amount", "250.00"), ("note", "a b&c=d%e+f/g?")]),
            NavigationTarget(plugin: "org.widgethost.trips", screen: nil),
            NavigationTarget(plugin: "trips", screen: nil, params: [("city", "S\u{E3}o Paulo \u{1F680}"), ("empty", "")]),
        ]
        for target in targets {
            #expect(try NavigationTarget(link: target.link) == target, "\(target.link)")
        }
        #expect(targets[1].link == "widget://org.widgethost.trips")
    }

    @Test("navigation payloads: plugin/screen/params or a link")
    func jsonPayloads() throws {
        let fromLink = try NavigationTarget(json: ["link": "widget://trips/detail?id=1"])
        #expect(fromLink == NavigationTarget(plugin: "trips", screen: "detail", params: [("id", "1")]))
        let fromFields = try NavigationTarget(json: ["plugin": "trips", "screen": "detail", "params": ["id": "1", "n": 2, "ok": true]])
        #expect(fromFields.plugin == "trips")
        #expect(fromFields.params.map(\.1) == ["1", "2", "true"])
        #expect(try NavigationTarget(json: fromFields.json) == fromFields)
        #expect(throws: DeepLinkError.self) { try NavigationTarget(json: ["link": "widget://"]) }
        #expect(throws: DeepLinkError.self) { try NavigationTarget(json: ["plugin": 3]) }
        #expect(throws: DeepLinkError.self) { try NavigationTarget(json: [:]) }
    }
}
