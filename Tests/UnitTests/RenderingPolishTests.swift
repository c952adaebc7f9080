import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The terminal renderer's finish, line by line at 80, 40 and 30 columns:
/// wrapped lines keep their indent, a list's columns line up, rows that open
/// a screen are marked, a heading the box title repeats is dropped, buttons
/// show their prominence, and a terminal that is not UTF-8 gets ASCII.
@Suite("Rendering, polished")
struct RenderingPolishTests {
    typealias Node = ViewNode

    /// The body lines of a box, without its borders and side bars.
    static func body(_ node: Node, title: String = "T", width: Int, ascii: Bool = false) -> [String] {
        let text = TerminalRenderer(width: width, color: false, ascii: ascii).render(node, title: title)
        let lines = text.split(separator: "\n").map(String.init)
        let bar = ascii ? "|" : "│"
        for line in lines { #expect(DisplayWidth.of(line) == width, "\(line)") }
        return lines.dropFirst().dropLast().map { line in
            #expect(line.hasPrefix(bar + " ") && line.hasSuffix(" " + bar), "\(line)")
            return String(String(line.dropFirst(2).dropLast(2)).reversed().drop { $0 == " " }.reversed())
        }
    }

    static let home: Node = .list(action: "open", rows: [
        .init(id: "c", title: "Checkout", detail: "Buy now, pay later: a 4-instalment schedule that follows the order total.", disclosure: true),
        .init(id: "t", title: "My Trips", detail: "Your next trip as a timeline of flight and hotel steps.", disclosure: true),
    ])

    @Test("home at 80 columns: a wrapped description restarts under the descriptions, not at the edge; each row ends in its mark")
    func homeAt80() {
        #expect(Self.body(Self.home, width: 80) == [
            "[1] Checkout  Buy now, pay later: a 4-instalment schedule that follows the ›",
            "              order total.",
            "[2] My Trips  Your next trip as a timeline of flight and hotel steps.      ›",
        ])
    }

    @Test("home at 40 and 30 columns: the indent holds, or the description goes under the title")
    func homeNarrow() {
        #expect(Self.body(Self.home, width: 40) == [
            "[1] Checkout  Buy now, pay later:  ›",
            "              a 4-instalment",
            "              schedule that",
            "              follows the order",
            "              total.",
            "[2] My Trips  Your next trip as a  ›",
            "              timeline of flight",
            "              and hotel steps.",
        ])
        #expect(Self.body(Self.home, width: 30) == [
            "[1] Checkout             ›",
            "    Buy now, pay later:",
            "    a 4-instalment",
            "    schedule that",
            "    follows the order",
            "    total.",
            "[2] My Trips             ›",
            "    Your next trip as a",
            "    timeline of flight",
            "    and hotel steps.",
        ])
    }

    /// Crypto's Exchanges: price and spread in right-aligned cells, the pair as a badge.
    static let exchanges: Node = .list(action: "exchange", rows: [
        row("coinbase", "Coinbase", "$43,215.01", "-$2.82 (-0.01%)", "BTC-USD"),
        row("kraken", "Kraken", "$43,205.10", "-$17.68 (-0.04%)", "XBT/USD"),
        row("binance", "Binance", "$143,230.55", "+$20.50 (+0.05%)", "BTC/USDT"),
    ])

    static func row(_ id: String, _ title: String, _ price: String, _ spread: String, _ pair: String) -> Node.ListRow {
        .init(id: id, title: title, detail: "\(price)  \(spread) vs others", badge: pair,
              cells: [.modified(.text(price, style: .body, color: .primary), .init(alignment: .trailing)),
                      .modified(.text(spread, style: .body, color: .primary), .init(alignment: .trailing))], disclosure: true)
    }

    @Test("Exchanges at 80, 40 and 30 columns: prices and spreads end in one column on every row", arguments: [
        (80, [
            "[1] Coinbase   $43,215.01   -$2.82 (-0.01%)  (BTC-USD)  ›",
            "[2] Kraken     $43,205.10  -$17.68 (-0.04%)  (XBT/USD)  ›",
            "[3] Binance   $143,230.55  +$20.50 (+0.05%)  (BTC/USDT) ›",
        ]),
        (40, [
            "[1] Coinbase   $43,215.01          ›",
            "               -$2.82 (-0.01%)",
            "              (BTC-USD)",
            "[2] Kraken     $43,205.10          ›",
            "              -$17.68 (-0.04%)",
            "              (XBT/USD)",
            "[3] Binance   $143,230.55          ›",
            "              +$20.50 (+0.05%)",
            "              (BTC/USDT)",
        ]),
        (30, [
            "[1] Coinbase             ›",
            "     $43,215.01",
            "     -$2.82 (-0.01%)",
            "    (BTC-USD)",
            "[2] Kraken               ›",
            "     $43,205.10",
            "    -$17.68 (-0.04%)",
            "    (XBT/USD)",
            "[3] Binance              ›",
            "    $143,230.55",
            "    +$20.50 (+0.05%)",
            "    (BTC/USDT)",
        ]),
    ])
    func exchangeColumns(_ width: Int, _ expected: [String]) {
        #expect(Self.body(Self.exchanges, width: width) == expected)
    }

    @Test("a wrapped button, link, field or indented text keeps its indent at 30 columns")
    func hangingIndents() {
        let node: Node = .stack(axis: .vertical, children: [
            .button(title: "Retrieve the latest prices from every exchange", action: "r", value: nil),
            .link(title: "Open the booking page for this reservation", target: "widget://a/b"),
            .field(label: "Delivery", action: "d", placeholder: "leave it with the neighbour", value: "", input: .text),
            .text("  an indented note that is long enough to wrap", style: .body, color: .primary),
        ])
        #expect(Self.body(node, width: 30) == [
            "[1] Retrieve the latest",
            "    prices from every",
            "    exchange",
            "[2] Open the booking page",
            "    for this reservation →",
            "[3] Delivery: [ ] leave it",
            "    with the neighbour",
            "  an indented note that is",
            "  long enough to wrap",
        ])
    }

    @Test("a first heading that repeats the box title is dropped; a different one stays")
    func headingNotRepeated() {
        let screen: Node = .stack(axis: .vertical, children: [
            .text("Exchanges", style: .title, color: .primary), .text("BTC", style: .caption, color: .primary),
        ])
        #expect(Self.body(screen, title: "Exchanges", width: 40) == ["BTC"])
        #expect(Self.body(screen, title: "Crypto", width: 40) == ["Exchanges", "BTC"])
    }

    @Test("buttons show their prominence: primary and destructive marked, in colour reverse video and red")
    func prominence() {
        let node: Node = .stack(axis: .vertical, children: [
            .button(title: "Retrieve", action: "r", value: nil, prominence: .primary),
            .button(title: "Exchanges", action: "e", value: nil),
            .button(title: "Forget prices", action: "f", value: nil, prominence: .destructive),
        ])
        #expect(Self.body(node, width: 30) == ["[1] ▶ Retrieve", "[2] Exchanges", "[3] ✖ Forget prices"])
        #expect(Self.body(node, width: 30, ascii: true) == ["[1] > Retrieve", "[2] Exchanges", "[3] x Forget prices"])
        let coloured = TerminalRenderer(width: 30, color: true).render(node, title: "T")
        #expect(coloured.contains("\u{1B}[1;7m[1] ▶ Retrieve\u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[1;31m[3] ✖ Forget prices\u{1B}[0m"))
    }

    @Test("modifiers: trailing and centred alignment, padding, a stack's spacing; a secure field never shows its text")
    func modifiersAndSecureField() {
        let node: Node = .stack(axis: .vertical, children: [
            .modified(.text("right", style: .body, color: .primary), .init(alignment: .trailing)),
            .modified(.text("mid", style: .body, color: .primary), .init(alignment: .center)),
            .modified(.stack(axis: .vertical, children: [.text("a", style: .body, color: .primary), .text("b", style: .body, color: .primary)]),
                      .init(padding: 2, spacing: 1)),
            .field(label: "Key", action: "k", placeholder: "", value: "hunter2", input: .secure),
        ])
        #expect(Self.body(node, width: 24) == ["               right", "        mid", "  a", "", "  b", "[1] Key: [•••••••]"])
    }

    @Test("an overlay puts its badge beside an image's caption when it would hide words, over blank space when not")
    func overlay() {
        let image: Node = .overlay(alignment: .topTrailing, children: [.image(alt: "Photo", url: "x"), .badge("★ 8.7", color: .primary)])
        #expect(Self.body(image, width: 40) == ["[image: Photo] (★ 8.7)"])
        let text: Node = .text("left                      end", style: .body, color: .primary)
        let beside: Node = .overlay(alignment: .trailing, children: [text, .badge("9", color: .primary)])
        #expect(Self.body(beside, width: 40) == ["left                      end (9)"])
        let over: Node = .overlay(alignment: .center, children: [text, .badge("9", color: .primary)])
        #expect(Self.body(over, width: 40) == ["left         (9)          end"])
    }

    @Test("under LANG=C the box, marks and a plugin's symbols are ASCII; UTF-8 locales keep Unicode", arguments: [
        (["LANG": "C"], true), (["LANG": "POSIX"], true), (["LC_ALL": "en_US.ISO-8859-1", "LANG": "en_US.UTF-8"], true),
        (["LANG": "en_US.UTF-8"], false), (["LC_CTYPE": "C.utf8", "LANG": "C"], false), ([:], false), (["LANG": ""], false),
    ])
    func asciiLocale(_ environment: [String: String], _ ascii: Bool) {
        #expect(Terminal.ascii(environment: environment) == ascii)
    }

    @Test("an ASCII box at 40 columns: every byte is ASCII, the lines still line up")
    func asciiBox() {
        let node: Node = .stack(axis: .vertical, children: [
            .text("Hôtel du Louvre · MAD → CDG…", style: .body, color: .primary), .divider, Self.exchanges,
            .link(title: "See Exchanges", target: "widget://a/b"),
        ])
        let text = TerminalRenderer(width: 40, color: false, ascii: true).render(node, title: "Crypto — €")
        #expect(text.utf8.allSatisfy { $0 < 0x80 }, "\(text)")
        let lines = Self.body(node, title: "Crypto — €", width: 40, ascii: true)
        #expect(lines.first == "Hotel du Louvre - MAD -> CDG...")
        #expect(lines.contains("[1] Coinbase   $43,215.01          >"))
        #expect(lines.last == "[4] See Exchanges ->")
        #expect(text.hasPrefix("+- Crypto - EUR ---"))
    }
}

