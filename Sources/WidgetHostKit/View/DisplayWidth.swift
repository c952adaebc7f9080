/// How many terminal columns text takes, from tables generated out of the
/// Unicode Character Database (`DisplayWidthTable.swift`,
/// `tools/generate-display-width.py`), so boxes line up whatever the
/// script. The reference is what a terminal draws: glibc's `wcwidth` per
/// scalar, and an emoji sequence as one two-column glyph, as Python's
/// `wcwidth` measures it (docs/reliability.md says why).
public enum DisplayWidth {
    /// The Unicode version the tables were generated from.
    public static var unicodeVersion: String { DisplayWidthTable.unicodeVersion }

    public static func of(_ text: String) -> Int {
        // ASCII, most of what a terminal shows, is a column a printable byte
        // (a control, CR LF included, takes none): no grapheme breaking.
        var printable = 0
        for byte in text.utf8 {
            guard byte < 0x80 else { return text.reduce(0) { $0 + of($1) } }
            if byte >= 0x20 && byte != 0x7F { printable += 1 }
        }
        return printable
    }

    /// A grapheme cluster's width: the sum of its scalars' (a spacing vowel
    /// sign takes a column, and so does each consonant of a virama conjunct:
    /// `हि` is 2, `क्ष` 2), unless it is an emoji sequence. An emoji base
    /// with VS16, a ZWJ, a skin tone or a keycap, or a pair of regional
    /// indicators (a flag), is one glyph two columns wide; VS15 makes it one.
    /// Summing keeps widths additive outside emoji sequences: text measured
    /// in pieces measures the same as when joined.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let base = scalars.first else { return 0 }
        if scalars.count > 1, let width = emojiSequenceWidth(base: base, scalars.dropFirst()) { return width }
        return scalars.reduce(0) { $0 + of($1) }
    }

    private static func emojiSequenceWidth(base: Unicode.Scalar, _ rest: Substring.UnicodeScalarView) -> Int? {
        let flag = (0x1F1E6...0x1F1FF).contains(base.value)
        guard flag || isEmoji(base) else { return nil }
        for scalar in rest {
            switch scalar.value {
            case 0xFE0E: return 1
            case 0xFE0F, 0x200D, 0x20E3, 0x1F3FB...0x1F3FF: return 2
            case 0x1F1E6...0x1F1FF where flag: return 2
            default: continue
            }
        }
        return nil
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
}
