import Foundation
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The interactive terminal UI reaches everything a screen holds (issue 14),
/// on real pseudo-terminals (tmux) of chosen sizes: action numbers past 9,
/// a screen taller than the terminal, `r` reaching the widget, the width
/// clamped on a wide terminal and a "too narrow" line on a tiny one, and
/// placeholders that do not look like values.
@Suite("Launch, interactive: reaching everything", .enabled(if: Tmux.path != nil, "needs tmux"))
struct LaunchReachTests {
    /// widget-host run directly in a pane of `columns` x `rows`, with the
    /// view fixtures unless another plugin directory is given.
    static func start(_ arguments: [String], columns: Int = 80, rows: Int = 30, pluginDirectory: String? = nil,
                      extra: [String: String] = [:]) throws -> Tmux {
        let home = try ViewsFixture.privateHome("reach-tty")
        let directory = try pluginDirectory ?? ViewsFixture.directory()
        return try Tmux([TestSupport.widgetHost] + arguments + ["--plugin-dir", directory],
                        environment: ViewsTerminal.environment(extra, home: home),
                        settings: Tmux.Settings(columns: columns, rows: rows, joinsWrappedLines: false))
    }

    static func quit(_ terminal: Tmux) throws {
        try terminal.send("q")
        try terminal.waitFor("the program to exit") { _ in try terminal.exited() }
    }

    /// Twelve copies of hello.c, "Widget 01" to "Widget 12", each greeting its own number.
    private static let twelve = Result { () throws -> String in
        let directory = try TestSupport.makeTemporaryDirectory("twelve-plugins")
        for number in 1...12 {
            let tag = number < 10 ? "0\(number)" : "\(number)"
            try TestSupport.compileHello(defines: ["-DPLUGIN_ID=\"org.example.w\(tag)\"", "-DPLUGIN_NAME=\"Widget \(tag)\"",
                                                   "-DGREETED=\"w\(tag)\""], output: directory + "/w\(tag).so")
        }
        return directory
    }

    // MARK: More than nine actions

    /// The home screen's rows as number → name.
    static func menu(_ screen: String) -> [Int: String] {
        var rows: [Int: String] = [:]
        for line in screen.split(separator: "\n") where line.hasPrefix("│ [") {
            guard let close = line.firstIndex(of: "]"), let number = Int(line[line.index(line.startIndex, offsetBy: 3)..<close]) else { continue }
            let rest = line[line.index(after: close)...].drop { $0 == " " }
            rows[number] = rest.components(separatedBy: "  ").first
        }
        return rows
    }

