import PluginKit
import Testing
@testable import WidgetHostKit
@testable import TestSupport

// No Foundation here: it has a `Host` and a `Progress` of its own.

/// The Swift SDK's result-builder DSL (Sources/PluginKit/SDK/ViewBuilder.swift): each
/// builder function and modifier makes the node of the shared view model
/// meant, the builder takes conditionals and loops, `screen` wraps the root
/// (with the error state it declares), and the host's parser reads it back.
@Suite("PluginKit view DSL")
struct PluginKitTests {
    struct KindCase: Sendable, CustomTestStringConvertible {
        let name: String
        let view: View
        /// The node of the view model the builder must make.
        let node: ViewNode
        var testDescription: String { name }
    }

    static let kinds: [KindCase] = [
        KindCase(name: "Text", view: Text("Bitcoin"), node: .text("Bitcoin", style: .body, color: .primary)),
        KindCase(name: "Text.style", view: Text("Bitcoin").style(.title), node: .text("Bitcoin", style: .title, color: .primary)),
        KindCase(name: "Text.color", view: Text("$1").color(.positive), node: .text("$1", style: .body, color: .positive)),
        KindCase(name: "Text.style.color", view: Text("n").style(.caption).color(.warning), node: .text("n", style: .caption, color: .warning)),
        KindCase(name: "a modifier applied twice keeps the last", view: Text("n").style(.caption).color(.negative).style(.monospaced).color(.secondary),
                 node: .text("n", style: .monospaced, color: .secondary)),
        KindCase(name: "style on a node without one leaves it alone", view: Button("Go", action: "go").style(.title).color(.negative),
                 node: .button(title: "Go", action: "go", value: nil)),
        KindCase(name: "Button", view: Button("Retrieve", action: "retrieve"), node: .button(title: "Retrieve", action: "retrieve", value: nil)),
        KindCase(name: "Button with a value", view: Button("Kraken", action: "exchange", value: "kraken"),
                 node: .button(title: "Kraken", action: "exchange", value: "kraken")),
        KindCase(name: "Field", view: Field(action: "name"), node: .field(label: nil, action: "name", placeholder: "", value: "", input: .text)),
        KindCase(name: "Field, amount", view: Field("Amount", action: "update", placeholder: "0.00", value: "12.50", amount: true),
                 node: .field(label: "Amount", action: "update", placeholder: "0.00", value: "12.50", input: .amount)),
        KindCase(name: "List", view: List(action: "open", rows: [Row(id: "k", title: "Kraken", detail: "$43,205.10", badge: "EU"),
                Row(id: "c", title: "Coinbase")]),
                 node: .list(action: "open", rows: [.init(id: "k", title: "Kraken", detail: "$43,205.10", badge: "EU"),
                                                    .init(id: "c", title: "Coinbase", detail: nil, badge: nil)])),
        KindCase(name: "List without an action", view: List(rows: []), node: .list(action: nil, rows: [])),
        KindCase(name: "Divider", view: Divider(), node: .divider),
        KindCase(name: "Spacer", view: Spacer(), node: .spacer),
        KindCase(name: "Badge", view: Badge("timeout"), node: .badge("timeout", color: .primary)),
        KindCase(name: "Badge.color", view: Badge("timeout").color(.negative), node: .badge("timeout", color: .negative)),
        KindCase(name: "Image", view: Image(alt: "Hotel", url: "https://example.com/h.jpg"), node: .image(alt: "Hotel", url: "https://example.com/h.jpg")),
        KindCase(name: "Image without a URL", view: Image(alt: "Hotel"), node: .image(alt: "Hotel", url: nil)),
        KindCase(name: "Progress, loading", view: Progress(), node: .progress(label: nil, fraction: nil)),
        KindCase(name: "Progress with label and fraction", view: Progress("Loading", fraction: 0.5), node: .progress(label: "Loading", fraction: 0.5)),
        KindCase(name: "Link", view: Link("See Exchanges", to: "widget://crypto/exchanges"),
                 node: .link(title: "See Exchanges", target: "widget://crypto/exchanges")),
        KindCase(name: "VStack", view: VStack { Text("a"); Divider() },
                 node: .stack(axis: .vertical, children: [.text("a", style: .body, color: .primary), .divider])),
        KindCase(name: "HStack", view: HStack { Text("l"); Badge("r") },
                 node: .stack(axis: .horizontal, children: [.text("l", style: .body, color: .primary), .badge("r", color: .primary)])),
        KindCase(name: "Section", view: Section("Prices") { Text("in") },
                 node: .section(header: "Prices", children: [.text("in", style: .body, color: .primary)])),
        KindCase(name: "empty VStack", view: VStack {}, node: .stack(axis: .vertical, children: [])),
    ]

