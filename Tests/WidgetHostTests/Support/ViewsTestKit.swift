import Foundation
import Glibc
import Testing
@testable import WidgetHostKit

/// The C fixture plugins of the view and launch tests, built once: views.c
/// (a screen per case, see its header) and hello.c, in one directory.
enum ViewsFixture {
    static let viewsID = "org.example.views"
    static let helloID = "org.example.hello"

    private static let built = Result { () throws -> String in
        let directory = try TestSupport.makeTemporaryDirectory("views-plugins")
        try TestSupport.compileC(source: TestSupport.fixtureDirectory + "/views.c", flags: ["-pthread"], output: directory + "/views.so")
        try TestSupport.compileHello(output: directory + "/hello.so")
        return directory
    }

    /// The directory holding views.so and hello.so.
    static func directory() throws -> String { try built.get() }

    /// A home directory of its own (HOME and the XDG directories), for a run
    /// that writes to the shared container or must not share state.
    static func privateHome(_ label: String) throws -> [String: String] {
        let home = try TestSupport.makeTemporaryDirectory(label)
        return ["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config"]
    }

    /// `widget-host ARGUMENTS --plugin-dir <fixtures>`, with no terminal.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> TestSupport.HostRun {
        try TestSupport.runHost(arguments + ["--plugin-dir", try directory()], environment: environment)
    }

    /// `launch views --screen SCREEN --once` (text) with `environment`.
    static func text(_ screen: String, environment: [String: String] = [:], extra: [String] = []) throws -> TestSupport.HostRun {
        try run(["launch", "views", "--screen", screen, "--once"] + extra, environment: environment)
    }

    /// `launch ... --format json`, parsed.
    static func json(_ arguments: [String], environment: [String: String] = [:]) throws -> (run: TestSupport.HostRun, json: JSONValue) {
        let run = try run(arguments + ["--format", "json"], environment: environment)
        do {
            return (run, try JSONParser.parse(run.stdout))
        } catch {
            throw TestSupport.Failure("not JSON: \(error)\n\(run)")
        }
    }
}

/// Reading a rendered terminal box.
enum RenderedBox {
    /// The lines of `text` that belong to a box (top, body, bottom).
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .filter { $0.hasPrefix("┌") || $0.hasPrefix("│") || $0.hasPrefix("└") }
    }

    /// What each body line shows, without the frame and its padding.
    static func contents(_ text: String) -> [String] {
        lines(text).filter { $0.hasPrefix("│ ") && $0.hasSuffix(" │") }.map { line in
            var content = String(line.dropFirst(2).dropLast(2))
            while content.hasSuffix(" ") { content.removeLast() }
            return content
        }
    }

    /// Everything the box shows with every space removed: a text that was
    /// wrapped (not cut) still appears whole in it.
    static func squeezed(_ text: String) -> String {
        contents(text).joined().filter { $0 != " " }
    }
}

/// Display widths computed independently of `DisplayWidth`: every character
/// the tests use outside ASCII is listed here, wide (two columns) or narrow
/// (one). A grapheme cluster takes the width of its class; a character the
/// tables do not list is a mistake in the test, reported as such.
enum WidthOracle {
    static let wide: Set<Character> = Set(
        "東京タワー国際左新しい日本語の長い文章は単語区切りがないので途中で折り返さなければなりません。これ四十桁端末でも読めるはずです送信"
            + "한국어텍스트와서울특별시" + "ＡＢＣ" + "漢字仮名交じり文"
    ).union(["🚀", "😀", "❤️", "👍🏽", "🇫🇷", "👨‍👩‍👧", "✅", "🌙"])

    static let narrow: Set<Character> = Set([
        "e\u{301}", "e\u{301}\u{302}", "u\u{308}", "U\u{308}", "→", "•", "…", "─", "│", "┌", "┐", "└", "┘", "·", "£", "€", "\u{FFFD}",
    ] as [Character])

    static func width(_ character: Character) -> Int {
        if wide.contains(character) { return 2 }
        if character.isASCII || narrow.contains(character) { return 1 }
        Issue.record("the width oracle does not know \(character.unicodeScalars.map { String($0.value, radix: 16) })")
        return 1
    }

    static func width(_ text: String) -> Int { text.reduce(0) { $0 + width($1) } }
}

/// An interactive terminal for the launch tests: a detached tmux session on
/// a private server (`tmux -L`), 80x30, read with `capture-pane` and driven
/// with `send-keys`. It runs either a command directly or a shell, in which
/// the test types commands, so that the terminal's state after the program
/// exits can be examined with `stty`. Every wait polls a bounded number of times.
final class ViewsTerminal {
    let socket = "views-tests-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    private let tmux: String
    private var socketPath: String?
    private var killed = false
    /// Where `recordOutput` copies every byte the program writes.
    private(set) var recording: String?

    static var tmuxPath: String? { CryptoTmux.tmuxPath }

    static let prompt = "VIEWS-PROMPT$ "