    @Test("with 12 widgets (and the built-in ones) every one opens: two digits open 10 and up, 1 Enter the 1st, 9 at once; one too many is refused")
    func twelveWidgets() throws {
        let terminal = try Self.start(["--list"], pluginDirectory: try Self.twelve.get())
        defer { terminal.kill() }
        let screen = try terminal.waitFor("the twelve widgets") { $0.contains("Widget 12") && $0.contains("+ Enter choose") }
        let menu = Self.menu(screen)
        let count = menu.count
        #expect(count >= 12 && menu.keys.sorted() == Array(1...count), "\(menu)\n\(screen)")
        #expect(screen.contains("1-\(count) + Enter choose · b back"), "\(screen)")
        // Sorted by name, so the twelve are in order, and their names line up whatever the width of their numbers.
        let numbers = (1...12).map { number in menu.first { $0.value == "Widget \(number < 10 ? "0" : "")\(number)" }?.key }
        #expect(numbers.compactMap { $0 } == numbers.compactMap { $0 }.sorted() && !numbers.contains(nil), "\(menu)")
        let columns = Set(screen.split(separator: "\n").filter { $0.contains("Widget ") }.map { $0.components(separatedBy: "Widget ")[0].count })
        #expect(columns.count == 1, "\(screen)")

        func open(_ keys: [String], _ what: String, _ shown: @escaping (String) -> Bool) throws {
            for key in keys { key == "Enter" ? try terminal.press(key) : try terminal.send(key) }
            try terminal.waitFor(what) { !$0.contains("┌─ Widgets ") && shown($0) }
            try terminal.send("b")
            try terminal.waitFor("the menu again") { $0.contains("┌─ Widgets ") }
        }
        // Every widget numbered 10 and up, by its two digits; the 12th test widget among them.
        for number in 10...count {
            let name = try #require(menu[number])
            let greeting = name.hasPrefix("Widget ") ? "Hello, w\(name.dropFirst(7))!" : nil
            try open(String(number).map(String.init), "\(name), number \(number)") { screen in
                greeting.map(screen.contains) ?? screen.contains("┌─ ")
            }
        }
        #expect(menu[count] == "Widget 12", "\(menu)")
        // 1 could begin 10 and up: it waits, and says so, until Enter opens the first.
        try terminal.send("1")
        try terminal.waitFor("the number being typed") { $0.contains("choosing 1_") }
        try open(["Enter"], "the first widget") { $0.contains("┌─ ") }
        // 9 opens at once: no number above 90 exists.
        let ninth = try #require(menu[9])
        try open(["9"], "the ninth widget") { screen in ninth.hasPrefix("Widget ") ? screen.contains("Hello, w\(ninth.dropFirst(7))!") : true }
        // One past the last is refused.
        String(count + 1).forEach { try? terminal.send(String($0)) }
        try terminal.waitFor("the refusal") { $0.contains("There is no action \(count + 1) here.") && $0.contains("┌─ Widgets ") }
        // Escape drops a number being typed.
        try terminal.send("1")
        try terminal.waitFor("the number being typed") { $0.contains("choosing 1_") }
        try terminal.press("Escape")
        try terminal.waitFor("the number dropped") { $0.contains("1-\(count) + Enter choose") }
        try Self.quit(terminal)
    }

    @Test("a screen with 11 buttons: 1 1 presses the 11th, 1 Enter the 1st, 5 the 5th")
    func elevenButtons() throws {
        let terminal = try Self.start(["launch", "views", "--screen", "many_actions"])
        defer { terminal.kill() }
        try terminal.waitFor("the buttons") { $0.contains("[11] Action 11") && $0.contains("1-11 + Enter choose") }
        try terminal.send("1")
        try terminal.send("1")
        try terminal.waitFor("the 11th pressed") { $0.contains("Picked: 11") }
        try terminal.send("1")
        try terminal.press("Enter")
        try terminal.waitFor("the 1st pressed") { $0.contains("Picked: 1 ") }
        try terminal.send("5")
        try terminal.waitFor("the 5th pressed") { $0.contains("Picked: 5 ") }
        try Self.quit(terminal)
    }

    // MARK: A screen taller than the terminal

    /// The numbers of the "Line N of 60" lines on screen.
    static func shownLines(_ screen: String) -> [Int] {
        screen.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "│ Line ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
    }

    /// What every window of the tall screen must show: the box's two borders
    /// (the top one on the first row), the keys with the scroll keys, and consecutive lines.
    static func expectWindow(_ screen: String, _ sourceLocation: SourceLocation = #_sourceLocation) {
        // The frame fits: its top border is the terminal's first row, not scrolled away.
        #expect(screen.hasPrefix("┌─ Tall ") && screen.contains("┘"), "\(screen)", sourceLocation: sourceLocation)
        #expect(screen.contains("q quit") && screen.contains("PgUp PgDn j k scroll"), "the footer is always shown:\n\(screen)", sourceLocation: sourceLocation)
        let shown = shownLines(screen)
        #expect(!shown.isEmpty && shown == Array(shown[0]...shown[shown.count - 1]), "\(shown)", sourceLocation: sourceLocation)
    }

