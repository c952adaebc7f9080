/// Text from outside the host (a plugin's manifest, view, store key or
/// error) as a terminal may show it. A control character (ESC, BEL, a C1
/// code...) would be obeyed by the terminal rather than shown, and a
/// bidirectional override or isolate (U+202A–U+202E, U+2066–U+2069) would
/// reorder what follows it, so each becomes U+FFFD; a tab becomes a space.
/// Newlines stay (they start a new line) unless `lines` is false. Every
/// human-facing string goes through here: tables, log lines, error
/// messages and the terminal renderer.
public enum TerminalText {
    public static func safe(_ text: String, lines: Bool = true) -> String {
        // Printable ASCII is safe as it is, checked a byte at a time.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }), text.unicodeScalars.contains(where: { isUnsafe($0.value) }) else {
            return text
        }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A where lines: result.append(scalar)
            case 0x09, 0x0A: result.append(" ")
            case let value where isUnsafe(value): result.append("\u{FFFD}")
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    private static func isUnsafe(_ value: UInt32) -> Bool {
        switch value {
        case 0..<0x20, 0x7F..<0xA0, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
