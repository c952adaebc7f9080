/// The characters the renderer draws with: box drawing and marks in UTF-8,
/// or their ASCII stand-ins for a terminal whose locale is not UTF-8
/// (`LANG=C`), where `┌` would show as three bytes of garbage.
public struct TerminalSymbols: Sendable {
    public let ascii: Bool

    public init(ascii: Bool) { self.ascii = ascii }

    var topLeft: String { ascii ? "+" : "┌" }
    var topRight: String { ascii ? "+" : "┐" }
    var bottomLeft: String { ascii ? "+" : "└" }
    var bottomRight: String { ascii ? "+" : "┘" }
    var horizontal: String { ascii ? "-" : "─" }
    var vertical: String { ascii ? "|" : "│" }
    var up: String { ascii ? "^" : "↑" }
    var down: String { ascii ? "v" : "↓" }
    var bullet: String { ascii ? "*" : "•" }
    var ellipsis: String { ascii ? "..." : "…" }
    /// After a link's title.
    var link: String { ascii ? "->" : "→" }
    /// After a row that opens another screen.
    var disclosure: String { ascii ? ">" : "›" }
    var focus: String { ascii ? ">" : "▶" }
    var secret: String { ascii ? "*" : "•" }

    /// Before a button's title: how much it stands out.
    func mark(_ prominence: ViewNode.Prominence) -> String {
        switch prominence {
        case .primary: ascii ? "> " : "▶ "
        case .secondary: ""
        case .destructive: ascii ? "x " : "✖ "
        }
    }

    /// A plugin's text as an ASCII terminal can show it: common marks spelled
    /// out (`→` as `->`), accents dropped (`Hôtel` as `Hotel`), anything else `?`.
    static func asciiText(_ text: String) -> String {
        guard !text.unicodeScalars.allSatisfy(\.isASCII) else { return text }
        var out = ""
        for character in text.unicodeScalars {
            if character.isASCII {
                out.unicodeScalars.append(character)
            } else if let spelled = spelled[character] ?? latinBase(character) {
                out += spelled
            } else if character.properties.generalCategory != .nonspacingMark, character.properties.generalCategory != .enclosingMark,
                      character.value != 0xFE0F {
                out += "?"
            }
        }
        return out
    }

    /// `ô` as `o`, `Ł` as `L`: the letter a Latin letter with marks is
    /// named after, read from its Unicode name (`LATIN SMALL LETTER O WITH
    /// CIRCUMFLEX`), so no table of accents is kept here and Foundation's
    /// decomposition (a library the host does not otherwise load) is not needed.
    private static func latinBase(_ scalar: Unicode.Scalar) -> String? {
        guard let name = scalar.properties.name else { return nil }
        for (prefix, upper) in [("LATIN SMALL LETTER ", false), ("LATIN CAPITAL LETTER ", true)] where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let letter = rest.first, letter.isASCII, letter.isLetter, rest.dropFirst().isEmpty || rest.dropFirst().hasPrefix(" WITH ") else {
                return nil
            }
            return upper ? String(letter) : String(letter).lowercased()
        }
        return nil
    }

    private static let spelled: [Unicode.Scalar: String] = [
        "→": "->", "←": "<-", "↑": "^", "↓": "v", "…": "...", "•": "*", "·": "-", "—": "-", "–": "-", "‘": "'", "’": "'",
        "“": "\"", "”": "\"", "★": "*", "☆": "*", "▶": ">", "›": ">", "‹": "<", "✖": "x", "✓": "v", "€": "EUR", "£": "GBP",
        "─": "-", "│": "|", "┌": "+", "┐": "+", "└": "+", "┘": "+", "\u{00A0}": " ", "\u{202F}": " ", "×": "x", "°": "o",
    ]
}

extension Terminal {
    /// True when the locale (`LC_ALL`, else `LC_CTYPE`, else `LANG`, as the
    /// C library reads them) names a character set other than UTF-8:
    /// `LANG=C`, `POSIX`, `en_US.ISO-8859-1`. With none set, UTF-8 is assumed.
    public static func ascii(environment: [String: String]) -> Bool {
        guard let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }) else { return false }
        let name = locale.lowercased()
        return !(name.contains("utf-8") || name.contains("utf8"))
    }
}
