import Foundation
import Synchronization
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// Text a plugin chose is shown, never obeyed, by the terminal.
@Suite("Terminal text escaping")
struct TerminalTextTests {
    /// A title that would set the window title, clear the screen and
    /// reverse what follows, in a manifest's JSON spelling.
    static let hostileJSON = #"\\u001b]0;pwned\\u0007Evil\\u001b[2J\\u202egnp\\u2066x\\u0085"#

    static func isRaw(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 && scalar != "\n" || (0x7F..<0xA0).contains(scalar.value)
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    static func hasRaw(_ text: String) -> Bool { text.unicodeScalars.contains(where: isRaw) }

    @Test("C0, C1, bidi overrides and isolates become U+FFFD; plain text is untouched")
    func escaping() {
        let hostile = "\u{1B}]0;pwned\u{07}Evil\u{1B}[2J\u{202E}gnp\u{2066}x\u{85}\u{9B}"
        let safe = TerminalText.safe(hostile)
        #expect(!Self.hasRaw(safe), "\(safe.unicodeScalars.map { String($0.value, radix: 16) })")
        #expect(safe == "\u{FFFD}]0;pwned\u{FFFD}Evil\u{FFFD}[2J\u{FFFD}gnp\u{FFFD}x\u{FFFD}\u{FFFD}")
        #expect(TerminalText.safe("Café — 東京\nnext") == "Café — 東京\nnext")
        #expect(TerminalText.safe("a\nb\tc", lines: false) == "a b c")
    }

    @Test("the terminal renderer lets no override through")
    func renderer() {
        let view = ViewNode.stack(axis: .vertical, children: [.text("price \u{202E}001 \u{1B}[2J", style: .body, color: .primary)])
        let frame = TerminalRenderer(width: 60, color: false).render(view, title: "T\u{2067}itle")
        #expect(!frame.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x2067 || $0.value == 0x1B }, "\(frame)")
        #expect(frame.contains("price \u{FFFD}001 \u{FFFD}[2J"), "\(frame)")
    }

    @Test("error messages and log lines are escaped")
    func messagesAndLogs() {
        let seen = Mutex<String>("")
        let console = Console(out: { _ in }, err: { text in seen.withLock { $0 += text } })
        console.error("unknown plugin '\u{1B}[2Jx\u{202E}'")
        #expect(seen.withLock { $0 } == "widget-host: unknown plugin '\u{FFFD}[2Jx\u{FFFD}'\n")

        let recorder = LogRecorder()
        HostLog(threshold: .debug, sink: recorder.sink).log(.warning, "store", "key 'a\u{1B}]0;t\u{07}\u{202D}' refused")
        #expect(recorder.recorded == ["widget-host: [warning] store: key 'a\u{FFFD}]0;t\u{FFFD}\u{FFFD}' refused"])
    }

    @Test("list and info print a hostile manifest name escaped", arguments: [["list"], ["info", "org.example.hostile"]])
    func listAndInfo(_ command: [String]) throws {
        let directory = try TestSupport.makeTemporaryDirectory("hostile")
        try TestSupport.compileHello(defines: [#"-DPLUGIN_ID="org.example.hostile""#, "-DPLUGIN_NAME=\"\(Self.hostileJSON)\""],
                                     output: directory + "/hostile.so")
        let run = try TestSupport.runHost(command + ["--plugin-dir", directory])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("pwned\u{FFFD}Evil\u{FFFD}[2J\u{FFFD}gnp"), "\(run)")
        #expect(!Self.hasRaw(run.stdout), "\(run)")
        #expect(!Self.hasRaw(run.stderr), "\(run)")
    }
}
