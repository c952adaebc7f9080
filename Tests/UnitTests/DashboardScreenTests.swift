import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The dashboard's screen without a terminal: what it writes at a given
/// size, and where the focus goes when a reload rebuilds the cards. The
/// cards name widgets that are not installed, so nothing is loaded.
@Suite("Dashboard screen")
struct DashboardScreenTests {
    /// A dashboard of cards for `widgets`, in a session with no plugins.
    static func dashboard(_ widgets: [String]) throws -> Dashboard {
        let runtime = HostRuntime(storeDirectory: try TestSupport.makeTemporaryDirectory("dashboard-screen"))
        return Dashboard(session: WidgetSession(runtime: runtime, plugins: []), spec: DashboardSpec(cards: widgets.map { .init(widget: $0) }),
                         cache: nil, clock: runtime.resolve(HostClock.self))
    }

    /// What the screen writes, the cursor moves and clears taken out.
    final class Output {
        var text = ""
        var shown: String { text.replacing(/\u{1B}\[[0-9;?]*[A-Za-z]/, with: "\n") }
    }

    static func screen(_ dashboard: Dashboard, columns: Int, output: Output) -> DashboardScreen {
        var screen = DashboardScreen(dashboard: dashboard, environment: ["COLUMNS": "\(columns)", "LINES": "24", "LANG": "C.UTF-8"], columns: nil,
                                     footer: DashboardLoop.footer)
        screen.write = { output.text += $0 }
        return screen
    }

    static let narrow = ["Too narrow: 20", "columns; needs at", "least 24."]

    @Test("below 24 columns the grid, printed or on screen, is launch's 'too narrow' message once, wrapped at words, with no card box")
    func tooNarrow() throws {
        let dashboard = try Self.dashboard(["alpha", "beta", "gamma"])
        #expect(TerminalRenderer(width: 20, color: false).layout(.spacer, title: "").text == Self.narrow.map { $0 + "\n" }.joined())
        let frame = DashboardFrame(dashboard: dashboard, width: 20, columns: nil, color: false)
        #expect(frame.text(of: dashboard, focus: nil, now: 0) == Self.narrow)
        let card = CardPainter(color: false).lines(dashboard.cards[0].content, width: 20, height: 7, number: 1, focused: false, now: 0)
        #expect(!card.joined().contains("│"), "\(card)")

        let output = Output()
        var screen = Self.screen(dashboard, columns: 20, output: output)
        screen.renderVisible()
        screen.drawAll()
        let lines = output.shown.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines == Self.narrow, "\(output.text)")
        // The keys still work; nothing is drawn over the message, and a click opens nothing.
        output.text = ""
        #expect(screen.handle(.tab) == .stay && screen.focus == 1)
        #expect(screen.handle(.click(column: 2, line: 2)) == .stay)
        #expect(screen.handle(.enter) == .open(1))
        #expect(output.text.isEmpty, "\(output.text)")
        // What the footer would say (a reload, a failed open) is shown below the message, not dropped.
        screen.message = "configuration reloaded"
        screen.drawAll()
        #expect(output.shown.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) } == Self.narrow + ["configuration", "reloaded"],
                "\(output.text)")

