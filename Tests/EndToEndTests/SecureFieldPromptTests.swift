import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// A secure field's prompt on a real terminal (tmux): what is typed reaches
/// the widget, and not one byte of it reaches the screen.
@Suite("Secure field prompt", .enabled(if: Tmux.path != nil, "needs tmux"))
struct SecureFieldPromptTests {
    static let secret = "Qz7#vX9!kwPm"

    /// The prompt line at the bottom of the screen, if it shows.
    static func promptLine(_ screen: String) -> String? {
        screen.split(separator: "\n").last { $0.hasPrefix("Passphrase:") }.map { String($0).trimmingCharacters(in: .whitespaces) }
    }

    @Test("typed characters show as one mark each, the widget gets them all, the output never holds any run of them; Ctrl-C cancels")
    func neverEchoed() throws {
        let (terminal, _) = try LaunchInteractiveTests.shell()
        defer { terminal.kill() }
        try terminal.type(try LaunchInteractiveTests.command(["launch", "views", "--screen", "secret"]))
        let first = try terminal.waitFor("the secret screen") { $0.contains("Received: 0 characters") && $0.contains(LaunchInteractiveTests.keys) }
        #expect(first.contains("[1] Passphrase: [ ] type it"), "\(first)")
        try terminal.recordOutput()

        try terminal.send("1")
        try terminal.waitFor("the prompt") { Self.promptLine($0) == "Passphrase:" }
        // One character at a time, so that every intermediate screen is seen.
        for (index, character) in Self.secret.enumerated() {
            try terminal.send(String(character))
            try terminal.waitFor("mark \(index + 1)") { Self.promptLine($0) == "Passphrase: " + String(repeating: "•", count: index + 1) }
        }
        try terminal.press("BSpace")
        try terminal.waitFor("a mark taken back") { Self.promptLine($0) == "Passphrase: " + String(repeating: "•", count: Self.secret.count - 1) }
        try terminal.send(String(Self.secret.last!))
        try terminal.press("Enter")
        let received = try terminal.waitFor("the widget's count") { $0.contains("Received: \(Self.secret.count) characters") }
        #expect(received.contains("[1] Passphrase: [••••••••]"), "the field's value is masked too:\n\(received)")

        // Ctrl-C in the prompt cancels it and leaves the widget as it was (the terminal stays raw, so it is a key).
        try terminal.send("1")
        try terminal.waitFor("the prompt again") { Self.promptLine($0) == "Passphrase:" }
        try terminal.send("abc")
        try terminal.waitFor("three marks") { Self.promptLine($0) == "Passphrase: •••" }
        try terminal.press("C-c")
        try terminal.waitFor("the prompt gone") { Self.promptLine($0) == nil && $0.contains("Received: \(Self.secret.count) characters") }

        try terminal.send("q")
        #expect(try LaunchInteractiveTests.waitForExit(terminal) == 0)
        try LaunchInteractiveTests.expectRestored(terminal)
        let output = String(decoding: try terminal.recorded(), as: UTF8.self)
        // No run of three typed characters was ever written to the terminal.
        let characters = Array(Self.secret)
        for start in 0...(characters.count - 3) {
            let run = String(characters[start..<(start + 3)])
            #expect(!output.contains(run), "the output holds \(run)")
        }
    }
}
