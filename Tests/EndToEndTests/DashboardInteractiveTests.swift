import Foundation
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The dashboard on a real terminal (tmux): live cards, keys and a click
/// doing what the footer says, reflow on resize, redraws with no key, and
/// a crashing widget that restarts while the others carry on.
@Suite("Dashboard, interactive", .enabled(if: Tmux.path != nil, "needs tmux"))
struct DashboardInteractiveTests {
    static func start(_ world: DashboardWorld, _ more: [String] = [], columns: Int = 120, rows: Int = 40) throws -> Tmux {
        var environment = world.environment
        environment["TERM"] = "xterm"
        return try Tmux([TestSupport.widgetHost] + world.arguments + more, environment: environment,
                        settings: Tmux.Settings(columns: columns, rows: rows, attempts: 300, pollInterval: 100_000))
    }

    /// The grid's lines: between the header line and the footer, each a
    /// card's line (from its box's left edge) or blank.
    static func gridLines(_ screen: String, width: Int) -> [Substring] {
        let footer = Set(DisplayWidth.wrap(DashboardLoop.footer, columns: width))
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.dropFirst().filter { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            return !text.isEmpty && !footer.contains(text)
        }
    }

    /// Every grid line is whole boxes side by side: it starts at a box's
    /// left edge and ends at a right one, within the width.
    static func expectNothingPastTheEdge(_ screen: String, width: Int, _ sourceLocation: SourceLocation = #_sourceLocation) {
        for line in gridLines(screen, width: width) {
            let trimmed = String(line).trimmingCharacters(in: .whitespaces)
            #expect(DisplayWidth.of(String(line)) <= width, "\(line)", sourceLocation: sourceLocation)
            #expect(["┌", "│", "└"].contains(String(trimmed.prefix(1))) && ["┐", "│", "┘"].contains(String(trimmed.suffix(1))),
                    "a line not made of whole boxes at \(width) columns: '\(line)'\n\(screen)", sourceLocation: sourceLocation)
        }
    }

    @Test("widget-host alone: four live cards at 120×40; Tab, digits, Enter, b, Esc and a click; reflow at 50 and 30; a store write redraws Trips")
    func dashboard() throws {
        let world = try DashboardWorld()
        let terminal = try Self.start(world)
        defer { terminal.kill() }
        let first = try terminal.waitFor("the four cards with live content") { screen in
            ["1 Checkout", "2 Crypto", "3 My Trips", "4 Ticker", "$62.50", "BTC $43,210.55", "Next: outbound flight IB3436"]
                .allSatisfy(screen.contains)
        }
        #expect(first.contains(DashboardLoop.footer), "\(first)")
        Self.expectNothingPastTheEdge(first, width: 120)

        // Tab moves the focus; a digit jumps.
        try terminal.press("Tab")
        try terminal.waitFor("▶ 2 Crypto")
        try terminal.send("3")
        let trips = try terminal.waitFor("▶ 3 My Trips")
        #expect(!trips.contains("▶ 2 Crypto"))
        // Enter opens Trips full screen (the launch view); b comes back, the focus kept.
        try terminal.press("Enter")
        try terminal.waitFor("Trips full screen") { $0.contains("Open booking B-1042") && $0.contains("b back") }
        try terminal.send("b")
        try terminal.waitFor("the dashboard, Trips focused") { $0.contains("▶ 3 My Trips") && $0.contains("2 Crypto") }
        // A click on Checkout's card (line 3, column 5) opens it; Escape comes back.
        try terminal.send("\u{1B}[<0;5;3M")
        try terminal.waitFor("Checkout full screen") { $0.contains("PAYMENT SCHEDULE") && $0.contains("b back") }
        try terminal.press("Escape")
        try terminal.waitFor("the dashboard, Checkout focused") { $0.contains("▶ 1 Checkout") && $0.contains("4 Ticker") }

        // A new booking written by the app: the Trips card changes with no key pressed.
        let rome = TripsBookings.booking("B-2001", purchased: "2026-05-02T18:30:00+02:00",
                                         outbound: TripsBookings.flight("AZ61", from: "MAD", departs: "2026-06-09T14:00:00+02:00",
                                                                        to: "FCO", arrives: "2026-06-09T16:30:00+02:00"))
        try world.trips.put(TripsBookings.document([rome]))
        try terminal.waitFor("the Trips card showing the new booking") { $0.contains("Next: outbound flight AZ61") }

        // Narrower: one column of cards, nothing past the edge.
        for width in [50, 30] {
            try terminal.resize(columns: width, rows: 40)
            let narrow = try terminal.waitFor("the grid reflowed to \(width) columns") { screen in
                screen.contains("1 Checkout") && screen.contains("2 Crypto") && !screen.contains("2 Crypto ──────────────────────────────────────")
                    && Self.gridLines(screen, width: width).allSatisfy { DisplayWidth.of(String($0).trimmingCharacters(in: .whitespaces)) == width }
            }
            Self.expectNothingPastTheEdge(narrow, width: width)
        }
        try terminal.send("q")
        try terminal.waitFor("the program to exit") { _ in try terminal.exited() }
    }

    @Test("below 24 columns: the 'too narrow' message once and no card box, the keys still working; wider again, the cards are back")
    func tooNarrow() throws {
        let world = try DashboardWorld()
        let terminal = try Self.start(world, columns: 20, rows: 30)
        defer { terminal.kill() }
        let narrow = try terminal.waitFor("the message") { $0.contains("least 24.") }
        let lines = narrow.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines == ["Too narrow: 20", "columns; needs at", "least 24."], "\(narrow)")
        try terminal.send("2")
        try terminal.resize(columns: 50, rows: 30)
        let wide = try terminal.waitFor("the cards, Crypto focused") { $0.contains("▶ 2 Crypto") && $0.contains("BTC $43,210.55") }
        #expect(!wide.contains("Too narrow"), "\(wide)")
        Self.expectNothingPastTheEdge(wide, width: 50)
        try terminal.send("q")
        try terminal.waitFor("the program to exit") { _ in try terminal.exited() }
    }

    @Test("back from full screen, a card whose widget changed there (a new amount, which asks for no render) shows the change at once")
    func changedFullScreen() throws {
        let world = try DashboardWorld()
        let terminal = try Self.start(world)
        defer { terminal.kill() }
        try terminal.waitFor("Checkout's card") { $0.contains("▶ 1 Checkout") && $0.contains("Order total: $250.00") }
        try terminal.press("Enter")
        try terminal.waitFor("Checkout full screen") { $0.contains("PAYMENT SCHEDULE") && $0.contains("b back") }
        try terminal.send("1")
        try terminal.send("400.00")
        try terminal.press("Enter")
        try terminal.waitFor("the new amount full screen") { $0.contains("Order total: $400.00") && $0.contains("$100.00") }
        try terminal.send("b")
        let back = try terminal.waitFor("the card showing the new amount") { $0.contains("▶ 1 Checkout") && $0.contains("Order total: $400.00") }
        #expect(!back.contains("$62.50") && !back.contains("stale"), "\(back)")
        try terminal.send("q")
        try terminal.waitFor("the program to exit") { _ in try terminal.exited() }
    }

    @Test("narrow with the last card focused (scrolled to it), then wide again: every card shows, not only the focused one's row")
    func wideAfterScrolled() throws {
        let world = try DashboardWorld()
        let terminal = try Self.start(world)
        defer { terminal.kill() }
        let all = ["1 Checkout", "2 Crypto", "3 My Trips", "4 Ticker"]
        try terminal.waitFor("the four cards") { screen in all.allSatisfy(screen.contains) && screen.contains("BTC $43,210.55") }
        try terminal.send("4")
        try terminal.waitFor("▶ 4 Ticker")
        for (narrow, wide) in [(30, 120), (90, 200)] {
            try terminal.resize(columns: 120, rows: 40)
            try terminal.resize(columns: narrow, rows: 20)
            try terminal.waitFor("Ticker alone at \(narrow) columns") { $0.contains("▶ 4 Ticker") && !$0.contains("1 Checkout") }
            try terminal.resize(columns: wide, rows: 40)
            let screen = try terminal.waitFor("every card at \(wide) columns") { screen in
                all.allSatisfy(screen.contains) && screen.contains("Order total: $250.00") && screen.contains("▶ 4 Ticker")
            }
            Self.expectNothingPastTheEdge(screen, width: wide)
        }
        try terminal.send("q")
        try terminal.waitFor("the program to exit") { _ in try terminal.exited() }
    }

    @Test("a crashing widget's card says it restarts, and restarts, while Trips still updates")
    func crashingWidget() throws {
        let world = try DashboardWorld()
        let directory = try IsolationTestKit.hostileDirectory("dashboard-tty-crash", defines: ["-DCRASH_IN_RENDER"])
        let terminal = try Self.start(world, ["--plugin-dir", directory])
        defer { terminal.kill() }
        // Each notice is on screen for its back-off alone (1 s, then 2 s):
        // a slow capture may miss one, so any count will do, then a longer one.
        try terminal.waitFor("the crashed card") { $0.contains("crashed, restarting in ") && $0.contains("Next: outbound flight IB3436") }
        try terminal.waitFor("the second crash, after a restart") {
            $0.contains("crashed, restarting in ") && !$0.contains("crashed, restarting in 1 s")
        }
        let rome = TripsBookings.booking("B-2001", purchased: "2026-05-02T18:30:00+02:00",
                                         outbound: TripsBookings.flight("AZ61", from: "MAD", departs: "2026-06-09T14:00:00+02:00",
                                                                        to: "FCO", arrives: "2026-06-09T16:30:00+02:00"))
        try world.trips.put(TripsBookings.document([rome]))
        try terminal.waitFor("Trips updating beside the crashing card") { $0.contains("Next: outbound flight AZ61") && $0.contains("crashed") }
        try terminal.send("q")
        try terminal.waitFor("the program to exit") { _ in try terminal.exited() }
    }

    @Test("a widget hanging in render: its card says it is not responding while keys move the focus and Trips updates")
    func hangingWidget() throws {
        let world = try DashboardWorld()
        let directory = try IsolationTestKit.hostileDirectory("dashboard-tty-hang", defines: ["-DHANG_IN_RENDER"])
        let terminal = try Self.start(world, ["--plugin-dir", directory])
        defer { terminal.kill() }
        // Drawn while the render is still under way: the dashboard did not wait for it.
        try terminal.waitFor("the hanging card") { $0.contains("not responding for ") && $0.contains("Next: outbound flight IB3436") }
        let rome = TripsBookings.booking("B-2001", purchased: "2026-05-02T18:30:00+02:00",
                                         outbound: TripsBookings.flight("AZ61", from: "MAD", departs: "2026-06-09T14:00:00+02:00",
                                                                        to: "FCO", arrives: "2026-06-09T16:30:00+02:00"))
        try world.trips.put(TripsBookings.document([rome]))
        try terminal.send("3")
        // The same screen shows both while the widget hangs (it is stopped at its 2 s deadline, then tried again).
        let screen = try terminal.waitFor("Trips updated and the focus moved beside a card not responding") {
            $0.contains("Next: outbound flight AZ61") && $0.contains("▶ 3 ") && $0.contains("not responding")
        }
        Self.expectNothingPastTheEdge(screen, width: 120)
        try terminal.send("q")
        try terminal.waitFor("the program to exit") { _ in try terminal.exited() }
    }

    @Test("a widget logging a warning on every render: the line goes to the log file and the footer, never over the grid")
    func loggingWidget() throws {
        let world = try DashboardWorld()
        let directory = try IsolationTestKit.hostileDirectory("dashboard-tty-log", defines: ["-DLOG_IN_RENDER"])
        let terminal = try Self.start(world, ["--plugin-dir", directory], columns: 100)
        defer { terminal.kill() }
        let screen = try terminal.waitFor("the warning in the footer") { $0.contains("⚠ ") && $0.contains("Next: outbound flight IB3436") }
        try terminal.press("Tab")
        let after = try terminal.waitFor("▶ 2 ")
        for shown in [screen, after] {
            let lines = shown.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.allSatisfy { DisplayWidth.of(String($0)) <= 100 }, "\(shown)")
            #expect(!lines.contains { $0.contains("widget-host: [warning]") }, "a log line drawn over the screen:\n\(shown)")
            // The grid alone, without the footer's warning: whole card frames.
            let footerStart = lines.firstIndex { $0.hasPrefix("⚠ ") } ?? lines.count
            Self.expectNothingPastTheEdge(lines[..<footerStart].joined(separator: "\n"), width: 100)
        }
        try terminal.send("q")
        try terminal.waitFor("the program to exit") { _ in try terminal.exited() }
        let log = try String(contentsOfFile: LogFile.defaultPath(world.environment), encoding: .utf8)
        #expect(log.contains("rendering, and saying so on stderr"), "\(log)")
    }

    @Test("an edit of the configuration applies its layout at once; a broken one keeps the last good layout and says why, with line and column")
    func liveReload() throws {
        let world = try DashboardWorld()
        let directory = world.home + "/dashboard-config"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let config = directory + "/config.json"
        func edit(_ text: String) throws {
            try TestSupport.write(Array(text.utf8), to: config + ".tmp")
            guard rename(config + ".tmp", config) == 0 else { throw TestSupport.Failure("rename") }
        }
        try edit(#"{"dashboard": {"cards": ["trips", "checkout"]}}"#)
        let terminal = try Self.start(world, ["--config", config])
        defer { terminal.kill() }
        try terminal.waitFor("the configured layout") { $0.contains("1 My Trips") && $0.contains("2 Checkout") && !$0.contains("Crypto") }
        try edit("{\"dashboard\": {\"cards\": [\n  {\"widget\": \"trips\", \"sise\": \"small\"}]}}")
        // The reason is wrapped over the footer's lines: read them as one.
        let broken = try terminal.waitFor("the broken edit's reason") { $0.replacingOccurrences(of: "\n", with: " ").contains("keeping the last good layout") }
        #expect(broken.contains("line 2, column 23") && broken.contains("did you mean 'size'?"), "\(broken)")
        #expect(broken.contains("1 My Trips") && broken.contains("2 Checkout"), "\(broken)")
        try edit(#"{"dashboard": {"cards": ["crypto", {"widget": "trips", "size": "small"}]}}"#)
        try terminal.waitFor("the new layout") { $0.contains("1 Crypto") && $0.contains("2 My Trips") && !$0.contains("Checkout") }
        try terminal.send("q")
        try terminal.waitFor("the program to exit") { _ in try terminal.exited() }
    }
}

/// The footer's `r` and `q`, which the test above does not press for what they do.
@Suite("Dashboard, refresh key", .enabled(if: Tmux.path != nil, "needs tmux"))
struct DashboardRefreshKeyTests {
    @Test("r asks the focused card's widget for fresh data (Crypto fetches its price again, nothing else is due), and q quits")
    func refreshKey() throws {
        let world = try DashboardWorld()
        let terminal = try DashboardInteractiveTests.start(world)
        defer { terminal.kill() }
        try terminal.waitFor("Crypto's price") { $0.contains("BTC $43,210.55") && $0.contains("2 Crypto") }
        let before = world.market.requests(CryptoMarket.pricePath)
        #expect(before >= 1)
        // Crypto refreshes every hour here: only the key can ask again.
        try terminal.send("2")
        try terminal.waitFor("the focus on Crypto") { $0.contains("▶ 2 Crypto") }
        try terminal.send("r")
        let deadline = Clock.now + 60
        while world.market.requests(CryptoMarket.pricePath) == before && Clock.now < deadline { usleep(50_000) }
        #expect(world.market.requests(CryptoMarket.pricePath) > before, "r did not fetch the focused card's price again")
        try terminal.send("q")
        try terminal.waitFor("the program to exit") { _ in try terminal.exited() }
    }
}