        // At the minimum, the cards are boxes again.
        let wide = DashboardFrame(dashboard: dashboard, width: 24, columns: nil, color: false).text(of: dashboard, focus: 0, now: 0)
        #expect(wide.count == 3 * CardGrid.cellHeight && wide[0].hasPrefix("┌─ ▶ 1 alpha"), "\(wide)")
    }

    @Test("a reload keeps the focus on the same card, by its widget, wherever it moved; a card gone leaves it at its place")
    func focusAcrossReload() throws {
        let output = Output()
        var before = Self.screen(try Self.dashboard(["alpha", "beta", "gamma", "delta"]), columns: 120, output: output)
        #expect(before.handle(.byte(UInt8(ascii: "2"))) == .stay && before.focus == 1)
        // The same layout rebuilt, as saving a card's settings does.
        var after = Self.screen(try Self.dashboard(["alpha", "beta", "gamma", "delta"]), columns: 120, output: output)
        after.keepFocus(of: before)
        #expect(after.focus == 1)
        output.text = ""
        after.renderVisible()
        after.drawAll()
        #expect(output.shown.contains("▶ 2 beta") && !output.shown.contains("▶ 1 alpha"), "\(output.shown)")
        #expect(after.handle(.enter) == .open(1))
        // Every card gone: no card to scroll to, as on a resize of a dashboard with none.
        var empty = Self.screen(try Self.dashboard([]), columns: 120, output: output)
        empty.keepFocus(of: after)
        #expect(empty.focus == 0)

        let old = ["alpha", "beta", "gamma", "beta"]
        #expect(DashboardScreen.sameCard(1, of: old, in: ["gamma", "beta", "alpha"]) == 1, "moved")
        #expect(DashboardScreen.sameCard(3, of: old, in: ["beta", "alpha", "beta"]) == 2, "the second card of the same widget")
        #expect(DashboardScreen.sameCard(3, of: old, in: ["alpha", "beta"]) == 1, "fewer cards of that widget: its last")
        #expect(DashboardScreen.sameCard(2, of: old, in: ["alpha", "beta", "delta", "beta"]) == 2, "gone: the same place")
        #expect(DashboardScreen.sameCard(3, of: old, in: ["alpha", "gamma"]) == 1, "gone past the end: the last card")
        #expect(DashboardScreen.sameCard(0, of: old, in: []) == 0)
        #expect(DashboardScreen.sameCard(0, of: [], in: ["alpha"]) == 0)
    }

    /// A widget whose amount an action sets, as Checkout's does: it asks for
    /// no render, as the full-screen view draws after every key anyway.
    private final class Amount: WidgetInstance, @unchecked Sendable {
        var amount = "120.00"
        func render(screen: String, params: JSONValue) throws(WidgetCallError) -> [UInt8] {
            Array(#"{"view": 1, "root": {"kind": "text", "text": "Order total: \#(amount)"}}"#.utf8)
        }
        func handle(action: String, value: String?) throws(WidgetCallError) { amount = value ?? amount }
        func query(_ id: String) throws(WidgetCallError) -> [UInt8] { Array("{}".utf8) }
        func pump() -> Int { 0 }
        func onWake(_ handler: @escaping @Sendable () -> Void) {}
    }

    @Test("back from full screen, a card whose widget an action changed there (asking for no render) shows the change at once")
    func changedFullScreen() throws {
        let widget = Amount()
        let manifest = try Manifest(json: ManifestTests.minimal(["screens": [["id": "main", "actions": ["update"]]]]))
        let runtime = HostRuntime(storeDirectory: try TestSupport.makeTemporaryDirectory("dashboard-screen"))
        let session = WidgetSession(runtime: runtime, plugins: [PluginCandidate(path: "/nowhere/widget.so", manifest: manifest, status: .ok)]) { _, _ in
            widget
        }
        let dashboard = Dashboard(session: session, spec: DashboardSpec(cards: [.init(widget: manifest.id.value)]), cache: nil,
                                  clock: runtime.resolve(HostClock.self))
        let output = Output()
        var screen = Self.screen(dashboard, columns: 120, output: output)
        screen.renderVisible()
        screen.drawAll()
        #expect(output.shown.contains("Order total: 120.00"), "\(output.shown)")
        // What the full-screen view does with a typed amount, as DashboardLoop.open opens it.
        try session.open(NavigationTarget(plugin: manifest.id.value, screen: nil))
        try session.perform(.action("update", value: "400.00"))
        output.text = ""
        screen.shownAgain()
        screen.update(woken: dashboard.wokenCards(), due: dashboard.dueCards())
        #expect(output.shown.contains("Order total: 400.00") && !output.shown.contains("120.00"), "\(output.shown)")
    }

    @Test("after a resize every card that fits shows, the focused one too: a scroll kept from a narrow, taller layout hides none of a wide one")
    func scrollAcrossResize() throws {
        let output = Output()
        var screen = Self.screen(try Self.dashboard(["alpha", "beta", "gamma", "delta"]), columns: 120, output: output)
        #expect(screen.handle(.byte(UInt8(ascii: "4"))) == .stay)
        for (narrow, wide) in [(30, 120), (90, 200)] {
            output.text = ""
            screen.environment["COLUMNS"] = "\(narrow)"
            screen.environment["LINES"] = "20"
            screen.update(woken: [], due: [])
            // One card a row: scrolled down to the focused last one.
            #expect(output.shown.contains("▶ 4 delta") && !output.shown.contains("1 alpha"), "\(narrow) columns: \(output.shown)")
            output.text = ""
            screen.environment["COLUMNS"] = "\(wide)"
            screen.environment["LINES"] = "40"
            screen.update(woken: [], due: [])
            #expect(["1 alpha", "2 beta", "3 gamma", "▶ 4 delta"].allSatisfy(output.shown.contains), "\(wide) columns: \(output.shown)")
        }
    }
}
