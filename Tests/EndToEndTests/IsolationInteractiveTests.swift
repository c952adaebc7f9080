import Foundation
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

private typealias Kit = IsolationTestKit

/// The interactive host on a real terminal (tmux): a stopped widget and
/// the `r` key, and plugins that appear or change while it runs.
@Suite("Isolation: on a terminal", .enabled(if: Tmux.path != nil, "needs tmux"))
struct IsolationInteractiveTests {
    /// Moves a freshly built file into place in one rename, as an install does.
    private func install(_ source: String, flags: [String] = [], as path: String) throws {
        try TestSupport.compileC(source: source, flags: flags, output: path + ".part")
        guard rename(path + ".part", path) == 0 else { throw TestSupport.Failure("rename \(path)") }
    }

    /// The number the home screen gives `name` (widgets are listed by name,
    /// among the shipped ones the host also finds).
    static func number(of name: String, in screen: String) throws -> String {
        for line in screen.split(separator: "\n") {
            guard let open = line.firstIndex(of: "["), let close = line.firstIndex(of: "]"), open < close,
                  line[line.index(after: close)...].hasPrefix(" " + name) else { continue }
            return String(line[line.index(after: open)..<close])
        }
        throw TestSupport.Failure("no [N] \(name) on the screen:\n\(screen)")
    }

    @Test("the home screen with --isolate: a crash is shown, r restarts it, and the host serves another widget")
    func crashAndRestart() throws {
        let directory = try Kit.hostileDirectory("interactive-crash-once", defines: ["-DCRASH_ONCE"])
        let home = try Kit.Home()
        let terminal = try Tmux([TestSupport.widgetHost, "--list", "--isolate", "--plugin-dir", directory], environment: home.environment,
                                settings: Kit.terminal)
        defer { terminal.kill() }
        let first = try terminal.waitFor("the home screen") { $0.contains("] Hostile") }
        try terminal.send(try Self.number(of: "Hostile", in: first))
        try terminal.waitFor("the stop") { $0.contains("widget hostile stopped: SIGSEGV during render") }
        try terminal.send("r")
        try terminal.waitFor("the restarted widget") { $0.contains("Hostile: calm, version 1") }
        try terminal.send("b")
        let again = try terminal.waitFor("the home screen again") { $0.contains("] Hello") }
        try terminal.send(try Self.number(of: "Hello", in: again))
        try terminal.waitFor("hello") { $0.contains("Hello, world! Waves: 0") }
    }

    @Test("a plugin dropped into a plugin directory appears on the home screen", arguments: [false, true])
    func dropIn(_ isolated: Bool) throws {
        let directory = try TestSupport.makeTemporaryDirectory("interactive-drop-in")
        try TestSupport.copy(try Kit.hello.get(), to: directory + "/hello.so")
        let home = try Kit.Home()
        let terminal = try Tmux([TestSupport.widgetHost, "--list", "--plugin-dir", directory] + (isolated ? ["--isolate"] : []),
                                environment: home.environment, settings: Kit.terminal)
        defer { terminal.kill() }
        let before = try terminal.waitFor("the home screen") { $0.contains("] Hello") }
        #expect(!before.contains("No-op"))
        try install(TestSupport.fixtureDirectory + "/noop.c", as: directory + "/noop.so")
        let after = try terminal.waitFor("the new plugin") { $0.contains("No-op") && $0.contains("Does nothing, fast.") }
        try terminal.send(try Self.number(of: "No-op", in: after))
        try terminal.waitFor("the new widget") { $0.contains("─ Main ─") && $0.contains("│ ok ") }
    }

    @Test("isolated, a plugin whose file changes restarts with the new version and the screen re-renders")
    func reloadChanged() throws {
        let directory = try TestSupport.makeTemporaryDirectory("interactive-reload")
        let source = TestSupport.fixtureDirectory + "/hostile.c"
        try install(source, flags: ["-pthread", "-DVERSION=\"1\""], as: directory + "/hostile.so")
        let home = try Kit.Home()
        let terminal = try Tmux([TestSupport.widgetHost, "launch", "hostile", "--isolate", "--plugin-dir", directory],
                                environment: home.environment, settings: Kit.terminal)
        defer { terminal.kill() }
        try terminal.waitFor("version 1") { $0.contains("Hostile: calm, version 1") }
        try install(source, flags: ["-pthread", "-DVERSION=\"2\""], as: directory + "/hostile.so")
        try terminal.waitFor("version 2, with no key pressed") { $0.contains("Hostile: calm, version 2") }
    }
}