    @Test("a 60-line screen in a 20-row terminal scrolls by PgDn/PgUp, j/k, arrows, End/Home; the footer stays; the borders say what is beyond")
    func tallScreen() throws {
        let terminal = try Self.start(["launch", "views", "--screen", "tall"], rows: 20)
        defer { terminal.kill() }
        let top = try terminal.waitFor("the top of the screen") { Self.shownLines($0).first == 1 && $0.contains("q quit") }
        Self.expectWindow(top)
        let visible = Self.shownLines(top).count
        #expect(visible >= 10 && !Self.shownLines(top).contains(60), "\(top)")
        #expect(top.contains("↓ \(60 - visible) more ─┘") && !top.contains(" more ─┐"), "\(top)")

        // PgDn, a window at a time, reaches the last line.
        var first = 1
        for _ in 0..<12 where !Self.shownLines(try terminal.capture()).contains(60) {
            try terminal.press("PageDown")
            let screen = try terminal.waitFor("the next window") { (Self.shownLines($0).first ?? 0) > first }
            Self.expectWindow(screen)
            first = Self.shownLines(screen)[0]
        }
        let bottom = try terminal.capture()
        #expect(Self.shownLines(bottom).last == 60, "\(bottom)")
        #expect(bottom.contains("↑ \(60 - visible) more ─┐") && !bottom.contains(" more ─┘"), "\(bottom)")

        // One line at a time: k and Up go up, j and Down go down.
        let last = Self.shownLines(bottom)[0]
        for (key, expected) in [("k", last - 1), ("Up", last - 2), ("j", last - 1), ("Down", last)] {
            key.count == 1 ? try terminal.send(key) : try terminal.press(key)
            Self.expectWindow(try terminal.waitFor("line \(expected) at the top after \(key)") { Self.shownLines($0).first == expected })
        }

        // PgUp goes back up; Home and End jump.
        try terminal.press("PageUp")
        Self.expectWindow(try terminal.waitFor("a window up") { (Self.shownLines($0).first ?? 99) < last })
        try terminal.press("Home")
        Self.expectWindow(try terminal.waitFor("the top again") { Self.shownLines($0).first == 1 })
        try terminal.press("End")
        Self.expectWindow(try terminal.waitFor("the bottom again") { Self.shownLines($0).last == 60 })
        try Self.quit(terminal)
    }

    @Test("a screen that fits has no scroll keys and no 'more' in its borders")
    func shortScreen() throws {
        let terminal = try Self.start(["launch", "views", "--screen", "form"], rows: 20)
        defer { terminal.kill() }
        let screen = try terminal.waitFor("the form") { $0.contains("┌─ Form ") && $0.contains("q quit") }
        #expect(!screen.contains("scroll") && !screen.contains(" more ─"), "\(screen)")
        try Self.quit(terminal)
    }

    // MARK: r

