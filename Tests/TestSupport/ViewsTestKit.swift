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
        return (run, try run.json())
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
        "e\u{301}", "e\u{301}\u{302}", "u\u{308}", "U\u{308}", "→", "↑", "↓", "•", "…", "─", "│", "┌", "┐", "└", "┘", "·", "£", "€", "\u{FFFD}",
    ] as [Character])

    static func width(_ character: Character) -> Int {
        if wide.contains(character) { return 2 }
        if character.isASCII || narrow.contains(character) { return 1 }
        Issue.record("the width oracle does not know \(character.unicodeScalars.map { String($0.value, radix: 16) })")
        return 1
    }

    static func width(_ text: String) -> Int { text.reduce(0) { $0 + width($1) } }
}

/// The launch tests' terminals: 80x30, wrapped lines joined. A program runs
/// either directly or from a shell in which the test types commands, so
/// that the terminal's state after the program exits can be examined with
/// `stty`.
enum ViewsTerminal {
    static let settings = Tmux.Settings(joinsWrappedLines: true)

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
    static func start(_ command: [String], environment: [String: String]) throws -> Tmux {
        try Tmux(command, environment: environment, settings: settings)
    }

    /// Runs `/bin/sh` in the pane with a known prompt; type commands with `type(_:)`.
    static func shell(environment: [String: String]) throws -> Tmux {
        try Tmux.shell(environment: environment, prompt: prompt, settings: settings)
    }
}

extension Tmux {
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
