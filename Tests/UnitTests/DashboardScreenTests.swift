import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The dashboard's screen without a terminal: what it writes at a given
/// size. The cards name widgets that are not installed, so nothing is loaded.
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

        // At the minimum, the cards are boxes again.
        let wide = DashboardFrame(dashboard: dashboard, width: 24, columns: nil, color: false).text(of: dashboard, focus: 0, now: 0)
        #expect(wide.count == 3 * CardGrid.cellHeight && wide[0].hasPrefix("┌─ ▶ 1 alpha"), "\(wide)")
    }
}