    @Test("r asks Crypto for fresh data: a second request reaches the loopback server and the new price shows (in process and isolated)",
          arguments: [[], ["--isolate"]])
    func refreshCrypto(_ isolation: [String]) throws {
        let market = try CryptoMarket([CryptoMarket.pricePath: [.ok(CryptoMarket.coincapBody), .ok(#"{"data":{"priceUsd":"44000.10"}}"#)]])
        let home = try ViewsFixture.privateHome("crypto-refresh")
        var environment = ViewsTerminal.environment(home: home)
        environment.merge(CryptoHost.environment) { _, new in new }
        // No automatic refresh within the test: only r can ask again.
        let terminal = try Tmux([TestSupport.widgetHost, "launch", "crypto"] + isolation + market.arguments(refreshSeconds: 3600),
                                environment: environment, settings: ViewsTerminal.settings)
        defer { terminal.kill() }
        try terminal.waitFor("the first price") { $0.contains("$43,210.55") && $0.contains("q quit") }
        #expect(market.requests(CryptoMarket.pricePath) == 1)
        try terminal.send("r")
        try terminal.waitFor("the refreshed price") { $0.contains("$44,000.10") }
        #expect(market.requests(CryptoMarket.pricePath) == 2)
        // The hidden exchanges were not fetched: r refreshes the screen shown.
        #expect(market.requests(CryptoMarket.coinbasePath) == 0)
        try Self.quit(terminal)
    }

    @Test("r on a widget with nothing to refresh redraws and says so")
    func refreshNothing() throws {
        let terminal = try Self.start(["launch", "hello"])
        defer { terminal.kill() }
        try terminal.waitFor("Hello") { $0.contains("Hello, world! Waves: 0") }
        try terminal.send("r")
        let screen = try terminal.waitFor("the message") { $0.contains("Nothing to refresh here: the screen was redrawn.") }
        #expect(screen.contains("Hello, world! Waves: 0"), "the widget's state is kept:\n\(screen)")
        try Self.quit(terminal)
    }

    @Test("widget-host --help tells the keys")
    func helpTellsKeys() throws {
        let run = try TestSupport.runHost(["--help"])
        #expect(run.status == 0, "\(run)")
        for key in ["Keys on a terminal", "1-9, 10...", "waits for them or Enter", "PgUp PgDn", "↑ ↓ j k", "fresh data", "q, Ctrl-C"] {
            #expect(run.stdout.contains(key), "no \(key) in:\n\(run.stdout)")
        }
    }

    // MARK: Width

    @Test("on a 250-column terminal the box is 100 columns wide")
    func wideTerminal() throws {
        let terminal = try Self.start(["launch", "views"], columns: 250)
        defer { terminal.kill() }
        let screen = try terminal.waitFor("the screen") { $0.contains("Every kind") && $0.contains("q quit") }
        let box = RenderedBox.lines(screen.split(separator: "\n").map { line in
            var line = String(line)
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }.joined(separator: "\n"))
        #expect(box.count >= 10, "\(screen)")
        #expect(box.allSatisfy { WidthOracle.width($0) == TerminalRenderer.maximumWidth }, "\(box)")
        try Self.quit(terminal)
    }

    @Test("on a 12-column terminal: a clear 'too narrow' message, no box; keys still work")
    func narrowTerminal() throws {
        let terminal = try Self.start(["launch", "views"], columns: 12)
        defer { terminal.kill() }
        let screen = try terminal.waitFor("the message") { $0.contains("Too narrow:") }
        let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(Array(lines.prefix(3)) == ["Too narrow:", "12 columns;", "needs at"], "\(screen)")
        #expect(!screen.contains("┌") && !screen.contains("│") && !screen.contains("choose"), "\(screen)")
        try Self.quit(terminal)
    }

    // MARK: Placeholders

    @Test("an empty field's placeholder is dimmed on a colour terminal and shown after an empty box; a typed value is plain")
    func placeholder() throws {
        let home = try ViewsFixture.privateHome("reach-placeholder")
        let terminal = try ViewsTerminal.shell(environment: ViewsTerminal.environment(home: home))
        defer { terminal.kill() }
        try terminal.recordOutput()
        try terminal.type(try LaunchInteractiveTests.command(["launch", "views", "--screen", "form"]))
        let empty = try terminal.waitFor("the form") { $0.contains("┌─ Form ") && $0.contains("q quit") }
        #expect(empty.contains("│ [2] Your name: [ ] type a name "), "\(empty)")
        #expect(String(decoding: try terminal.recorded(), as: UTF8.self).contains("\u{1B}[2;3;90m[2] Your name: [ ] type a name\u{1B}[0m"))
        try terminal.send("2")
        try terminal.waitFor("the prompt") { $0.contains("\nYour name:") }
        try terminal.send("Ada")
        try terminal.press("Enter")
        let filled = try terminal.waitFor("the value") { $0.contains("│ [2] Your name: [Ada] ") }
        #expect(!filled.contains("type a name"), "\(filled)")
        try terminal.send("q")
        #expect(try LaunchInteractiveTests.waitForExit(terminal) == 0)
    }
}