    /// The environment of the programs in the pane: the private home, a PATH,
    /// TERM=xterm, plus `extra`.
    static func environment(_ extra: [String: String] = [:], home: [String: String]) -> [String: String] {
        var variables = home
        variables["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        variables["TERM"] = "xterm"
        if let library = ProcessInfo.processInfo.environment["LD_LIBRARY_PATH"] { variables["LD_LIBRARY_PATH"] = library }
        variables.merge(extra) { _, new in new }
        return variables
    }

    /// Runs `command` (argv, no shell word splitting) in the pane.
    convenience init(command: [String], environment: [String: String]) throws {
        try self.init(line: Self.line(command, environment: environment))
    }

    /// Runs `/bin/sh` in the pane with a known prompt; type commands with `type(_:)`.
    static func shell(environment: [String: String]) throws -> ViewsTerminal {
        var variables = environment
        variables["PS1"] = prompt
        let terminal = try ViewsTerminal(line: line(["/bin/sh"], environment: variables))
        try terminal.waitFor("the shell's prompt") { $0.contains(prompt) }
        return terminal
    }

    private init(line: String) throws {
        guard let tmux = Self.tmuxPath else { throw TestSupport.Failure("no tmux on PATH") }
        self.tmux = tmux
        try self.tmux(["-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "30", line])
        socketPath = try? self.tmux(["display-message", "-p", "#{socket_path}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        // Keep the pane after the program exits, so its last screen can be read.
        try self.tmux(["set-option", "-g", "remain-on-exit", "on"])
    }

    deinit { kill() }

    func kill() {
        guard !killed else { return }
        killed = true
        _ = try? tmux(["kill-server"])
        if let socketPath, !socketPath.isEmpty { unlink(socketPath) }
    }

    /// The visible screen, wrapped lines joined.
    func capture() throws -> String { try tmux(["capture-pane", "-p", "-J"]) }

    /// Types `text` literally.
    func send(_ text: String) throws { try tmux(["send-keys", "-l", text]) }

    /// Presses a named key: Enter, C-c, Escape.
    func press(_ key: String) throws { try tmux(["send-keys", key]) }

    /// Types a shell command and presses Enter.
    func type(_ command: String) throws {
        try send(command)
        try press("Enter")
    }

    /// A tmux format about the pane: `#{alternate_on}`, `#{pane_dead}`.
    func format(_ format: String) throws -> String {
        try tmux(["display-message", "-p", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    var inAlternateScreen: Bool { get throws { try format("#{alternate_on}") == "1" } }

    func exited() throws -> Bool { try format("#{pane_dead}") == "1" }

    /// From now on, every byte written to the pane is appended to a file.
    func recordOutput() throws {
        let path = try TestSupport.makeTemporaryDirectory("views-tty") + "/output"
        try TestSupport.write([], to: path)
        try tmux(["pipe-pane", "-o", "cat >> " + Self.quote(path)])
        recording = path
    }

    /// The bytes recorded so far.
    func recorded() throws -> [UInt8] {
        guard let recording else { throw TestSupport.Failure("recordOutput() was not called") }
        return try TestSupport.readBytes(recording)
    }

    /// Polls the screen until `condition` holds; throws with the last screen
    /// if it never does within `attempts` polls 50 ms apart.
    @discardableResult
    func waitFor(_ what: String, attempts: Int = 400, _ condition: (String) throws -> Bool) throws -> String {
        var screen = ""
        for _ in 0..<attempts {
            screen = try capture()
            if try condition(screen) { return screen }
            usleep(50_000)
        }
        throw TestSupport.Failure("the screen never showed \(what); last screen:\n\(screen)")
    }

    /// In the shell: the terminal flags `stty -a` reports among echo and
    /// icanon, as "echo icanon" or "-echo -icanon", read after a marker.
    func terminalFlags() throws -> Set<String> {
        let marker = "FLAGS-\(UInt32.random(in: 0...UInt32.max))"
        try type("printf '%s:' \(marker); for f in $(stty -a); do case \"$f\" in echo|icanon|-echo|-icanon) printf ' %s' \"$f\";; esac; done; echo ' :end'")
        let screen = try waitFor("the flags of stty -a") { screen in
            screen.split(separator: "\n").contains { $0.hasPrefix(marker + ":") && $0.hasSuffix(":end") }
        }
        let line = try #require(screen.split(separator: "\n").last { $0.hasPrefix(marker + ":") && $0.hasSuffix(":end") })
        return Set(line.dropFirst(marker.count + 1).dropLast(4).split(separator: " ").map(String.init))
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let result = try ChildProcess.run([tmux, "-L", socket] + arguments, timeout: 20)
        guard result.termination == .exited(0) else {
            throw TestSupport.Failure("tmux \(arguments.joined(separator: " ")): \(result.termination) "
                + String(decoding: result.standardError, as: UTF8.self))
        }
        return String(decoding: result.standardOutput, as: UTF8.self)
    }

    static func line(_ command: [String], environment: [String: String]) -> String {
        let variables = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return (["exec", "env", "-i"] + variables + command).map(quote).joined(separator: " ")
    }

    static func quote(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}

extension String {
    /// Whether the text holds an ESC byte (the start of every ANSI escape).
    var hasEscape: Bool { unicodeScalars.contains("\u{1B}") }
}

extension Array where Element == UInt8 {
    /// The SGR sequences (`ESC [ ... m`: colour and attributes) in the bytes.
    var selectGraphicRenditions: [String] {
        var found: [String] = []
        var index = 0
        while index + 1 < count {
            if self[index] == 0x1B, self[index + 1] == UInt8(ascii: "[") {
                var end = index + 2
                while end < count, (0x30...0x3F).contains(self[end]) { end += 1 }
                if end < count, self[end] == UInt8(ascii: "m") {
                    found.append(String(decoding: self[index...end], as: UTF8.self))
                }
                index = end
            } else {
                index += 1
            }
        }
        return found
    }
}
