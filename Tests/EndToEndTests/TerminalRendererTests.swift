import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The terminal renderer: a box measured in display columns (wide, emoji and
/// combining characters line up), colour only when asked for, sized to the
/// width given and readable at 40 columns, actions numbered in on-screen order.
/// Widths are checked against WidthOracle, which does not use DisplayWidth.
@Suite("Terminal renderer")
struct TerminalRendererTests {
    typealias Node = ViewNode

    static func text(_ text: String, _ style: Node.TextStyle = .body, _ color: Node.SemanticColor = .primary) -> Node {
        .text(text, style: style, color: color)
    }

    /// The same screen as views.c's "wide".
    static let wideScreen: Node = .stack(axis: .vertical, children: [
        text("東京タワー 🚀 cafe\u{301} ＡＢＣ", .title),
        text("한국어 텍스트와 😀 e\u{301}\u{302} ❤️ 👍🏽 🇫🇷 👨‍👩‍👧"),
        .section(header: "国際 Zu\u{308}rich", children: [
            .list(action: nil, rows: [
                .init(id: "tokyo", title: "東京", detail: "Japan", badge: nil),
                .init(id: "paris", title: "Paris", detail: "France", badge: nil),
                .init(id: "seoul", title: "서울특별시", detail: "Korea", badge: nil),
                .init(id: "cafe", title: "Cafe\u{301}s", detail: "Combining", badge: nil),
                .init(id: "moon", title: "🌙🌙", detail: "Emoji", badge: nil),
            ]),
        ]),
        .stack(axis: .horizontal, children: [text("左"), .badge("新しい", color: .warning)]),
        .button(title: "送信 ✅", action: "send", value: nil),
        text("日本語の長い文章は単語の区切りがないので途中で折り返さなければなりません。これは四十桁の端末でも読めるはずです。"),
        .field(label: "漢字", action: "name", placeholder: "仮名交じり文", value: "", input: .text),
        .link(title: "東京 → 👍🏽", target: "widget://x/y"),
    ])

    /// Every kind once, in colour where it has one.
    static let everyKind: Node = .stack(axis: .vertical, children: [
        text("Every kind", .title, .positive),
        .stack(axis: .horizontal, children: [text("left", .caption), text("right", .body, .negative)]),
        .section(header: "Details", children: [.badge("beta", color: .warning), text("mono", .monospaced, .secondary)]),
        .button(title: "Wave", action: "wave", value: "hand"),
        .field(label: "Name", action: "name", placeholder: "your name", value: "", input: .text),
        .list(action: "pick", rows: [.init(id: "a", title: "Alpha", detail: "first", badge: "new"), .init(id: "b", title: "Beta", detail: nil, badge: nil)]),
        .divider, .spacer,
        .image(alt: "A cat", url: nil),
        .progress(label: "Half", fraction: 0.5),
        text("emphasis", .emphasis),
        .link(title: "About Hello", target: "widget://org.example.hello/about"),
        .unknown(kind: "hologram"),
    ])

    /// The same screen as views.c's "long".
    static let longScreen: Node = .stack(axis: .vertical, children: [
        text("The quick brown fox jumps over the lazy dog while seven wizards quietly judge boxing matches in the park"),
        text("Supercalifragilisticexpialidocious-antidisestablishmentarianism-floccinaucinihilipilification"),
        .button(title: "Retrieve the latest prices from every exchange we know about", action: "wave", value: nil),
        .field(label: "Delivery instructions", action: "name", placeholder: "leave the parcel with the neighbour at number twelve", value: "", input: .text),
        .list(action: "pick", rows: [
            .init(id: "a", title: "Coinbase", detail: "forty-three thousand two hundred dollars and fifteen cents", badge: "BTC-USD"),
            .init(id: "b", title: "Kraken", detail: "spread against the average of the others", badge: nil),
        ]),
        .image(alt: "A photograph of the hotel lobby with its marble staircase", url: nil),
        .link(title: "Open the booking page for this reservation", target: "widget://org.example.views/form"),
    ])

    /// What `longScreen` must show, in order, at any width (spaces aside).
    static let longTexts = [
        "The quick brown fox jumps over the lazy dog while seven wizards quietly judge boxing matches in the park",
        "Supercalifragilisticexpialidocious-antidisestablishmentarianism-floccinaucinihilipilification",
        "[1] Retrieve the latest prices from every exchange we know about",
        "[2] Delivery instructions: [ ] leave the parcel with the neighbour at number twelve",
        "[3] Coinbase", "forty-three thousand two hundred dollars and fifteen cents (BTC-USD)",
        "[4] Kraken", "spread against the average of the others",
        "[image: A photograph of the hotel lobby with its marble staircase]",
        "[5] Open the booking page for this reservation →",
    ]

    static let widths = [24, 30, 40, 41, 57, 80, 100]

    // MARK: Display width

    @Test("display width counts columns: wide and emoji take two, combining marks none", arguments: [
        ("abc", 3), ("東京", 4), ("한국어", 6), ("ＡＢＣ", 6), ("ｶﾀｶﾅ", 4), ("e\u{301}", 1), ("cafe\u{301}", 4),
        ("e\u{301}\u{302}\u{303}", 1), ("Zu\u{308}rich", 6), ("🚀", 2), ("❤️", 2), ("👍🏽", 2), ("🇫🇷", 2),
        ("👨‍👩‍👧", 2), ("a\u{200B}b", 2), ("→", 1), ("─", 1), ("", 0),
    ])
    func displayWidth(_ text: String, _ columns: Int) {
        #expect(DisplayWidth.of(text) == columns)
    }

    @Test("wrapping breaks at spaces, and breaks a word longer than the line, in columns")
    func wrap() {
        #expect(DisplayWidth.wrap("one two three four", columns: 9) == ["one two", "three", "four"])
        #expect(DisplayWidth.wrap("東京東京東京", columns: 5) == ["東京", "東京", "東京"])
        #expect(DisplayWidth.wrap("abcdefghij", columns: 4) == ["abcd", "efgh", "ij"])
        #expect(DisplayWidth.prefix("東京タワー", fitting: 5) == "東京")
        #expect(DisplayWidth.prefix("cafe\u{301}s", fitting: 4) == "cafe\u{301}")
    }

    // MARK: Boxes in display columns

    @Test("every line of a box is exactly as wide as the terminal, whatever the script", arguments: widths)
    func boxLinesLineUp(_ width: Int) {
        for (name, screen) in [("wide", Self.wideScreen), ("every kind", Self.everyKind), ("long", Self.longScreen)] {
            let output = TerminalRenderer(width: width, color: false).render(screen, title: "東京 \(name) 🚀")
            let lines = RenderedBox.lines(output)
            #expect(lines.count >= 3)
            for line in lines {
                #expect(WidthOracle.width(line) == width, "\(name) at \(width): '\(line)' is \(WidthOracle.width(line)) columns")
                #expect(line.hasSuffix("│") || line.hasSuffix("┐") || line.hasSuffix("┘"), "\(line)")
            }
        }
    }

    @Test("a list's details line up in one column after titles of any script")
    func listDetailsAlign() throws {
        let output = TerminalRenderer(width: 80, color: false).render(Self.wideScreen, title: "Wide")
        let details = ["Japan", "France", "Korea", "Combining", "Emoji"]
        var columns: [Int] = []
        for detail in details {
            let line = try #require(RenderedBox.contents(output).first { $0.hasSuffix(detail) }, "no row ends with \(detail):\n\(output)")
            columns.append(WidthOracle.width(String(line.dropLast(detail.count))))
        }
        #expect(Set(columns).count == 1, "details start at columns \(columns):\n\(output)")
        // Two columns past the widest title, 서울특별시 (ten columns): "• " + 10 + 2.
        #expect(columns.first == 2 + 10 + 2)
    }

    @Test("the error panel is a box too, naming the plugin, the screen and the reason")
    func errorPanel() {
        let output = TerminalRenderer(width: 40, color: false).errorPanel(plugin: "org.example.views", screen: "deep",
                                                                          reason: "the view is nested deeper than 32 levels")
        #expect(RenderedBox.lines(output).allSatisfy { WidthOracle.width($0) == 40 })
        #expect(RenderedBox.squeezed(output) == "org.example.viewscouldnotrender'deep'theviewisnesteddeeperthan32levels")
        #expect(output.hasPrefix("┌─ Error "))
    }

    // MARK: Colour

    /// The text with every `ESC [ ... m` removed.
    static func stripped(_ text: String) -> String {
        var result = ""
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.first {
            if scalar == "\u{1B}", scalars.dropFirst().first == "[" {
                scalars = scalars.dropFirst(2)
                while let next = scalars.first, next != "m" { scalars = scalars.dropFirst() }
                scalars = scalars.dropFirst()
            } else {
                result.unicodeScalars.append(scalar)
                scalars = scalars.dropFirst()
            }
        }
        return result
    }

    @Test("colour appears only with color: true, and changes nothing but the escapes", arguments: [Self.everyKind, Self.wideScreen])
    func colourOnlyWhenAsked(_ screen: Node) {
        let plain = TerminalRenderer(width: 60, color: false).render(screen, title: "T", footer: "keys")
        let coloured = TerminalRenderer(width: 60, color: true).render(screen, title: "T", footer: "keys")
        #expect(!plain.hasEscape)
        #expect(coloured.hasEscape)
        #expect(Self.stripped(coloured) == plain)
        #expect(!TerminalRenderer(width: 60, color: false).errorPanel(plugin: "p", screen: "s", reason: "r").hasEscape)
        #expect(TerminalRenderer(width: 60, color: true).errorPanel(plugin: "p", screen: "s", reason: "r").hasEscape)
    }

    @Test("semantic colours and styles become their SGR codes", arguments: [
        (text("x", .body, .positive), "32"), (text("x", .body, .negative), "31"), (text("x", .body, .warning), "33"),
        (text("x", .body, .secondary), "90"), (text("x", .title), "1"), (text("x", .headline), "1"),
        (text("x", .caption), "2;90"), (text("x", .emphasis), "3"), (Node.badge("x", color: .negative), "1;31"),
    ])
    func sgrCodes(_ node: Node, _ codes: String) {
        let output = TerminalRenderer(width: 30, color: true).render(node, title: "T")
        #expect(output.contains("\u{1B}[\(codes)m"), "\(output.debugDescription)")
        #expect(!TerminalRenderer(width: 30, color: true).render(Self.text("plain"), title: "T").hasEscape)
    }

    // MARK: Numbering

    @Test("every action is numbered in on-screen order, past 9 too; a list without an action gets bullets")
    func numbering() throws {
        let buttons = (1...11).map { Node.button(title: "Action \($0)", action: "a\($0)", value: nil) }
        let screen = Node.stack(axis: .vertical, children: [.list(action: nil, rows: [.init(id: "x", title: "Info", detail: nil, badge: nil)])] + buttons)
        let lines = RenderedBox.contents(TerminalRenderer(width: 40, color: false).render(screen, title: "Many"))
        #expect(lines.first == "• Info")
        #expect(Array(lines.dropFirst()) == (1...11).map { "[\($0)] Action \($0)" })
    }

    @Test("the walk that draws the numbers yields what each chooses, in the order of the screen's actions, through stacks and sections")
    func numberingMatchesActions() throws {
        let layout = TerminalRenderer(width: 80, color: false).layout(Self.everyKind, title: "All")
        let output = layout.text
        let lines = RenderedBox.contents(output)
        let actions = layout.actions
        #expect(actions == Self.everyKind.actions)
        #expect(actions.map(\.title) == ["Wave", "Name", "Alpha", "Beta", "About Hello"])
        var previous = -1
        for (index, action) in actions.enumerated() {
            let line = try #require(lines.firstIndex { $0.hasPrefix("[\(index + 1)] \(action.title)") }, "[\(index + 1)] \(action.title):\n\(output)")
            #expect(line > previous)
            previous = line
        }
    }

    @Test("a drawn action's title is the one shown, made safe for the terminal and ASCII when asked; its id and value are the widget's own")
    func drawnActionsAreShownSafely() throws {
        let screen = Node.stack(axis: .vertical, children: [
            .button(title: "Pay\u{1B}[2J now \u{2192}", action: "pay\u{2192}", value: "caf\u{E9}"),
            .list(action: "open", rows: [.init(id: "r\u{E9}", title: "Row \u{E9}", detail: nil, badge: nil)]),
        ])
        let actions = TerminalRenderer(width: 60, color: false, ascii: true).layout(screen, title: "Safe").actions
        #expect(actions.map(\.action) == ["pay\u{2192}", "open"] && actions.map(\.value) == ["caf\u{E9}", "r\u{E9}"])
        #expect(actions.allSatisfy { $0.title.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 } }, "\(actions)")
        #expect(screen.actions.first?.title.contains("\u{1B}") == true, "the raw tree keeps the widget's text; only the drawn one is made safe")
        #expect(TerminalRenderer(width: 12, color: false).layout(screen, title: "Safe").actions.isEmpty, "no numbers shown, none to choose")
    }

    // MARK: Width

    @Test("no line is wider than the width given, footer included; the box is at most 100 wide", arguments: [24, 40, 80, 100, 101, 250])
    func fitsTheWidth(_ width: Int) {
        let expected = min(width, TerminalRenderer.maximumWidth)
        for screen in [Self.wideScreen, Self.everyKind, Self.longScreen] {
            let output = TerminalRenderer(width: width, color: false).render(screen, title: "A title",
                    footer: "1-9 choose · b back · r refresh · q quit, and a long footer that must wrap")
            for line in output.split(separator: "\n").map(String.init) {
                #expect(WidthOracle.width(line) <= expected, "'\(line)'")
            }
            #expect(RenderedBox.lines(output).allSatisfy { WidthOracle.width($0) == expected })
        }
    }

    @Test("a terminal narrower than 24 columns gets a 'too narrow' message that fits, no box and no footer", arguments: [1, 5, 12, 23])
    func tooNarrow(_ width: Int) {
        let output = TerminalRenderer(width: width, color: true).render(Self.everyKind, title: "A title", footer: "1-9 choose · b back")
        #expect(RenderedBox.lines(output).isEmpty, "\(output)")
        #expect(!output.contains("choose") && !output.hasEscape, "\(output)")
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { WidthOracle.width($0) <= width }, "\(output)")
        if width >= 12 {
            #expect(lines.first == "Too narrow:" || lines.first?.hasPrefix("Too narrow: \(width)") == true, "\(output)")
            #expect(lines.joined(separator: " ") == "Too narrow: \(width) columns; needs at least 24.", "\(output)")
        }
    }

    @Test("an empty field shows an empty box and its placeholder dimmed; a field with a value shows the value plainly")
    func placeholderUnlikeValue() throws {
        let empty = Node.field(label: "Amount", action: "update", placeholder: "0.00", value: "", input: .amount)
        let filled = Node.field(label: "Amount", action: "update", placeholder: "0.00", value: "0.00", input: .amount)
        let plain = TerminalRenderer(width: 40, color: false)
        #expect(RenderedBox.contents(plain.render(empty, title: "T")) == ["[1] Amount: [ ] 0.00"])
        #expect(RenderedBox.contents(plain.render(filled, title: "T")) == ["[1] Amount: [0.00]"])
        // In colour the placeholder is dim, italic and grey; the value has no style at all.
        let coloured = TerminalRenderer(width: 40, color: true)
        #expect(coloured.render(empty, title: "T").contains("\u{1B}[2;3;90m[1] Amount: [ ] 0.00\u{1B}[0m"))
        #expect(!coloured.render(filled, title: "T").hasEscape)
    }

    @Test("a window of a tall screen: its borders count the lines above and below, and every line is reachable")
    func window() throws {
        let screen = Node.stack(axis: .vertical, children: (1...60).map { Self.text("Line \($0)") })
        let layout = TerminalRenderer(width: 40, color: false).layout(screen, title: "Tall")
        #expect(layout.bodyCount == 60)
        let top = layout.window(rows: 10, offset: 0)
        #expect(RenderedBox.contents(top) == (1...10).map { "Line \($0)" })
        #expect(RenderedBox.lines(top).last?.contains(" ↓ 50 more ─┘") == true, "\(top)")
        #expect(RenderedBox.lines(top).first?.contains("more") == false, "\(top)")
        let middle = layout.window(rows: 10, offset: 20)
        #expect(RenderedBox.contents(middle) == (21...30).map { "Line \($0)" })
        #expect(RenderedBox.lines(middle).first?.hasSuffix(" ↑ 20 more ─┐") == true &&
                RenderedBox.lines(middle).first?.hasPrefix("┌─ Tall ") == true, "\(middle)")
        // Past the end is the last window.
        let bottom = layout.window(rows: 10, offset: 1000)
        #expect(RenderedBox.contents(bottom) == (51...60).map { "Line \($0)" })
        #expect(RenderedBox.lines(bottom).last == "└" + String(repeating: "─", count: 38) + "┘")
        #expect(RenderedBox.lines(top + middle + bottom).allSatisfy { WidthOracle.width($0) == 40 })
        #expect(TerminalRenderer.Layout.clamp(-5, count: 60, rows: 10) == 0)
        #expect(TerminalRenderer.Layout.clamp(5, count: 8, rows: 10) == 0)
    }

    @Test("at 40 columns text is wrapped, not cut: buttons, fields, rows, images and links show whole", arguments: [40, 24])
    func wrappedNotCut(_ width: Int) throws {
        let output = TerminalRenderer(width: width, color: false).render(Self.longScreen, title: "Long")
        let shown = RenderedBox.squeezed(output)
        var from = shown.startIndex
        for text in Self.longTexts {
            let wanted = text.filter { $0 != " " }
            let found = try #require(shown.range(of: wanted, range: from..<shown.endIndex), "'\(text)' is not shown whole at \(width):\n\(output)")
            from = found.upperBound
        }
    }

    @Test("at 40 columns a long section header and a long badge are wrapped, not cut")
    func headerAndBadgeNotCut() {
        let screen = Node.stack(axis: .vertical, children: [
            .section(header: "Upcoming departures from Madrid Barajas", children: []),
            .badge("insufficient funds for this transaction", color: .negative),
        ])
        let output = TerminalRenderer(width: 40, color: false).render(screen, title: "Long")
        let shown = RenderedBox.squeezed(output)
        #expect(shown.contains("UPCOMINGDEPARTURESFROMMADRIDBARAJAS"), "\(output)")
        #expect(shown.contains("(insufficientfundsforthistransaction)"), "\(output)")
    }

    @Test("a progress bar that does not fit beside its label keeps its shape")
    func progressBarKeepsItsShape() {
        let screen = Node.progress(label: "Downloading the exchange rates", fraction: 0.25)
        let output = TerminalRenderer(width: 40, color: false).render(screen, title: "Progress")
        // 36 columns inside: the bar has 20 cells, 5 of them filled.
        let bar = "[" + String(repeating: "#", count: 5) + String(repeating: " ", count: 15) + "] 25%"
        #expect(RenderedBox.contents(output).contains { $0.contains(bar) }, "\(output)")
    }

    @Test("a list row that wraps keeps its detail in the details' column")
    func wrappedRowKeepsItsColumn() throws {
        let screen = Node.list(action: nil, rows: [
            .init(id: "a", title: "Checkout", detail: "Buy now, pay later: a 4-instalment schedule that follows the order total.", badge: nil),
            .init(id: "b", title: "Crypto", detail: "A live price.", badge: nil),
        ])
        let lines = RenderedBox.contents(TerminalRenderer(width: 60, color: false).render(screen, title: "Widgets"))
        let first = try #require(lines.first { $0.hasPrefix("• Checkout") })
        let second = try #require(lines.first { $0.hasPrefix("• Crypto") })
        #expect(first.hasPrefix("• Checkout  Buy"), "'\(first)'")
        #expect(second.hasPrefix("• Crypto    A live"), "'\(second)'")
    }

    // MARK: What a plugin cannot do to the terminal

    @Test("control characters in a plugin's text never reach the terminal")
    func controlCharactersNeutralised() {
        let screen = Node.stack(axis: .vertical, children: [
            Self.text("plain \u{1B}[31mred\u{1B}[0m \u{1B}]0;pwned\u{07}bell\ttab"),
            .button(title: "\u{1B}[2JWipe", action: "wave", value: nil),
            .list(action: nil, rows: [.init(id: "r", title: "row\u{1B}[1m", detail: "\u{9B}31m", badge: nil)]),
        ])
        for width in [40, 80] {
            let output = TerminalRenderer(width: width, color: false).render(screen, title: "Esc\u{1B}[5m")
            let controls = output.unicodeScalars.filter { $0 != "\n" && ($0.value < 0x20 || (0x7F..<0xA0).contains($0.value)) }
            #expect(controls.isEmpty, "control characters \(controls.map { String($0.value, radix: 16) }) in:\n\(output.debugDescription)")
            #expect(RenderedBox.lines(output).allSatisfy { WidthOracle.width($0) == width }, "\(output)")
            #expect(RenderedBox.squeezed(output).contains("Wipe"))
        }
    }

    // MARK: Through widget-host launch

    @Suite("Through widget-host launch")
    struct Launch {
        static let screens = ["main", "wide", "long", "form", "links", "many_actions", "unknown", "malformed", "ticker"]

        @Test("COLUMNS=40: no line is wider than 40 and every box line is exactly 40", arguments: screens)
        func fortyColumns(_ screen: String) throws {
            let run = try ViewsFixture.text(screen, environment: ["COLUMNS": "40"])
            #expect(run.status == 0, "\(run)")
            let lines = run.stdout.split(separator: "\n").map(String.init)
            #expect(!lines.isEmpty)
            for line in lines {
                #expect(WidthOracle.width(line) <= 40, "'\(line)'")
            }
            let box = RenderedBox.lines(run.stdout)
            #expect(box.count >= 3)
            #expect(box.allSatisfy { WidthOracle.width($0) == 40 }, "\(run)")
        }

        @Test("the box fits the width COLUMNS gives, up to 100; without COLUMNS and a terminal it is 80", arguments: [nil, "24", "57", "133", "250"])
        func followsColumns(_ columns: String?) throws {
            let run = try ViewsFixture.text("wide", environment: columns.map { ["COLUMNS": $0] } ?? [:])
            let width = min(columns.flatMap { Int($0) } ?? 80, TerminalRenderer.maximumWidth)
            let box = RenderedBox.lines(run.stdout)
            #expect(!box.isEmpty, "\(run)")
            #expect(box.allSatisfy { WidthOracle.width($0) == width }, "\(run)")
        }

        @Test("COLUMNS=40: long texts are wrapped, not cut")
        func fortyColumnsWrap() throws {
            let run = try ViewsFixture.text("long", environment: ["COLUMNS": "40"])
            let shown = RenderedBox.squeezed(run.stdout)
            var from = shown.startIndex
            for text in TerminalRendererTests.longTexts {
                let wanted = text.filter { $0 != " " }
                let found = try #require(shown.range(of: wanted, range: from..<shown.endIndex), "'\(text)' is cut:\n\(run)")
                from = found.upperBound
            }
        }

        @Test("without a terminal launch writes no ANSI escape, even with TERM set and colours on screen",
              arguments: ["main", "wide", "unknown", "malformed"])
        func noEscapesWithoutATerminal(_ screen: String) throws {
            for environment in [["TERM": "xterm-256color"], ["TERM": "xterm", "COLUMNS": "40"]] {
                let run = try ViewsFixture.text(screen, environment: environment)
                #expect(run.status == 0, "\(run)")
                #expect(!run.stdout.hasEscape, "\(run.stdout.debugDescription)")
                #expect(!run.stdout.isEmpty)
            }
            let home = try ViewsFixture.run([], environment: ["TERM": "xterm"])
            #expect(home.status == 0 && !home.stdout.hasEscape, "\(home)")
        }

        @Test("without a terminal, a plugin's own escape sequences do not get through either")
        func pluginEscapesStopped() throws {
            let run = try ViewsFixture.text("escape", environment: ["TERM": "xterm"])
            #expect(run.status == 0, "\(run)")
            #expect(!run.stdout.hasEscape, "\(run.stdout.debugDescription)")
            #expect(!run.stdout.unicodeScalars.contains("\u{07}"), "\(run.stdout.debugDescription)")
        }

        @Test("actions are numbered in on-screen order, past 9 too")
        func numbering() throws {
            let run = try ViewsFixture.text("many_actions")
            #expect(RenderedBox.contents(run.stdout) == (1...11).map { "[\($0)] Action \($0)" } + ["Picked: none"], "\(run)")
            let main = RenderedBox.contents(try ViewsFixture.text("main").stdout)
            let numbered = main.filter { $0.hasPrefix("[") && $0.dropFirst(2).hasPrefix("]") && $0.dropFirst().first?.isNumber == true }
            #expect(numbered == ["[1] Wave", "[2] Name: [ ] your name", "[3] Alpha  first  (new)", "[4] Beta", "[5] About Hello →"], "\(main)")
        }
    }
}
