import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// Display width per script, against what terminals draw (the cases the
/// `wcwidth` tables and issue 18 name). The tables come from the Unicode data
/// files through tools/generate-display-width.py; CI checks the generated file.
@Suite("Display width")
struct DisplayWidthTests {
    @Test("ASCII, measured a byte at a time, measures as its characters do: controls and CR LF take no column")
    func asciiMatchesCharacters() {
        let everyByte = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        for text in [everyByte, "a\r\nb", "\r\n\r\n", "ID  NAME", "", "\u{7F}x", String(everyByte.reversed())] {
            #expect(DisplayWidth.of(text) == text.reduce(0) { $0 + DisplayWidth.of($1) }, "\(text.debugDescription)")
        }
        #expect(DisplayWidth.of(everyByte) == 95)
        // One byte past ASCII and the whole text is measured by its characters.
        #expect(DisplayWidth.of("a\r\n界") == 3)
    }

    @Test("printable ASCII is safe as it is; a control or a direction override is replaced")
    func terminalTextSafe() {
        #expect(TerminalText.safe("api.example.com  1.0") == "api.example.com  1.0")
        #expect(TerminalText.safe("a\u{1B}[2Jb", lines: false) == "a\u{FFFD}[2Jb")
        #expect(TerminalText.safe("a\u{7F}b") == "a\u{FFFD}b")
        #expect(TerminalText.safe("one\ntwo", lines: false) == "one two")
        #expect(TerminalText.safe("é\u{202E}x") == "é\u{FFFD}x")
        #expect(TerminalText.safe("é 🚀") == "é 🚀")
    }

    @Test("the tables state their Unicode version")
    func version() {
        #expect(DisplayWidth.unicodeVersion == "15.0.0")
    }

    @Test("Indic and Southeast Asian clusters: a spacing mark and each consonant of a conjunct take a column, as in glibc", arguments: [
        ("Devanagari", "हिन्दी", 5),          // हि (base + spacing vowel sign) and the conjunct न्दी (न, द, ी)
        ("Devanagari", "नमस्ते", 4),          // न, म, and the conjunct स्ते (स, त; its vowel sign is nonspacing)
        ("Devanagari conjunct", "क्ष", 2),
        ("Devanagari lone virama", "\u{94D}", 0),
        ("Bengali", "বাংলা", 5),              // বাং (AA, though Grapheme_Extend, and anusvara) and লা
        ("Tamil", "தமிழ்", 4),                 // த, மி (spacing vowel sign), ழ் (virama, nonspacing)
        ("Malayalam", "മലയാളം", 6),           // മ, ല, യാ, ളം
        ("Thai", "ภาษาไทย", 7),
        ("Thai SARA AM", "น้ำ", 2),           // tone mark none, SARA AM a column
        ("Burmese", "မြန်မာ", 5),            // မြ (medial RA is a spacing mark), န်, မာ
        ("Burmese kinzi conjunct", "င်္ဂ", 2),
        ("lone spacing mark", "\u{93F}", 1),
        ("Arabic number sign before digits", "\u{600}١٢", 3),
    ])
    func indic(_ script: String, _ text: String, _ columns: Int) {
        #expect(DisplayWidth.of(text) == columns, "\(script): \(text)")
    }

    @Test("emoji: text-default ones are one column, VS15 forces one, VS16 two", arguments: [
        ("text-default ☺", "\u{263A}", 1),
        ("text-default thermometer", "\u{1F321}", 1),
        ("text-default ✈", "\u{2708}", 1),
        ("text-default with VS16", "\u{2708}\u{FE0F}", 2),
        ("emoji-default ⌚", "\u{231A}", 2),
        ("emoji-default with VS15", "\u{231A}\u{FE0E}", 1),
        ("rocket with VS15", "\u{1F680}\u{FE0E}", 1),
        ("rocket", "\u{1F680}", 2),
        ("skin tone", "👍🏽", 2),
        ("flag", "🇫🇷", 2),
        ("family", "👨‍👩‍👧", 2),
        ("digit keycap", "1\u{FE0F}\u{20E3}", 2),
        ("VS16 after a non-emoji stays narrow", "a\u{FE0F}", 1),
    ])
    func emoji(_ name: String, _ text: String, _ columns: Int) {
        #expect(DisplayWidth.of(text) == columns, "\(name)")
    }

    @Test("wide scripts and symbols take two columns", arguments: [
        ("Tangut", "\u{17000}\u{18800}", 4),
        ("Nushu", "\u{1B170}", 2),
        ("kana supplement", "\u{1B001}", 2),
        ("small kana extension", "\u{1B150}", 2),
        ("hexagram", "\u{4DC0}", 2),
        ("trigram", "\u{2630}", 2),
        ("enclosed ideograph", "\u{1F250}", 2),
        ("CJK extension B", "\u{20000}", 2),
        ("Hangul syllable", "한", 2),
        ("fullwidth", "Ａ", 2),
        ("halfwidth katakana", "ｶ", 1),
        ("reserved in the CJK Unified Ideographs Extension B block (@missing: W)", "\u{2A6E0}", 2),
        ("reserved in plane 3 (@missing: W)", "\u{3FFFD}", 2),
        ("CJK extension I, Unicode 15.1", "\u{2EBF0}", 2),
        ("Unicode 16 emoji: face with bags under eyes", "\u{1FAE9}", 2),
        ("Unicode 16 emoji: harp", "\u{1FA89}", 2),
        ("Unicode 17 emoji: landslide", "\u{1F6D8}", 2),
    ])
    func wide(_ name: String, _ text: String, _ columns: Int) {
        #expect(DisplayWidth.of(text) == columns, "\(name)")
    }

    @Test("nothing visible takes no column", arguments: [
        ("lone Hangul jungseong", "\u{1161}", 0),
        ("lone Hangul jongseong", "\u{11A8}", 0),
        ("Hangul L V T as one block", "\u{1100}\u{1161}\u{11A8}", 2),
        ("line separator", "\u{2028}", 0),
        ("paragraph separator", "\u{2029}", 0),
        ("zero width space", "\u{200B}", 0),
        ("zero width joiner", "\u{200D}", 0),
        ("combining acute alone", "\u{301}", 0),
        ("soft hyphen shows", "\u{AD}", 1),
    ])
    func zero(_ name: String, _ text: String, _ columns: Int) {
        #expect(DisplayWidth.of(text) == columns, "\(name)")
    }

    @Test("Latin, Greek, Cyrillic, Arabic and Hebrew are a column per letter", arguments: [
        ("Zürich", 6), ("Ελληνικά", 8), ("Русский", 7), ("مرحبا", 5), ("שָׁלוֹם", 4), ("e\u{301}\u{302}", 1),
    ])
    func narrow(_ text: String, _ columns: Int) {
        #expect(DisplayWidth.of(text) == columns, "\(text)")
    }
}