    @Test("each builder function and modifier makes the node of the view model meant", arguments: kinds)
    func buildsTheModel(_ item: KindCase) {
        #expect(item.view == item.node)
    }

    @Test("each node kind, wrapped as a screen, is what the host's parser reads (no placeholder)", arguments: kinds)
    func hostReadsEachKind(_ item: KindCase) throws {
        let screen = try ViewDescription.parse(Array(item.view.screen.utf8))
        #expect(screen == ViewScreen(root: item.node))
        #expect(!Self.containsUnknown(screen.root))
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
            try JSONParser.parse(view.json.serialized)["children"]?.array?.map { $0["kind"]?.string } ?? []
        }
        #expect(try kinds(Self.status(loading: true, price: "$1", exchanges: [], compact: false)) == ["text", "progress", "divider", "button"])
        #expect(try kinds(Self.status(loading: false, price: "$1", exchanges: [], compact: true)) == ["text", "text", "button"])
        guard case let .stack(_, failed) = Self.status(loading: false, price: nil, exchanges: [], compact: true),
              case let .stack(_, priced) = Self.status(loading: false, price: "$43,210.55", exchanges: [], compact: true) else {
            Issue.record("not a stack")
            return
        }
        #expect(failed[1] == .text("Price unavailable", style: .body, color: .negative))
        #expect(priced[1] == .text("$43,210.55", style: .body, color: .positive))
    }

    @Test("for loops and arrays of views emit one node per element, in order", arguments: [[], ["Kraken"], ["Coinbase", "Kraken", "Binance"]])
    func loops(_ exchanges: [String]) throws {
        let node = try ViewDescription.parse(Array(Self.status(loading: false, price: "$1", exchanges: exchanges, compact: true).screen.utf8)).root
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
        #expect(try ViewDescription.parse(Array(view.screen.utf8)).root == .stack(axis: .vertical, children: [expected[choice]]))
    }

    // MARK: screen

    @Test("View.screen wraps the root as {\"view\":1,\"root\":...}, with the view model's own encoding of the root")
    func screenWraps() throws {
        let view = VStack { Text("Hello").style(.headline) }
        let parsed = try JSONParser.parse(view.screen)
        guard case let .object(members) = parsed else {
            Issue.record("not an object: \(view.screen)")
            return
        }
        #expect(members.map(\.0) == ["view", "root"])
        #expect(parsed["view"] == .number("1"))
        #expect(parsed["root"] == view.json)
    }

    @Test("screen(error:) declares an error state at the top level, and the host reads it back")
    func screenError() throws {
        let view = VStack { Text("Price unavailable").color(.negative) }
        let parsed = try JSONParser.parse(view.screen(error: "Price unavailable: timed out"))
        #expect(parsed["error"] == "Price unavailable: timed out")
        #expect(try ViewDescription.parse(Array(view.screen(error: "Price unavailable: timed out").utf8))
            == ViewScreen(root: view, error: "Price unavailable: timed out"))
        // No error, or an empty one, declares none.
        #expect(try JSONParser.parse(view.screen(error: nil))["error"] == nil)
        #expect(try ViewDescription.parse(Array(view.screen(error: "").utf8)).error == nil)
    }

    @Test("the documentation's example, and a screen of every kind, parse into the nodes meant")
    func wholeScreens() throws {
        let example = VStack {
            Text("Bitcoin").style(.title)
            Text("$43,210.55").color(.positive)
            Button("Retrieve", action: "retrieve")
            Link("See Exchanges", to: "widget://crypto/exchanges")
        }
        #expect(try ViewDescription.parse(Array(example.screen.utf8)).root == .stack(axis: .vertical, children: [
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
        let node = try ViewDescription.parse(Array(every.screen.utf8)).root
        #expect(node == .stack(axis: .vertical, children: [
            .stack(axis: .horizontal, children: [.text("l", style: .caption, color: .primary), .text("r", style: .body, color: .negative)]),
            .section(header: "Details", children: [.badge("beta", color: .warning), .text("mono", style: .monospaced, color: .secondary)]),
            .button(title: "Wave", action: "wave", value: "hand"),
            .field(label: "Name", action: "name", placeholder: "your name", value: "", input: .text),
            .list(action: "pick", rows: [.init(id: "a", title: "Alpha", detail: "first", badge: "new"),
                    .init(id: "b", title: "Beta", detail: nil, badge: nil)]),
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
        let node = try ViewDescription.parse(Array(Text(awkward).screen.utf8)).root
        #expect(node == .text(awkward, style: .body, color: .primary))
    }
}
