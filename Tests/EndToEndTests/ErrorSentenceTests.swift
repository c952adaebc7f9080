import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// People read sentences, scripts read codes: a node's `code` is kept in the
/// JSON and never drawn, so no camelCase name reaches the screen.
@Suite("Error sentences and codes")
struct ErrorSentenceTests {
    typealias Node = ViewNode

    // MARK: The view description

    @Test("a code on any node is read, written back, and dropped when empty or longer than a name")
    func codeKey() throws {
        let sentence = #"{"view":1,"root":{"kind":"text","text":"Not an amount","style":"body","color":"negative","code":"amountNotANumber"}}"#
        let screen = try ViewDescription.parse(Array(sentence.utf8))
        #expect(screen.root == .modified(.text("Not an amount", style: .body, color: .negative), .init(code: "amountNotANumber")))
        #expect(screen.root.json["code"] == "amountNotANumber")
        #expect(screen.root.json["text"] == "Not an amount")
        for code in [#""""#, "\"" + String(repeating: "x", count: Node.Modifiers.maxCodeLength + 1) + "\"", "7", "null"] {
            let json = #"{"view":1,"root":{"kind":"badge","text":"b","code":"# + code + "}}"
            #expect(try ViewDescription.parse(Array(json.utf8)).root == .badge("b", color: .primary), "\(code)")
        }
        // Beside layout keys, both are kept.
        let both = #"{"view":1,"root":{"kind":"text","text":"t","align":"trailing","code":"c"}}"#
        #expect(try ViewDescription.parse(Array(both.utf8)).root.json["align"] == "trailing")
        #expect(try ViewDescription.parse(Array(both.utf8)).root.json["code"] == "c")
    }

    @Test("the terminal and the web page draw the words only, laid out as the node without its code", arguments: [80, 40, 30])
    func neverDrawn(_ width: Int) {
        let sentence = "The amount \"abc\" is not an amount: enter digits with at most 2 decimal places, such as 250.00"
        func body(_ sentence: Node, _ cell: Node) -> Node {
            .stack(axis: .vertical, children: [sentence, .list(action: nil, rows: [.init(id: "k", title: "Kraken", cells: [cell])])])
        }
        let words: Node = .text(sentence, style: .body, color: .negative), cell: Node = .text("unavailable", style: .body, color: .primary)
        let plain = body(words, cell)
        let coded = body(.modified(words, .init(code: "amountNotANumber")), .modified(cell, .init(code: "unreachable")))
        let renderer = TerminalRenderer(width: width, color: false)
        let drawn = renderer.render(coded, title: "Checkout")
        #expect(drawn == renderer.render(plain, title: "Checkout"))
        #expect(!drawn.contains("amountNotANumber") && !drawn.contains("unreachable"), "\(drawn)")
        let page = HTMLWriter(actionURL: "/a", secret: "s").html(coded)
        #expect(page == HTMLWriter(actionURL: "/a", secret: "s").html(plain))
    }

    // MARK: Checkout through widget-host

    static let refused = CheckoutLaunchTests.configuration + CheckoutLaunchTests.now + ["--set", "checkout.amount=abc"]
    static let french = ["--set", "checkout.locale=fr_CA", "--set", "checkout.currencyCode=CAD"]

    @Test("launch --once shows Checkout's refusal as a sentence, in English and under fr_CA in French, never its code")
    func checkoutSentence() throws {
        let english = try TestSupport.runHost(["launch", "checkout", "--once"] + Self.refused, environment: ["NO_COLOR": "1", "COLUMNS": "200"])
        #expect(english.status == 0, "\(english)")
        #expect(english.stdout.contains("\"abc\" is not an amount: enter digits with at most 2 decimal places, such as 250.00"), "\(english)")
        #expect(!english.stdout.contains("amountNotANumber"), "\(english)")

        let french = try TestSupport.runHost(["launch", "checkout", "--once"] + Self.refused + Self.french, environment: ["NO_COLOR": "1", "COLUMNS": "200"])
        #expect(french.status == 0, "\(french)")
        #expect(french.stdout.contains("n'est pas un montant\u{00A0}: entrez des chiffres"), "\(french)")
        #expect(!french.stdout.contains("amountNotANumber") && !french.stdout.contains("is not an amount"), "\(french)")
    }

    @Test("launch --format json keeps the code on the node that says the sentence, in both languages", arguments: [false, true])
    func checkoutJSONKeepsCode(_ inFrench: Bool) throws {
        let run = try TestSupport.runHost(["launch", "checkout", "--format", "json"] + Self.refused + (inFrench ? Self.french : []))
        let view = try #require(try JSONParser.parse(run.stdout)["view"], "\(run)")
        let coded = ViewTree.nodes(view).filter { $0["code"] != nil }
        #expect(coded.map { $0["code"]?.string } == ["amountNotANumber"], "\(run)")
        let words = coded.first?["text"]?.string ?? ""
        #expect(words.contains(inFrench ? "n'est pas un montant" : "is not an amount"), "\(words)")
        #expect(!ViewTree.nodes(view).contains { $0["kind"] == "badge" }, "no code drawn as a badge: \(run)")
    }

    @Test("the dashboard card shows the sentence on screen and keeps the code in dashboard --once --format json")
    func dashboardCard() throws {
        let world = try DashboardWorld()
        let (_, cards) = try world.once(["--set", "checkout.amount=abc"])
        let checkout = try #require(cards["org.widgethost.checkout"])
        #expect(ViewTree.nodes(checkout["view"] ?? .null).compactMap { $0["code"]?.string } == ["amountNotANumber"], "\(checkout)")
        let screen = try world.run(["dashboard", "--once", "--wait", "20"] + world.arguments + ["--set", "checkout.amount=abc"],
                                   ["COLUMNS": "120", "NO_COLOR": "1"])
        #expect(screen.stdout.contains("is not an amount"), "\(screen)")
        #expect(!screen.stdout.contains("amountNotANumber"), "\(screen)")
    }
}
