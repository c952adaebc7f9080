import Foundation
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// `widget-host launch` and the home screen on a real pseudo-terminal (tmux):
/// numbered actions, keys, a text field, redraws the widget asks for, and a
/// terminal given back as it was found, after q, Ctrl-C, or a crash.
@Suite("Launch, interactive", .enabled(if: Tmux.path != nil, "needs tmux"))
struct LaunchInteractiveTests {
    /// The end of the keys line, whatever the number of actions.
    static let keys = "b back · r refresh · q quit"

    /// A shell in tmux, in a private home, ready to run widget-host.
    static func shell(_ extra: [String: String] = [:]) throws -> (Tmux, [String: String]) {
        let home = try ViewsFixture.privateHome("views-tty")
        let terminal = try ViewsTerminal.shell(environment: ViewsTerminal.environment(extra, home: home))
        return (terminal, home)
    }

    /// The shell command that runs widget-host with `arguments` and the
    /// fixtures, then prints its exit status.
    static func command(_ arguments: [String]) throws -> String {
        let words = [TestSupport.widgetHost] + arguments + ["--plugin-dir", try ViewsFixture.directory()]
        return words.map(Tmux.quote).joined(separator: " ") + "; echo \"EXIT=$?\""
    }

    /// widget-host run directly in the pane (no shell).
    static func direct(_ arguments: [String], extra: [String: String] = [:], home: [String: String]? = nil) throws -> Tmux {
        let home = try home ?? ViewsFixture.privateHome("views-tty")
        return try ViewsTerminal.start([TestSupport.widgetHost] + arguments + ["--plugin-dir", try ViewsFixture.directory()],
                                       environment: ViewsTerminal.environment(extra, home: home))
    }

    /// The exit status the shell printed, once it has and its prompt is back.
    @discardableResult
    static func waitForExit(_ terminal: Tmux) throws -> Int {
        let prompt = ViewsTerminal.prompt.trimmingCharacters(in: .whitespaces)
        let screen = try terminal.waitFor("the program to exit and the shell to print its status") { screen in
            let lines = screen.split(separator: "\n")
            guard let exit = lines.lastIndex(where: { $0.hasPrefix("EXIT=") }) else { return false }
            return lines[(exit + 1)...].contains { $0.hasPrefix(prompt) }
        }
        let line = try #require(screen.split(separator: "\n").last { $0.hasPrefix("EXIT=") })
        return try #require(Int(line.dropFirst(5)), "\(screen)")
    }

