import PluginKit
import Testing
@testable import WidgetHostKit

// No Foundation here: it has a `Host` and a `Progress` of its own.

/// The Swift SDK's result-builder DSL (Sources/PluginKit/View.swift): each
/// node kind and modifier gives the JSON docs/view-description.md documents,
/// the builder takes conditionals and loops, `screen` wraps the root, and the
/// host's parser reads the result into the nodes meant.
@Suite("PluginKit view DSL")
struct PluginKitTests {
    /// The SDK's JSON read by the host's parser, keys sorted.
    static func hostJSON(_ view: View) throws -> WidgetHostKit.JSONValue {
        ViewDescriptionTests.canonical(try WidgetHostKit.JSONParser.parse(view.json.serialized))
    }

    struct KindCase: Sendable, CustomTestStringConvertible {
        let name: String
        let view: View
        let json: String
        var testDescription: String { name }
    }

    static let kinds: [KindCase] = [
        KindCase(name: "Text", view: Text("Bitcoin"), json: #"{"kind":"text","text":"Bitcoin"}"#),
        KindCase(name: "Text.style", view: Text("Bitcoin").style(.title), json: #"{"kind":"text","text":"Bitcoin","style":"title"}"#),
        KindCase(name: "Text.color", view: Text("$1").color(.positive), json: #"{"kind":"text","text":"$1","color":"positive"}"#),
        KindCase(name: "Text.style.color", view: Text("n").style(.caption).color(.warning),
                 json: #"{"kind":"text","text":"n","style":"caption","color":"warning"}"#),
        KindCase(name: "a modifier applied twice keeps the last", view: Text("n").style(.caption).color(.negative).style(.monospaced).color(.secondary),
                 json: #"{"kind":"text","text":"n","style":"monospaced","color":"secondary"}"#),
        KindCase(name: "Button", view: Button("Retrieve", action: "retrieve"), json: #"{"kind":"button","title":"Retrieve","action":"retrieve"}"#),
        KindCase(name: "Button with a value", view: Button("Kraken", action: "exchange", value: "kraken"),
                 json: #"{"kind":"button","title":"Kraken","action":"exchange","value":"kraken"}"#),
        KindCase(name: "Field", view: Field(action: "name"), json: #"{"kind":"field","action":"name","placeholder":"","value":"","input":"text"}"#),
        KindCase(name: "Field, amount", view: Field("Amount", action: "update", placeholder: "0.00", value: "12.50", amount: true),
                 json: #"{"kind":"field","label":"Amount","action":"update","placeholder":"0.00","value":"12.50","input":"amount"}"#),
        KindCase(name: "List", view: List(action: "open", rows: [Row(id: "k", title: "Kraken", detail: "$43,205.10", badge: "EU"), Row(id: "c", title: "Coinbase")]),
                 json: #"{"kind":"list","action":"open","rows":[{"id":"k","title":"Kraken","detail":"$43,205.10","badge":"EU"},{"id":"c","title":"Coinbase"}]}"#),
        KindCase(name: "List without an action", view: List(rows: []), json: #"{"kind":"list","rows":[]}"#),
        KindCase(name: "Divider", view: Divider(), json: #"{"kind":"divider"}"#),
        KindCase(name: "Spacer", view: Spacer(), json: #"{"kind":"spacer"}"#),
        KindCase(name: "Badge", view: Badge("timeout"), json: #"{"kind":"badge","text":"timeout"}"#),
        KindCase(name: "Badge.color", view: Badge("timeout").color(.negative), json: #"{"kind":"badge","text":"timeout","color":"negative"}"#),
        KindCase(name: "Image", view: Image(alt: "Hotel", url: "https://example.com/h.jpg"), json: #"{"kind":"image","alt":"Hotel","url":"https://example.com/h.jpg"}"#),
        KindCase(name: "Image without a URL", view: Image(alt: "Hotel"), json: #"{"kind":"image","alt":"Hotel"}"#),
        KindCase(name: "Progress, loading", view: Progress(), json: #"{"kind":"progress"}"#),
        KindCase(name: "Progress with label and fraction", view: Progress("Loading", fraction: 0.5), json: #"{"kind":"progress","label":"Loading","value":0.5}"#),
        KindCase(name: "Link", view: Link("See Exchanges", to: "widget://crypto/exchanges"),
                 json: #"{"kind":"link","title":"See Exchanges","target":"widget://crypto/exchanges"}"#),
        KindCase(name: "VStack", view: VStack { Text("a"); Divider() },
                 json: #"{"kind":"vstack","children":[{"kind":"text","text":"a"},{"kind":"divider"}]}"#),
        KindCase(name: "HStack", view: HStack { Text("l"); Badge("r") },
                 json: #"{"kind":"hstack","children":[{"kind":"text","text":"l"},{"kind":"badge","text":"r"}]}"#),
        KindCase(name: "Section", view: Section("Prices") { Text("in") },
                 json: #"{"kind":"section","header":"Prices","children":[{"kind":"text","text":"in"}]}"#),
        KindCase(name: "empty VStack", view: VStack {}, json: #"{"kind":"vstack","children":[]}"#),
    ]

    @Test("each node kind and modifier gives the documented JSON", arguments: kinds)
    func documentedJSON(_ item: KindCase) throws {
        #expect(try Self.hostJSON(item.view) == (try ViewDescriptionTests.json(item.json)), "\(item.view.json.serialized)")
        // The kind comes first, as in the documentation, and no key is repeated.
        guard case let .object(members) = try WidgetHostKit.JSONParser.parse(item.view.json.serialized) else {
            Issue.record("not an object")
            return
        }
        #expect(members.first?.0 == "kind")
        #expect(Set(members.map(\.0)).count == members.count)
    }

    @Test("each node kind, wrapped as a screen, is what the host's parser reads (no placeholder)", arguments: kinds)
    func hostReadsEachKind(_ item: KindCase) throws {
        let node = try ViewDescription.parse(Array(item.view.screen.utf8))
        #expect(node == (try ViewDescriptionTests.parse(item.json)))
        #expect(!Self.containsUnknown(node))
    }

    static func containsUnknown(_ node: ViewNode) -> Bool {
        switch node {
        case .unknown: true
        case let .stack(_, children), let .section(_, children): children.contains(where: containsUnknown)
        default: false
        }
    }

    // MARK: The builder

    static func status(loading: Bool, price: String?, exchanges: [String], compact: Bool) -> View {
        VStack {
            Text("Bitcoin").style(.title)
            if loading {
                Progress("Fetching")
            } else if let price {
                Text(price).color(.positive)
            } else {
                Text("Price unavailable").color(.negative)
            }
            if !compact {
                Divider()
            }
            for exchange in exchanges {
                Button(exchange, action: "exchange", value: exchange.lowercased())
            }
            exchanges.map { Badge($0) }
            Button("Retrieve", action: "retrieve")
        }
    }

    @Test("if, if let, else if, else and if without else choose what the builder emits")
    func conditionals() throws {
        let kinds = { (view: View) throws -> [String?] in
            try WidgetHostKit.JSONParser.parse(view.json.serialized)["children"]?.array?.map { $0["kind"]?.string } ?? []
        }
        #expect(try kinds(Self.status(loading: true, price: "$1", exchanges: [], compact: false)) == ["text", "progress", "divider", "button"])
        #expect(try kinds(Self.status(loading: false, price: "$1", exchanges: [], compact: true)) == ["text", "text", "button"])
        let failed = try WidgetHostKit.JSONParser.parse(Self.status(loading: false, price: nil, exchanges: [], compact: true).json.serialized)
        #expect(failed["children"]?.array?[1] == (try WidgetHostKit.JSONParser.parse(#"{"kind":"text","text":"Price unavailable","color":"negative"}"#)))
        let priced = try WidgetHostKit.JSONParser.parse(Self.status(loading: false, price: "$43,210.55", exchanges: [], compact: true).json.serialized)
        #expect(priced["children"]?.array?[1]["text"] == "$43,210.55")
    }

    @Test("for loops and arrays of views emit one node per element, in order", arguments: [[], ["Kraken"], ["Coinbase", "Kraken", "Binance"]])
    func loops(_ exchanges: [String]) throws {
        let node = try ViewDescription.parse(Array(Self.status(loading: false, price: "$1", exchanges: exchanges, compact: true).screen.utf8))
        guard case let .stack(.vertical, children) = node else {
            Issue.record("not a vstack: \(node)")
            return
        }
        #expect(children.count == 3 + 2 * exchanges.count)
        let buttons = children.dropFirst(2).prefix(exchanges.count)
        #expect(Array(buttons) == exchanges.map { .button(title: $0, action: "exchange", value: $0.lowercased()) })
        let badges = children.dropFirst(2 + exchanges.count).prefix(exchanges.count)
        #expect(Array(badges) == exchanges.map { .badge($0, color: .primary) })
        #expect(children.last == .button(title: "Retrieve", action: "retrieve", value: nil))
    }

    @Test("a switch in the builder emits the chosen case", arguments: [0, 1, 2])
    func switches(_ choice: Int) throws {
        let view = VStack {
            switch choice {
            case 0: Text("zero")
            case 1: Badge("one")
            default: Link("other", to: "widget://x/other")
            }
        }
        let expected: [ViewNode] = [.text("zero", style: .body, color: .primary), .badge("one", color: .primary),
                                    .link(title: "other", target: "widget://x/other")]
        #expect(try ViewDescription.parse(Array(view.screen.utf8)) == .stack(axis: .vertical, children: [expected[choice]]))
    }

    // MARK: screen

    @Test("View.screen wraps the root as {\"view\":1,\"root\":...}")
    func screenWraps() throws {
        let view = VStack { Text("Hello").style(.headline) }
        let parsed = try WidgetHostKit.JSONParser.parse(view.screen)
        guard case let .object(members) = parsed else {
            Issue.record("not an object: \(view.screen)")
            return
        }
        #expect(members.map(\.0) == ["view", "root"])
        #expect(parsed["view"] == .number("1"))
        #expect(parsed["root"].map(ViewDescriptionTests.canonical) == (try Self.hostJSON(view)))
    }

    @Test("the documentation's example, and a screen of every kind, parse into the nodes meant")
    func wholeScreens() throws {
        let example = VStack {
            Text("Bitcoin").style(.title)
            Text("$43,210.55").color(.positive)
            Button("Retrieve", action: "retrieve")
            Link("See Exchanges", to: "widget://crypto/exchanges")
        }
        #expect(try ViewDescription.parse(Array(example.screen.utf8)) == .stack(axis: .vertical, children: [
            .text("Bitcoin", style: .title, color: .primary),
            .text("$43,210.55", style: .body, color: .positive),
            .button(title: "Retrieve", action: "retrieve", value: nil),
            .link(title: "See Exchanges", target: "widget://crypto/exchanges"),
        ]))

        let every = VStack {
            HStack { Text("l").style(.caption); Text("r").color(.negative) }
            Section("Details") {
                Badge("beta").color(.warning)
                Text("mono").style(.monospaced).color(.secondary)
            }
            Button("Wave", action: "wave", value: "hand")
            Field("Name", action: "name", placeholder: "your name")
            List(action: "pick", rows: [Row(id: "a", title: "Alpha", detail: "first", badge: "new"), Row(id: "b", title: "Beta")])
            Divider()
            Spacer()
            Image(alt: "A cat", url: "https://example.com/cat.png")
            Progress("Half", fraction: 0.5)
            Progress()
            Link("About", to: "widget://org.example.hello/about")
        }
        let node = try ViewDescription.parse(Array(every.screen.utf8))
        #expect(node == .stack(axis: .vertical, children: [
            .stack(axis: .horizontal, children: [.text("l", style: .caption, color: .primary), .text("r", style: .body, color: .negative)]),
            .section(header: "Details", children: [.badge("beta", color: .warning), .text("mono", style: .monospaced, color: .secondary)]),
            .button(title: "Wave", action: "wave", value: "hand"),
            .field(label: "Name", action: "name", placeholder: "your name", value: "", input: .text),
            .list(action: "pick", rows: [.init(id: "a", title: "Alpha", detail: "first", badge: "new"), .init(id: "b", title: "Beta", detail: nil, badge: nil)]),
            .divider, .spacer,
            .image(alt: "A cat", url: "https://example.com/cat.png"),
            .progress(label: "Half", fraction: 0.5),
            .progress(label: nil, fraction: nil),
            .link(title: "About", target: "widget://org.example.hello/about"),
        ]))
        #expect(node.actions.map(\.title) == ["Wave", "Name", "Alpha", "Beta", "About"])
    }

    @Test("text with quotes, backslashes, control characters and any script survives the trip to the host")
    func escaping() throws {
        let awkward = "say \"hi\" \\ path\n\ttab \u{1}東京 🚀 e\u{301}"
        let node = try ViewDescription.parse(Array(Text(awkward).screen.utf8))
        #expect(node == .text(awkward, style: .body, color: .primary))
    }
}