/// The new kinds and keys in the description: parsed, written back the same, and drawn as a placeholder where unknown.
@Suite("View description growth")
struct ViewDescriptionGrowthTests {
    @Test("prominence, securefield, overlay, row cells and disclosure, and modifiers survive a round trip through the one encoder")
    func roundTrip() throws {
        let root: ViewNode = .stack(axis: .vertical, children: [
            .button(title: "Retrieve", action: "r", value: nil, prominence: .primary),
            .field(label: "Key", action: "k", placeholder: "", value: "", input: .secure),
            .overlay(alignment: .topTrailing, children: [.image(alt: "A", url: nil), .badge("8.7", color: .positive)]),
            .list(action: "x", rows: [.init(id: "a", title: "A", detail: "d", badge: nil,
                                            cells: [.modified(.text("1", style: .body, color: .primary), .init(alignment: .trailing))], disclosure: true)]),
            .modified(.stack(axis: .vertical, children: []), .init(alignment: .center, padding: 2, spacing: 1)),
        ])
        let text = ViewScreen(root: root).document.serialized
        #expect(try ViewDescription.parse(Array(text.utf8)) == ViewScreen(root: root))
        #expect(text.contains(#""kind":"securefield""#))
        #expect(text.contains(#""prominence":"primary""#))
    }