    /// The terminal is back as the shell had it: main screen, echo and canonical input.
    static func expectRestored(_ terminal: Tmux, _ sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try !terminal.inAlternateScreen, "still in the alternate screen", sourceLocation: sourceLocation)
        let flags = try terminal.terminalFlags()
        #expect(flags == ["echo", "icanon"], "stty -a reports \(flags)", sourceLocation: sourceLocation)
        #expect(try terminal.capture().contains(ViewsTerminal.prompt.trimmingCharacters(in: .whitespaces)), sourceLocation: sourceLocation)
    }

    // MARK: Keys

    @Test("numbers run actions and the screen redraws; a field takes typed text; a link crosses to another plugin; b, r and q work")
    func keys() throws {
        let (terminal, _) = try Self.shell()
        defer { terminal.kill() }
        // Before: the shell's terminal, as a baseline.
        #expect(try terminal.terminalFlags() == ["echo", "icanon"])
        try terminal.type(try Self.command(["launch", "views", "--screen", "form"]))
        let first = try terminal.waitFor("the form") { $0.contains("Waves: 0") && $0.contains(Self.keys) }
        #expect(first.contains("1-5 choose · b back"), "the keys line counts the form's five actions:\n\(first)")
        #expect(try terminal.inAlternateScreen)
        for (number, label) in ["Wave", "Your name: [ ] type a name", "Alpha", "Beta", "Hello's about page →"].enumerated() {
            #expect(first.contains("│ [\(number + 1)] \(label)"), "\(first)")
        }

        // A button.
        try terminal.send("1")
        try terminal.waitFor("the wave") { $0.contains("Waves: 1") }
        try terminal.send("1")
        try terminal.waitFor("the second wave") { $0.contains("Waves: 2") }

        // A text field: its number, some typing (shown as typed), Enter.
        func promptLine(_ screen: String) -> String? {
            screen.split(separator: "\n").last { $0.hasPrefix("Your name:") }.map(String.init)
        }
        try terminal.send("2")
        try terminal.waitFor("the field's prompt") { promptLine($0) != nil }
        try terminal.send("Ada Lövelace")
        try terminal.waitFor("the typed text") { promptLine($0) == "Your name: Ada Lövelace" }
        try terminal.press("Enter")
        let named = try terminal.waitFor("the name on screen") { $0.contains("│ Name: Ada Lövelace") }
        #expect(named.contains("[2] Your name: [Ada Lövelace]"), "\(named)")
        #expect(promptLine(named) == nil, "the redraw clears the prompt")
        try terminal.send("1")
        try terminal.waitFor("the third wave") { $0.contains("Waves: 3") }

        // A list row sends its id.
        try terminal.send("4")
        try terminal.waitFor("the picked row") { $0.contains("Picked: b") }

        // A number with no action says so.
        try terminal.send("9")
        try terminal.waitFor("the message") { $0.contains("There is no action 9 here.") }

        // r redraws everything: scribble on the terminal behind the program's back, and r wipes it.
        let tty = try terminal.format("#{pane_tty}")
        let scribble = "SCRIBBLE-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(tty, O_WRONLY | O_NOCTTY)
        try #require(fd >= 0, "cannot open \(tty)")
        let bytes = Array("\u{1B}[3;5H\(scribble)".utf8)
        #expect(write(fd, bytes, bytes.count) == bytes.count)
        close(fd)
        try terminal.waitFor("the scribble") { $0.contains(scribble) }
        try terminal.send("r")
        let refreshed = try terminal.waitFor("the screen redrawn without the scribble") { !$0.contains(scribble) && $0.contains("Picked: b") }
        #expect(refreshed.contains("│ Name: Ada Lövelace"))

        // A link to another plugin's screen; b comes back to a form that kept its state.
        try terminal.send("5")
        let about = try terminal.waitFor("Hello's about screen") { $0.contains("A plugin written in C") }
        #expect(about.contains("┌─ About "), "\(about)")
        try terminal.send("b")
        let back = try terminal.waitFor("the form again") { $0.contains("┌─ Form ") }
        #expect(back.contains("│ Name: Ada Lövelace") && back.contains("Picked: b") && back.contains("Waves: 3"), "\(back)")
        // b on the first screen stays.
        try terminal.send("b")
        try terminal.send("1")
        try terminal.waitFor("the form, still") { $0.contains("Waves: 4") && $0.contains("┌─ Form ") }

        try terminal.send("q")
        #expect(try Self.waitForExit(terminal) == 0)
        try Self.expectRestored(terminal)
    }

    @Test("Ctrl-C quits and gives the terminal back")
    func controlC() throws {
        let (terminal, _) = try Self.shell()
        defer { terminal.kill() }
        try terminal.type(try Self.command(["launch", "hello"]))
        let hello = try terminal.waitFor("Hello") { $0.contains("Hello, world! Waves: 0") && $0.contains(Self.keys) }
        #expect(!hello.contains("choose"), "a screen with no action offers none:\n\(hello)")
        #expect(try terminal.inAlternateScreen)
        try terminal.press("C-c")
        let status = try Self.waitForExit(terminal)
        #expect(status == 0 || status == 130, "exit status \(status)")
        try Self.expectRestored(terminal)
    }

    @Test("a plugin that crashes (SIGSEGV) in render, in process, still leaves the terminal restored")
    func crashRestores() throws {
        let (terminal, _) = try Self.shell()
        defer { terminal.kill() }
        try terminal.type("ulimit -c 0")
        try terminal.type(try Self.command(["launch", "views", "--screen", "crash"]))
        try terminal.waitFor("the crash screen") { $0.contains("[1] Crash now") }
        #expect(try terminal.inAlternateScreen)
        try terminal.send("1")
        #expect(try Self.waitForExit(terminal) == 128 + Int(SIGSEGV))
        try Self.expectRestored(terminal)
    }

    // MARK: Redraws without a key

    @Test("the screen redraws when the plugin's state changes on its own thread (request_render), with no key")
    func redrawOnRequest() throws {
        let terminal = try Self.direct(["launch", "views", "--screen", "ticker"])
        defer { terminal.kill() }
        try terminal.waitFor("the ticker") { $0.contains("Ticks: 0") }
        try terminal.send("1")
        // Three ticks arrive from the plugin's thread after the key; no other key is pressed.
        try terminal.waitFor("the third tick") { $0.contains("Ticks: 3") }
        try terminal.send("q")
        try terminal.waitFor("the program to exit") { _ in try terminal.exited() }
    }

    @Test("a write to the shared container from another process reaches the widget (store.changed) and the screen redraws")
    func redrawOnStoreChange() throws {
        let home = try ViewsFixture.privateHome("views-store")
        let terminal = try Self.direct(["launch", "views", "--screen", "store"], home: home)
        defer { terminal.kill() }
        try terminal.waitFor("the store screen") { $0.contains("Last change: none") }

        let value = "hello from outside \(UInt32.random(in: 0...UInt32.max))"
        let file = try TestSupport.makeTemporaryDirectory("views-store-value") + "/value"
        try TestSupport.write(Array(value.utf8), to: file)
        let put = try TestSupport.runHost(["store", "put", "views.note", "--file", file], environment: home)
        #expect(put.status == 0, "\(put)")
        try terminal.waitFor("the change") { $0.contains("Last change: views.note") && $0.contains("Value: \(value)") }

        let removed = try TestSupport.runHost(["store", "rm", "views.note"], environment: home)
        #expect(removed.status == 0, "\(removed)")
        try terminal.waitFor("the removal") { $0.contains("Last change: views.note") && $0.contains("Value: (none)") }
        try terminal.send("q")
        try terminal.waitFor("the program to exit") { _ in try terminal.exited() }
    }

    // MARK: The home screen

    /// The number the home screen gives the widget called `name`.
    static func number(of name: String, in screen: String) throws -> Character {
        let line = try #require(screen.split(separator: "\n").first { $0.contains("] \(name) ") }, "no \(name) in:\n\(screen)")
        let open = try #require(line.firstIndex(of: "["))
        return line[line.index(after: open)]
    }

    @Test("widget-host --list opens the home screen; choosing a widget pushes it; b returns to the menu")
    func home() throws {
        let terminal = try Self.direct(["--list"])
        defer { terminal.kill() }
        let menu = try terminal.waitFor("the home screen") { $0.contains("┌─ Widgets ") && $0.contains("Hello") && $0.contains("Views") }
        #expect(menu.contains("Says hello, in C."))
        let hello = try Self.number(of: "Hello", in: menu)
        let views = try Self.number(of: "Views", in: menu)
        #expect(hello != views)

        try terminal.send(String(hello))
        try terminal.waitFor("Hello") { $0.contains("Hello, world! Waves: 0") && $0.contains("┌─ Hello ") }
        try terminal.send("b")
        try terminal.waitFor("the menu again") { $0.contains("┌─ Widgets ") }

        try terminal.send(String(views))
        try terminal.waitFor("Views") { $0.contains("Every kind") }
        try terminal.send("5")
        try terminal.waitFor("Hello's about screen") { $0.contains("A plugin written in C") }
        try terminal.send("b")
        try terminal.waitFor("Views again") { $0.contains("Every kind") }
        try terminal.send("b")
        try terminal.waitFor("the menu once more") { $0.contains("┌─ Widgets ") && !$0.contains("Every kind") }
        // b at the menu does nothing; q quits.
        try terminal.send("b")
        try terminal.send("q")
        try terminal.waitFor("the program to exit") { _ in try terminal.exited() }
    }

    // MARK: Colour on a terminal

    @Test("on a terminal, --once renders once in colour; with NO_COLOR it writes no escape at all")
    func onceOnATerminal() throws {
        for noColor in [false, true] {
            let (terminal, _) = try Self.shell(noColor ? ["NO_COLOR": "1"] : [:])
            defer { terminal.kill() }
            try terminal.recordOutput()
            try terminal.type(try Self.command(["launch", "views", "--once"]))
            #expect(try Self.waitForExit(terminal) == 0)
            let screen = try terminal.capture()
            #expect(screen.contains("Every kind") && screen.contains("[5] About Hello →"), "\(screen)")
            #expect(!screen.contains(Self.keys), "--once is not interactive")
            let output = try terminal.recorded()
            #expect(!output.isEmpty)
            if noColor {
                #expect(!output.contains(0x1B), "\(String(decoding: output, as: UTF8.self).debugDescription)")
            } else {
                #expect(!output.selectGraphicRenditions.isEmpty, "no colour on a terminal")
            }
        }
    }

    @Test("interactive: colour on a terminal, none with NO_COLOR or TERM=dumb (only cursor and screen control)", arguments: [
        ([:], true), (["NO_COLOR": "1"], false), (["TERM": "dumb"], false),
    ])
    func interactiveColour(_ extra: [String: String], _ coloured: Bool) throws {
        let (terminal, _) = try Self.shell(extra)
        defer { terminal.kill() }
        try terminal.recordOutput()
        try terminal.type(try Self.command(["launch", "views", "--screen", "many_actions"]))
        let screen = try terminal.waitFor("the actions") { $0.contains("Action 11") && $0.contains("1-11 + Enter choose · b back · r refresh · q quit") }
        for number in 1...9 {
            #expect(screen.contains("│ [\(number)] Action \(number) "), "\(screen)")
        }
        #expect(screen.contains("│ [10] Action 10 ") && screen.contains("│ [11] Action 11 "), "\(screen)")
        try terminal.send("q")
        #expect(try Self.waitForExit(terminal) == 0)
        let output = try terminal.recorded()
        #expect(output.contains(0x1B), "the interactive mode controls the screen")
        let colours = output.selectGraphicRenditions
        if coloured {
            #expect(colours.contains("\u{1B}[1m"), "buttons are bold on a colour terminal: \(colours)")
        } else {
            #expect(colours.isEmpty, "\(colours)")
        }
    }
}
