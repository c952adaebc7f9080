import Foundation
import Testing
@testable import PluginKit
@testable import WidgetHostKit
@testable import TestSupport

/// The view description (docs/view-description.md): every node kind parses
/// into its ViewNode and comes back as JSON; an odd node becomes a visible
/// placeholder; a description that is malformed, too large, too deep or too
/// big is refused whole, and `launch` shows an error panel naming the plugin
/// instead of crashing.
@Suite("View description")
struct ViewDescriptionTests {
    /// `{"view":1,"root":NODE}` as bytes.
    static func screen(_ node: String) -> [UInt8] { Array(#"{"view":1,"root":\#(node)}"#.utf8) }

    static func parse(_ node: String) throws -> ViewNode { try ViewDescription.parse(screen(node)).root }

    /// JSON with every object's members sorted by key, so that two documents
    /// compare equal whatever the order of their keys.
    static func canonical(_ value: JSONValue) -> JSONValue {
        switch value {
        case let .object(members): .object(members.map { ($0.0, canonical($0.1)) }.sorted { $0.0 < $1.0 })
        case let .array(items): .array(items.map(canonical))
        default: value
        }
    }

    static func json(_ text: String) throws -> JSONValue { canonical(try JSONParser.parse(text)) }

    struct KindCase: Sendable, CustomTestStringConvertible {
        let input: String
        let node: ViewNode
        /// What ViewJSON gives back for `node`.
        let output: String
        var testDescription: String { input }
    }

    static let kinds: [KindCase] = [
        KindCase(input: #"{"kind":"vstack","children":[{"kind":"text","text":"a"},{"kind":"divider"}]}"#,
                 node: .stack(axis: .vertical, children: [.text("a", style: .body, color: .primary), .divider]),
                 output: #"{"kind":"vstack","children":[{"kind":"text","text":"a","style":"body","color":"primary"},{"kind":"divider"}]}"#),
        KindCase(input: #"{"kind":"hstack","children":[{"kind":"spacer"},{"kind":"badge","text":"b"}]}"#,
                 node: .stack(axis: .horizontal, children: [.spacer, .badge("b", color: .primary)]),
                 output: #"{"kind":"hstack","children":[{"kind":"spacer"},{"kind":"badge","text":"b","color":"primary"}]}"#),
        KindCase(input: #"{"kind":"vstack"}"#, node: .stack(axis: .vertical, children: []),
                 output: #"{"kind":"vstack","children":[]}"#),
        KindCase(input: #"{"kind":"section","header":"Head","children":[{"kind":"text","text":"in","style":"caption"}]}"#,
                 node: .section(header: "Head", children: [.text("in", style: .caption, color: .primary)]),
                 output: #"{"kind":"section","header":"Head","children":[{"kind":"text","text":"in","style":"caption","color":"primary"}]}"#),
        KindCase(input: #"{"kind":"text","text":"Price","style":"title","color":"positive"}"#,
                 node: .text("Price", style: .title, color: .positive),
                 output: #"{"kind":"text","text":"Price","style":"title","color":"positive"}"#),
        KindCase(input: #"{"kind":"text","text":"odd","style":"blink","color":"fuchsia"}"#,
                 node: .text("odd", style: .body, color: .primary),
                 output: #"{"kind":"text","text":"odd","style":"body","color":"primary"}"#),
        KindCase(input: #"{"kind":"button","title":"Retrieve","action":"retrieve","value":"now"}"#,
                 node: .button(title: "Retrieve", action: "retrieve", value: "now"),
                 output: #"{"kind":"button","title":"Retrieve","action":"retrieve","value":"now","prominence":"secondary"}"#),
        KindCase(input: #"{"kind":"button","action":"go"}"#,
                 node: .button(title: "go", action: "go", value: nil),
                 output: #"{"kind":"button","title":"go","action":"go","value":null,"prominence":"secondary"}"#),
        KindCase(input: #"{"kind":"field","label":"Amount","action":"update","placeholder":"0.00","value":"12.50","input":"amount"}"#,
                 node: .field(label: "Amount", action: "update", placeholder: "0.00", value: "12.50", input: .amount),
                 output: #"{"kind":"field","label":"Amount","action":"update","placeholder":"0.00","value":"12.50","input":"amount"}"#),
        KindCase(input: #"{"kind":"field","action":"name"}"#,
                 node: .field(label: nil, action: "name", placeholder: "", value: "", input: .text),
                 output: #"{"kind":"field","label":null,"action":"name","placeholder":"","value":"","input":"text"}"#),
        KindCase(input: #"{"kind":"list","action":"open","rows":[{"id":"k","title":"Kraken","detail":"$1","badge":"EU"},{"id":"b"},{"title":"no id"}]}"#,
                 node: .list(action: "open", rows: [.init(id: "k", title: "Kraken", detail: "$1", badge: "EU"),
                                                    .init(id: "b", title: "b", detail: nil, badge: nil)]),
                 output: #"{"kind":"list","action":"open","rows":[{"id":"k","title":"Kraken","detail":"$1","badge":"EU"},"#
                         + #"{"id":"b","title":"b","detail":null,"badge":null}]}"#),
        KindCase(input: #"{"kind":"list","rows":[{"id":"x","title":"X"}]}"#,
                 node: .list(action: nil, rows: [.init(id: "x", title: "X", detail: nil, badge: nil)]),
                 output: #"{"kind":"list","action":null,"rows":[{"id":"x","title":"X","detail":null,"badge":null}]}"#),
        KindCase(input: #"{"kind":"divider"}"#, node: .divider, output: #"{"kind":"divider"}"#),
        KindCase(input: #"{"kind":"spacer"}"#, node: .spacer, output: #"{"kind":"spacer"}"#),
        KindCase(input: #"{"kind":"badge","text":"timeout","color":"negative"}"#,
                 node: .badge("timeout", color: .negative),
                 output: #"{"kind":"badge","text":"timeout","color":"negative"}"#),
        KindCase(input: #"{"kind":"image","alt":"Hotel","url":"https://example.com/h.jpg"}"#,
                 node: .image(alt: "Hotel", url: "https://example.com/h.jpg"),
                 output: #"{"kind":"image","alt":"Hotel","url":"https://example.com/h.jpg"}"#),
        KindCase(input: #"{"kind":"image"}"#, node: .image(alt: "image", url: nil),
                 output: #"{"kind":"image","alt":"image","url":null}"#),
        KindCase(input: #"{"kind":"progress","label":"Loading","value":0.25}"#,
                 node: .progress(label: "Loading", fraction: 0.25),
                 output: #"{"kind":"progress","label":"Loading","value":0.25}"#),
        KindCase(input: #"{"kind":"progress"}"#, node: .progress(label: nil, fraction: nil),
                 output: #"{"kind":"progress","label":null,"value":null}"#),
        KindCase(input: #"{"kind":"progress","value":7}"#, node: .progress(label: nil, fraction: 1),
                 output: #"{"kind":"progress","label":null,"value":1.0}"#),
        KindCase(input: #"{"kind":"link","title":"See Exchanges","target":"widget://crypto/exchanges"}"#,
                 node: .link(title: "See Exchanges", target: "widget://crypto/exchanges"),
                 output: #"{"kind":"link","title":"See Exchanges","target":"widget://crypto/exchanges"}"#),
    ]

    @Test("each node kind parses into its ViewNode", arguments: kinds)
    func parsesEachKind(_ item: KindCase) throws {
        #expect(try Self.parse(item.input) == item.node)
    }

    @Test("each ViewNode comes back as the documented JSON (ViewJSON)", arguments: kinds)
    func backToJSON(_ item: KindCase) throws {
        #expect(Self.canonical(item.node.json) == (try Self.json(item.output)))
    }

    @Test("each node's JSON parses back into the same node", arguments: kinds)
    func roundTrip(_ item: KindCase) throws {
        #expect(try Self.parse(item.node.json.serialized) == item.node)
    }

    @Test("every style and colour of text is read", arguments: ViewNode.TextStyle.allCases)
    func textStyles(_ style: ViewNode.TextStyle) throws {
        for color in ViewNode.SemanticColor.allCases {
            let node = try Self.parse(#"{"kind":"text","text":"t","style":"\#(style.rawValue)","color":"\#(color.rawValue)"}"#)
            #expect(node == .text("t", style: style, color: color))
            #expect(node.json["style"] == .string(style.rawValue) && node.json["color"] == .string(color.rawValue))
        }
    }

    @Test("keys the host does not know are ignored")
    func unknownKeysIgnored() throws {
        #expect(try Self.parse(#"{"kind":"text","text":"t","sparkle":{"deep":[1,2,3]},"future":true}"#)
            == .text("t", style: .body, color: .primary))
        #expect(try ViewDescription.parse(Array(#"{"view":1,"root":{"kind":"divider"},"theme":"dark"}"#.utf8)).root == .divider)
    }

    @Test("a screen's error state is read from the top level; one that is not a non-empty string declares none", arguments: [
        (#""error":"Price unavailable: timed out""#, "Price unavailable: timed out"),
        ("", nil), (#""error":null"#, nil), (#""error":"""#, nil), (#""error":42"#, nil), (#""error":{"code":"x"}"#, nil),
    ] as [(String, String?)])
    func screenError(_ member: String, _ expected: String?) throws {
        let text = #"{"view":1,"root":{"kind":"divider"}"# + (member.isEmpty ? "" : "," + member) + "}"
        let screen = try ViewDescription.parse(Array(text.utf8))
        #expect(screen == ViewScreen(root: .divider, error: expected))
        // And the encoder writes back what was read.
        #expect(try ViewDescription.parse(Array(screen.document.serialized.utf8)) == screen)
    }

    // MARK: Placeholders

    @Test("an unknown kind, or a node missing what it needs, becomes a placeholder among the others", arguments: [
        (#"{"kind":"hologram","beams":3}"#, "hologram"),
        (#"{"kind":"button","title":"No action"}"#, "button without an action"),
        (#"{"kind":"field","label":"No action"}"#, "field without an action"),
        (#"{"kind":"link","title":"Nowhere"}"#, "link without a target"),
        (#"{"text":"no kind"}"#, "(a node without a kind)"),
        (#"{"kind":7}"#, "(a node without a kind)"),
        (#""a string""#, "(a node without a kind)"),
    ])
    func placeholder(_ node: String, _ kind: String) throws {
        let parsed = try Self.parse(#"{"kind":"vstack","children":[{"kind":"text","text":"before"},\#(node),{"kind":"text","text":"after"}]}"#)
        #expect(parsed == .stack(axis: .vertical, children: [
            .text("before", style: .body, color: .primary), .unknown(kind: kind), .text("after", style: .body, color: .primary),
        ]))
        let children = parsed.json["children"]?.array ?? []
        #expect(children.count == 3)
        #expect(children.dropFirst().first == ["kind": "unknown", "unknownKind": .string(kind)])
    }

    // MARK: Refusals

    @Test("a description that is not what the host reads is refused whole, with the reason", arguments: [
        ("{\"view\":1,\"root\":{\"kind\":\"text\",\"text\":\"cut", "not valid JSON"),
        ("", "not valid JSON"),
        ("\u{FF}\u{FE}", "not valid JSON"),
        ("[1,2]", "must be a JSON object"),
        (#"{"root":{"kind":"divider"}}"#, #"must say "view": 1"#),
        (#"{"view":2,"root":{"kind":"divider"}}"#, #"must say "view": 1"#),
        (#"{"view":"1","root":{"kind":"divider"}}"#, #"must say "view": 1"#),
        (#"{"view":1}"#, #"has no "root" node"#),
        (#"{"view":1,"root":[{"kind":"divider"}]}"#, #"has no "root" node"#),
        (#"{"view":1,"root":{"kind":"divider"},"root":{"kind":"spacer"}}"#, "not valid JSON"),
    ])
    func refused(_ text: String, _ reason: String) {
        let error = #expect(throws: ViewDescription.Invalid.self) { try ViewDescription.parse(Array(text.utf8)).root }
        #expect(error?.description.contains(reason) == true, "\(String(describing: error))")
    }

    /// A text node padded so that the whole description is `size` bytes.
    static let head = Array(#"{"view":1,"root":{"kind":"text","text":""#.utf8), tail = Array(#""}}"#.utf8)

    static func description(ofSize size: Int) -> [UInt8] {
        head + [UInt8](repeating: UInt8(ascii: "x"), count: size - head.count - tail.count) + tail
    }

    @Test("1 MiB is accepted; one byte more is refused as too large")
    func sizeLimit() throws {
        let limit = ViewDescription.maxBytes
        #expect(limit == 1 << 20)
        let atLimit = Self.description(ofSize: limit)
        #expect(atLimit.count == limit)
        guard case let .text(text, _, _) = try ViewDescription.parse(atLimit).root else {
            Issue.record("a 1 MiB text did not parse as text")
            return
        }
        #expect(text.utf8.count == limit - Self.head.count - Self.tail.count)
        #expect(throws: ViewDescription.Invalid(description: "the view description is \(limit + 1) bytes, over the limit of \(limit)")) {
            try ViewDescription.parse(Self.description(ofSize: limit + 1)).root
        }
    }

    /// `levels` nested vstacks, the innermost holding a text: `levels + 1` deep.
    static func nested(_ levels: Int) -> String {
        String(repeating: #"{"kind":"vstack","children":["#, count: levels) + #"{"kind":"text","text":"bottom"}"#
            + String(repeating: "]}", count: levels)
    }

    @Test("32 levels are accepted; 33, 100 and 20,000 are refused as too deep, without exhausting the stack")
    func depthLimit() throws {
        #expect(ViewDescription.maxDepth == 32)
        var node = try Self.parse(Self.nested(31))
        var depth = 1
        while case let .stack(_, children) = node, let child = children.first {
            node = child
            depth += 1
        }
        #expect(depth == 32 && node == .text("bottom", style: .body, color: .primary))
        for levels in [32, 99, 20_000] {
            #expect(throws: ViewDescription.Invalid(description: "the view is nested deeper than 32 levels")) {
                try Self.parse(Self.nested(levels))
            }
        }
        // Deep JSON in a key the host ignores is refused as well, not followed down.
        #expect(throws: ViewDescription.Invalid.self) {
            try Self.parse(#"{"kind":"text","text":"t","extra":"# + String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000) + "}")
        }
    }

    /// A vstack with `count` dividers: `count + 1` nodes.
    static func wide(_ count: Int) -> String {
        #"{"kind":"vstack","children":["# + Array(repeating: #"{"kind":"divider"}"#, count: count).joined(separator: ",") + "]}"
    }

    @Test("10,000 nodes are accepted; 10,001 are refused, list rows included")
    func nodeLimit() throws {
        #expect(ViewDescription.maxNodes == 10_000)
        guard case let .stack(_, children) = try Self.parse(Self.wide(9_999)) else {
            Issue.record("not a stack")
            return
        }
        #expect(children.count == 9_999)
        let tooMany = ViewDescription.Invalid(description: "the view has more than 10000 nodes")
        #expect(throws: tooMany) { try Self.parse(Self.wide(10_000)) }
        let rows = (0..<10_000).map { #"{"id":"r\#($0)"}"# }.joined(separator: ",")
        #expect(throws: tooMany) { try Self.parse(#"{"kind":"list","rows":[\#(rows)]}"#) }
        let fewerRows = (0..<9_999).map { #"{"id":"r\#($0)"}"# }.joined(separator: ",")
        guard case let .list(_, parsed) = try Self.parse(#"{"kind":"list","rows":[\#(fewerRows)]}"#) else {
            Issue.record("not a list")
            return
        }
        #expect(parsed.count == 9_999)
    }

    // MARK: Actions

    @Test("the actions of a screen are its buttons, fields, rows of a list with an action, and links, in reading order")
    func actionsInReadingOrder() throws {
        let node = try Self.parse(#"""
        {"kind":"vstack","children":[
          {"kind":"hstack","children":[{"kind":"button","title":"One","action":"a1"},
           {"kind":"text","text":"x"},{"kind":"link","title":"Two","target":"widget://p/s"}]},
          {"kind":"section","header":"S","children":[{"kind":"field","action":"f","placeholder":"Three"},{"kind":"list","rows":[{"id":"no"}]}]},
          {"kind":"list","action":"pick","rows":[{"id":"r4","title":"Four"},{"id":"r5","title":"Five"}]},
          {"kind":"hologram"},
          {"kind":"button","title":"Six","action":"a6","value":"v6"}]}
        """#)
        #expect(node.actions == [
            ScreenAction(kind: .button, title: "One", action: "a1", value: nil),
            ScreenAction(kind: .link, title: "Two", action: "widget://p/s", value: nil),
            ScreenAction(kind: .field, title: "Three", action: "f", value: nil),
            ScreenAction(kind: .row, title: "Four", action: "pick", value: "r4"),
            ScreenAction(kind: .row, title: "Five", action: "pick", value: "r5"),
            ScreenAction(kind: .button, title: "Six", action: "a6", value: "v6"),
        ])
    }

    // MARK: Through widget-host launch

    @Suite("Through widget-host launch")
    struct Launch {
        @Test("an unknown kind shows as a placeholder and the rest of the screen still shows (text)")
        func unknownKindText() throws {
            let run = try ViewsFixture.text("unknown")
            #expect(run.status == 0, "\(run)")
            let lines = RenderedBox.contents(run.stdout)
            let before = try #require(lines.firstIndex(of: "Before the hologram"), "\(run)")
            let placeholder = try #require(lines.firstIndex(of: "[unsupported view: hologram]"), "\(run)")
            let after = try #require(lines.firstIndex(of: "After the hologram"), "\(run)")
            #expect(before < placeholder && placeholder < after)
            #expect(RenderedBox.squeezed(run.stdout).contains("[unsupportedview:buttonwithoutanaction]"), "\(run)")
            #expect(!run.stdout.contains("Error"), "\(run)")
        }

        @Test("an unknown kind shows as a placeholder and the rest of the screen still shows (JSON)")
        func unknownKindJSON() throws {
            let (run, json) = try ViewsFixture.json(["launch", "views", "--screen", "unknown"])
            #expect(run.status == 0, "\(run)")
            #expect(json["error"] == .null)
            let children = try #require(json["view"]?["children"]?.array, "\(run)")
            #expect(children.map { $0["kind"]?.string } == ["text", "unknown", "unknown", "text"])
            #expect(children[1]["unknownKind"] == "hologram")
            #expect(children[2]["unknownKind"] == "button without an action")
            #expect(children[0]["text"] == "Before the hologram" && children[3]["text"] == "After the hologram")
        }

        static let refusals: [(screen: String, reason: String)] = [
            ("malformed", "the view description is not valid JSON"),
            ("noview", #"the view description must say "view": 1"#),
            // Stopped by the output cap, which is the parser's limit, before the parser sees it.
            ("huge", "the plugin wrote more than \(ViewDescription.maxBytes) bytes"),
            ("deep", "the view is nested deeper than 32 levels"),
            ("many", "the view has more than 10000 nodes"),
        ]

        @Test("a refused description shows an error panel that names the plugin, and the host does not crash",
              arguments: refusals)
        func errorPanel(_ screen: String, _ reason: String) throws {
            let run = try ViewsFixture.text(screen)
            #expect(run.status == 0, "\(run)")
            let top = try #require(RenderedBox.lines(run.stdout).first, "\(run)")
            #expect(top.hasPrefix("┌─ Error "), "\(run)")
            let shown = RenderedBox.squeezed(run.stdout)
            #expect(shown.contains("\(ViewsFixture.viewsID)couldnotrender'\(screen)'"), "\(run)")
            #expect(shown.contains(reason.filter { $0 != " " }), "\(run)")
            #expect(run.stdout.utf8.count < 4096, "the panel must not echo the description")
        }

        @Test("a refused description sets \"error\" in --format json, with the plugin and no view", arguments: refusals)
        func errorJSON(_ screen: String, _ reason: String) throws {
            let (run, json) = try ViewsFixture.json(["launch", "views", "--screen", screen])
            #expect(run.status == 0, "\(run)")
            #expect(json["plugin"] == .string(ViewsFixture.viewsID))
            #expect(json["screen"] == .string(screen))
            #expect(json["view"] == .null)
            #expect(json["actions"] == .array([]))
            let error = try #require(json["error"]?.string, "\(run)")
            #expect(error.contains(reason), "\(error)")
        }

        @Test("after an error panel the host carries on: the next screen renders", arguments: refusals.map(\.screen))
        func carriesOn(_ screen: String) throws {
            let (run, json) = try ViewsFixture.json(["launch", "views", "--screen", screen, "--actions", "widget://views/form,wave"])
            #expect(run.status == 0, "\(run)")
            #expect(json["error"] == .null)
            #expect(json["screen"] == "form")
            #expect(json["stack"]?.array?.map { $0["screen"]?.string } == [screen, "form"])
            let texts = json["view"]?["children"]?.array?.compactMap { $0["text"]?.string } ?? []
            #expect(texts.contains("Waves: 1"), "\(run)")
        }
    }
}
