import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// A bad widget never spoils the dashboard: raw writes to stderr stay off
/// the screen, and a crash loop ends in quarantine while the others update.
@Suite("Dashboard, robustness", .enabled(if: Tmux.path != nil, "needs tmux"))
struct DashboardRobustnessTests {
    static func config(_ world: DashboardWorld, _ text: String) throws -> String {
        let path = world.home + "/robust-dashboard.json"
        try TestSupport.write(Array(text.utf8), to: path)
        return path
    }

    static func start(_ world: DashboardWorld, _ more: [String], columns: Int = 100) throws -> Tmux {
        var environment = world.environment
        environment["TERM"] = "xterm"
        // Generous: crashes and restarts take child processes, on two busy cores.
        return try Tmux([TestSupport.widgetHost] + world.arguments + more, environment: environment,
                        settings: Tmux.Settings(columns: columns, rows: 40, attempts: 1200, pollInterval: 100_000))
    }

    @Test("a widget in process writing raw to stderr on every render: nothing reaches the screen, the log file has it")
    func rawStandardError() throws {
        let world = try DashboardWorld()
        let directory = try IsolationTestKit.hostileDirectory("dashboard-tty-stderr", defines: ["-DSTDERR_IN_RENDER"])
        let config = try Self.config(world, #"{"dashboard": {"cards": [{"widget": "org.example.hostile", "isolated": false}, "trips"]}}"#)
        let terminal = try Self.start(world, ["--plugin-dir", directory, "--config", config])
        defer { terminal.kill() }
        try terminal.waitFor("both cards") { $0.contains("Next: outbound flight IB3436") && $0.contains("1 ") }
        // Renders again (r on the hostile card), each writing its line: the screen stays whole.
        try terminal.send("r")
        try terminal.press("Tab")
        // The footer says it, as it says a logged warning; nowhere else on the screen is it drawn.
        let screen = try terminal.waitFor("the focus moved, the line in the footer") { $0.contains("▶ 2 ") && $0.contains("⚠ stderr: raw stderr") }
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { !$0.hasPrefix("⚠ stderr: ") && $0.contains("raw stderr") }, "raw stderr drawn over the screen:\n\(screen)")
        #expect(lines.allSatisfy { DisplayWidth.of(String($0)) <= 100 }, "\(screen)")
        try terminal.send("q")
        try terminal.waitFor("the program to exit") { _ in try terminal.exited() }
        let log = try String(contentsOfFile: LogFile.defaultPath(world.environment), encoding: .utf8)
        #expect(log.contains("[warning] stderr: raw stderr from the plugin"), "\(log)")
    }

    @Test("a crash loop: the card restarts with back-off, is quarantined after three stops, and Trips keeps updating")
    func crashLoopQuarantined() throws {
        let world = try DashboardWorld()
        let directory = try IsolationTestKit.hostileDirectory("dashboard-tty-quarantine", defines: ["-DCRASH_IN_RENDER"])
        let config = try Self.config(world, #"{"dashboard": {"cards": ["org.example.hostile", "trips"]}}"#)
        let terminal = try Self.start(world, ["--plugin-dir", directory, "--config", config])
        defer { terminal.kill() }
        // On screen for the 1 s of its back-off alone: a slow capture may see the next one.
        try terminal.waitFor("the first crash") { $0.contains("crashed, restarting in ") && $0.contains("Next: outbound flight IB3436") }
        let quarantined = try terminal.waitFor("the quarantine") { $0.contains("quarantined (crash loop)") }
        #expect(!quarantined.contains("restarting in"), "\(quarantined)")
        let rome = TripsBookings.booking("B-2001", purchased: "2026-05-02T18:30:00+02:00",
                                         outbound: TripsBookings.flight("AZ61", from: "MAD", departs: "2026-06-09T14:00:00+02:00",
                                                                        to: "FCO", arrives: "2026-06-09T16:30:00+02:00"))
        try world.trips.put(TripsBookings.document([rome]))
        try terminal.waitFor("Trips updating beside the quarantined card") {
            $0.contains("Next: outbound flight AZ61") && $0.contains("quarantined (crash loop)")
        }
        try terminal.send("q")
        try terminal.waitFor("the program to exit") { _ in try terminal.exited() }
        let record = try String(contentsOfFile: world.home + "/state/widget-host/quarantine.json", encoding: .utf8)
        #expect(record.contains("org.example.hostile"), "\(record)")
    }

    @Test("every widget isolated: Ticker, rendering off the dashboard's thread, gets Crypto's price through its contract")
    func isolatedContract() throws {
        let world = try DashboardWorld()
        let terminal = try Self.start(world, ["--isolate"], columns: 120)
        defer { terminal.kill() }
        // Crypto's card and Ticker's (which asks Crypto's price contract) both show the price.
        let screen = try terminal.waitFor("Ticker's price from Crypto, and Crypto's own card") { screen in
            screen.components(separatedBy: "BTC $43,210.55").count > 2 && !screen.contains("Fetching the price")
        }
        #expect(screen.contains("4 Ticker"), "\(screen)")
        // And Trips, isolated too, its next step by the clock --now sets (OffThreadInstanceTests has the wake-ups it once lost).
        try terminal.waitFor("Trips' next step") { $0.contains("Next: outbound flight IB3436") && $0.contains("in 22 h 0") }
        try terminal.send("q")
        try terminal.waitFor("the program to exit") { _ in try terminal.exited() }
    }
}
