/// How many terminal columns text takes, per grapheme cluster, from tables
/// generated out of the Unicode Character Database
/// (`DisplayWidthTable.swift`, `tools/generate-display-width.py`), so boxes
/// line up whatever the script.
public enum DisplayWidth {
    /// The Unicode version the tables were generated from.
    public static var unicodeVersion: String { DisplayWidthTable.unicodeVersion }

    public static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// A grapheme cluster's width: its base's, plus a column for each
    /// spacing mark after it (`हि` is 2, the conjunct `न्दी` 2). A variation
    /// selector chooses an emoji base's width: VS16 two columns, VS15 one.
    /// A cluster with no visible base (a lone combining mark) takes none.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let base = scalars.first else { return 0 }
        let baseWidth = of(base)
        if scalars.count == 1 || baseWidth == 0 { return baseWidth }
        var width = baseWidth
        for scalar in scalars.dropFirst() {
            switch scalar.value {
            case 0xFE0F where isEmoji(base): return 2
            case 0xFE0E where isEmoji(base): return 1
            default: if contains(DisplayWidthTable.spacingMarks, scalar.value) { width += 1 }
            }
        }
        return width
    }

    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if value < 0x300 { return 1 }
        if contains(DisplayWidthTable.zeroWidth, value) { return 0 }
        return contains(DisplayWidthTable.wide, value) ? 2 : 1
    }

    private static func isEmoji(_ scalar: Unicode.Scalar) -> Bool {
        contains(DisplayWidthTable.emoji, scalar.value)
    }

    /// Whether `value` lies in one of `table`'s (first, last) pairs.
    private static func contains(_ table: [UInt32], _ value: UInt32) -> Bool {
        var low = 0, high = table.count / 2
        while low < high {
            let middle = (low + high) / 2
            if value < table[2 * middle] {
                high = middle
            } else if value > table[2 * middle + 1] {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
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
