/// How many terminal columns text takes: wide East Asian characters and
/// emoji take two, combining marks and joiners none, so boxes line up
/// whatever the script.
public enum DisplayWidth {
    public static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// A grapheme cluster's width: that of its first visible scalar, or 2 for
    /// an emoji presentation sequence.
    public static func of(_ character: Character) -> Int {
        var width = 0
        for scalar in character.unicodeScalars {
            if scalar.value == 0xFE0F && width == 1 { return 2 }   // emoji variation selector
            let scalarWidth = of(scalar)
            if width == 0 { width = scalarWidth }
        }
        return width
    }

    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if value == 0x200B { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        return isWide(value) ? 2 : 1
    }

    /// East Asian Wide and Fullwidth ranges (Unicode Standard Annex #11).
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
             0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default:
            false
        }
    }

    /// The longest prefix of `text` that fits in `columns`.
    public static func prefix(_ text: String, fitting columns: Int) -> String {
        var width = 0
        var end = text.startIndex
        for index in text.indices {
            let next = width + of(text[index])
            if next > columns { break }
            width = next
            end = text.index(after: index)
        }
        return String(text[..<end])
    }

    /// Words wrapped into lines of at most `columns`; a word longer than a
    /// line is broken.
    public static func wrap(_ text: String, columns: Int) -> [String] {
        let columns = max(columns, 1)
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if of(String(paragraph)) <= columns {
                lines.append(String(paragraph))
                continue
            }
            var line = ""
            // Runs of spaces between words on one line are kept, so columns (a list's details) stay lined up.
            for (gap, word) in words(paragraph) {
                var word = word
                let candidate = line.isEmpty ? word : line + gap + word
                if of(candidate) <= columns {
                    line = candidate
                    continue
                }
                if !line.isEmpty { lines.append(line) }
                while of(word) > columns {
                    let head = prefix(word, fitting: columns)
                    lines.append(head)
                    word = String(word.dropFirst(head.count))
                }
                line = word
            }
            lines.append(line)
        }
        return lines
    }

    /// The words of `text`, each with the spaces before it.
    private static func words(_ text: Substring) -> [(gap: String, word: String)] {
        var result: [(gap: String, word: String)] = []
        var gap = "", word = ""
        for character in text {
            if character == " " {
                if !word.isEmpty {
                    result.append((gap, word))
                    gap = ""
                    word = ""
                }
                gap.append(" ")
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { result.append((gap, word)) }
        return result
    }
}
