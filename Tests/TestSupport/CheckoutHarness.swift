import Foundation
import Testing
@testable import WidgetHostKit

/// The built Checkout plugin, loaded into the test process with a host
/// runtime of its own: its configuration section, a clock set to a chosen
/// instant, a private shared container, and a recorder on the bus. Each
/// harness is independent, so tests can run in parallel.
final class CheckoutHarness {
    static let pluginPath = TestSupport.productsDirectory + "/libCheckoutPlugin.so"
    /// A Friday far from midnight UTC, so a slow machine cannot cross a day.
    static let defaultNow = "2026-05-01T09:30:00Z"

    /// A valid configuration section; tests change or remove keys from it.
    static let baseConfiguration: [(String, JSONValue)] = [
        ("minimumAmount", "50.00"), ("maximumAmount", "2000.00"), ("currencyCode", "USD"), ("locale", "en_US"),
    ]

    let runtime: HostRuntime
    let instance: PluginInstance
    let logs = LogRecorder()
    private let recorded = ServiceTestKit.Locked<[BusEvent]>([])

    /// `section` is the plugin's configuration section; `orders` are put in the
    /// shared container (key, JSON text) before the widget is created.
    init(section: JSONValue, now: String = defaultNow, orders: [(String, String)] = []) throws {
        let store = try TestSupport.makeTemporaryDirectory("checkout-store")
        let start = try #require(ISO8601.milliseconds(from: now), "bad test instant \(now)")
        runtime = HostRuntime(config: HostConfig(root: ["plugins": ["checkout": section]]), clock: HostClock(startingAt: start),
                              storeDirectory: store, log: HostLog(threshold: .debug, sink: logs.sink))
        for (key, json) in orders { try runtime.resolve(SharedStore.self).put(key, Array(json.utf8)) }
        _ = try runtime.resolve(Bus.self).subscribe("checkout.#") { [recorded] event in
            recorded.withLock { $0.append(event) }
        }
        let candidate = Discovery(availableServices: runtime.serviceIDs).inspect(path: Self.pluginPath)
        let manifest = try #require(candidate.manifest, "no manifest in \(Self.pluginPath): \(candidate.status)")
        let plugin = try Loader.load(path: Self.pluginPath, manifest: manifest, serviceIDs: runtime.serviceIDs)
        instance = try PluginInstance(plugin: plugin, runtime: runtime)
    }

    /// The base configuration with `changes` applied: a value replaces or adds
    /// its key, `nil` removes it.
    convenience init(_ changes: [(String, JSONValue?)] = [], now: String = defaultNow, orders: [(String, String)] = []) throws {
        var members = Self.baseConfiguration
        for (key, value) in changes {
            members.removeAll { $0.0 == key }
            if let value { members.append((key, value)) }
        }
        try self.init(section: .object(members), now: now, orders: orders)
    }

    /// The checkout screen, parsed.
    func screen(params: JSONValue = .object([])) throws -> CheckoutScreen {
        let bytes = try instance.render(screen: "checkout", params: params)
        let view = try JSONParser.parse(bytes)
        #expect(view["view"] == 1)
        return CheckoutScreen(root: try #require(view["root"]))
    }

    func update(_ value: String?) throws(PluginInstance.CallError) {
        try instance.handle(action: "update", value: value)
    }

    /// Every checkout.* event so far, oldest first, with parsed payloads.
    var events: [(topic: String, payload: JSONValue)] {
        get throws { try recorded.value.map { ($0.topic, try JSONParser.parse($0.payload)) } }
    }

    var topics: [String] { recorded.value.map(\.topic) }
}

/// What a person (or a script reading `--format json`) sees on the screen.
struct CheckoutScreen {
    var texts: [(text: String, style: String?, color: String?)] = []
    /// The error codes the screen's nodes carry (`code`, kept in JSON, never drawn).
    var codes: [String] = []
    var rows: [(title: String, detail: String?, badge: String?)] = []
    var fields: [(action: String, value: String, label: String?)] = []
    var images: [String] = []
    /// The URL of each image node, nil where it has none.
    var imageURLs: [String?] = []
    /// The error state the screen declares (`"error"` of `--format json`).
    var error: String?

    init(root: JSONValue, error: String? = nil) {
        self.error = error
        visit(root)
    }

    private mutating func visit(_ node: JSONValue) {
        if let code = node["code"]?.string { codes.append(code) }
        switch node["kind"]?.string {
        case "text": texts.append((node["text"]?.string ?? "", node["style"]?.string, node["color"]?.string))
        case "image":
            images.append(node["alt"]?.string ?? "")
            imageURLs.append(node["url"]?.string)
        case "field": fields.append((node["action"]?.string ?? "", node["value"]?.string ?? "", node["label"]?.string))
        case "list":
            for row in node["rows"]?.array ?? [] {
                rows.append((row["title"]?.string ?? "", row["detail"]?.string, row["badge"]?.string))
            }
        default: break
        }
        for child in node["children"]?.array ?? [] { visit(child) }
    }

    /// The error code shown, if exactly one is.
    var code: String? { codes.count == 1 ? codes[0] : nil }
    var isValid: Bool { codes.isEmpty && rows.count == 4 }
    var amounts: [String] { rows.map(\.title) }
    var dates: [String] { rows.compactMap(\.detail) }
    var allText: [String] { texts.map(\.text) }
    var negativeText: [String] { texts.filter { $0.color == "negative" }.map(\.text) }
    var headline: String? { texts.first { $0.style == "headline" }?.text }
    var checksum: String? {
        texts.first { $0.style == "monospaced" }.map { String($0.text.split(separator: " ").last ?? "") }
    }
}
