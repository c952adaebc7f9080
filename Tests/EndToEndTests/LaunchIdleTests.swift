import Foundation
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// `widget-host launch` on a terminal with nothing happening: it sleeps
/// (no tick wakes it to render a screen that has not changed), yet still
/// redraws for what does happen without a key, such as a resize.
@Suite("Launch, idle", .enabled(if: Tmux.path != nil, "needs tmux"))
struct LaunchIdleTests {
    /// The voluntary context switches of a process's main thread so far:
    /// each is the thread going to sleep, so each wake-up adds one.
    static func mainThreadSwitches(_ pid: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/task/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") })
        return try #require(Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)))
    }

    @Test("a widget's screen left open wakes the host for nothing")
    func sleepsWhileNothingHappens() throws {
        let terminal = try ViewsTerminal.start([TestSupport.widgetHost, "launch", "views", "--plugin-dir", try ViewsFixture.directory()],
                                               environment: ViewsTerminal.environment(home: try ViewsFixture.privateHome("launch-idle")))
        defer { terminal.kill() }
        try terminal.waitFor("the widget's screen") { $0.contains("q quit") }
        let pid = try terminal.format("#{pane_pid}")
        // Past the first frame's settling (the renderer's first wake-ups).
        usleep(500_000)
        let before = try Self.mainThreadSwitches(pid)
        usleep(3_200_000)
        let after = try Self.mainThreadSwitches(pid)
        // A tick of a second would have woken it three times.
        #expect(after - before <= 1, "the main thread woke \(after - before) times in 3.2 s with nothing happening")
        // Still alive and listening: a key is answered at once.
        try terminal.send("q")
        try terminal.waitFor("the program to exit") { _ in try terminal.exited() }
    }

    @Test("a resize redraws the screen for the new size with no key pressed")
    func redrawsOnResize() throws {
        let terminal = try ViewsTerminal.start([TestSupport.widgetHost, "launch", "views", "--screen", "tall", "--plugin-dir",
                                                try ViewsFixture.directory()],
                                               environment: ViewsTerminal.environment(home: try ViewsFixture.privateHome("launch-resize")))
        defer { terminal.kill() }
        try terminal.waitFor("the tall screen") { $0.contains("q quit") }
        try terminal.resize(columns: 80, rows: 15)
        // The old frame, 30 rows, would lose its top (the title) or its bottom
        // (the keys) in 15: both show when it was drawn again for 15 rows.
        let short = try terminal.waitFor("the screen redrawn for 15 rows") { $0.contains("Tall") && $0.contains("q quit") }
        #expect(short.contains("Line 1 of 60"), "\(short)")
        try terminal.send("q")
        try terminal.waitFor("the program to exit") { _ in try terminal.exited() }
    }
}