    @Test("odd values fall back: an unknown prominence is secondary, padding is clamped, a field with input secure is secure")
    func fallbacks() throws {
        let text = #"{"view":1,"root":{"kind":"vstack","padding":500,"children":[{"kind":"button","action":"a","prominence":"loud"},"#
            + #"{"kind":"field","action":"p","input":"secure","value":"s3cret"},{"kind":"text","text":"t","align":"sideways"}]}}"#
        let screen = try ViewDescription.parse(Array(text.utf8))
        guard case let .modified(.stack(_, children), modifiers) = screen.root else { Issue.record("\(screen.root)"); return }
        #expect(modifiers.padding == ViewNode.Modifiers.maxPadding)
        #expect(children[0] == .button(title: "a", action: "a", value: nil, prominence: .secondary))
        #expect(children[1] == .field(label: nil, action: "p", placeholder: "", value: "s3cret", input: .secure))
        #expect(children[2] == .text("t", style: .body, color: .primary), "an unknown alignment is no modifier")
        let rendered = TerminalRenderer(width: 60, color: false).render(screen.root, title: "T")
        #expect(!rendered.contains("s3cret"), "\(rendered)")
    }

    @Test("the web page: a primary button's class, a secure field as a password input without its value, an overlay, row cells")
    func html() {
        let writer = HTMLWriter(actionURL: "/w/x", secret: "s")
        let page = writer.html(.stack(axis: .vertical, children: [
            .button(title: "Go", action: "go", value: nil, prominence: .primary),
            .field(label: "Key", action: "k", placeholder: "", value: "s3cret", input: .secure),
            .overlay(alignment: .topTrailing, children: [.image(alt: "A", url: nil), .badge("8.7", color: .primary)]),
            .list(action: "x", rows: [.init(id: "a", title: "A", cells: [.text("<1>", style: .body, color: .primary)], disclosure: true)]),
        ]))
        #expect(page.contains(#"<button class="p-primary">Go</button>"#))
        #expect(page.contains(#"type="password""#) && !page.contains("s3cret"))
        #expect(page.contains(#"<div class="overlay o-topTrailing">"#))
        #expect(page.contains("&lt;1&gt;") && page.contains(#"class="more""#))
    }
}
