import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// Display width against the references a terminal follows (issue 25): glibc's
/// `wcwidth` scalar by scalar, and Python's `wcwidth` for emoji sequences,
/// which glibc measures scalar by scalar but terminals draw as one glyph.
/// Rendered boxes are measured line by line, so a misaligned border shows.
@Suite("Width matches the terminal")
struct WidthReferenceTests {
    /// glibc's width of `text` (the sum of `wcwidth` over its scalars) in
    /// C.UTF-8, set for this thread only; nil where glibc knows a scalar not.
    static func glibcWidth(_ text: String) throws -> Int? {
        let wcwidth = try #require(Self.wcwidth, "glibc has no wcwidth")
        let locale = try #require(newlocale(LC_CTYPE_MASK, "C.UTF-8", nil), "the C.UTF-8 locale is missing")
        let previous = uselocale(locale)
        defer {
            uselocale(previous)
            freelocale(locale)
        }
        var total = 0
        for scalar in text.unicodeScalars {
            let width = wcwidth(Int32(bitPattern: scalar.value))
            if width < 0 { return nil }
            total += Int(width)
        }
        return total
    }

    /// glibc's `wcwidth`, which Swift's Glibc module does not declare (it needs _XOPEN_SOURCE).
    static let wcwidth: (@convention(c) (Int32) -> Int32)? = dlsym(nil, "wcwidth").map {
        unsafeBitCast($0, to: (@convention(c) (Int32) -> Int32).self)
    }

    /// Where the table deliberately differs from glibc 2.36 (Unicode 15.0):
    /// the ranges Unicode 16 made wide, which terminals draw wide already,
    /// and the circled numbers on black squares, East Asian Ambiguous (one
    /// column here, as every Ambiguous scalar) that glibc alone makes wide.
    static let deliberate: [ClosedRange<UInt32>] = [0x2630...0x2637, 0x268A...0x268F, 0x4DC0...0x4DFF, 0x3248...0x324F]

    @Test("every scalar of Unicode 15 that glibc measures has glibc's width, but for the deliberate differences")
    func scalarsMatchGlibc() throws {
        var differences: [String] = []
        for value in UInt32(0x20)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), let age = scalar.properties.age, (age.major, age.minor) <= (15, 0),
                  !Self.deliberate.contains(where: { $0.contains(value) }),
                  let glibc = try Self.glibcWidth(String(scalar)) else { continue }
            // A regional indicator alone is an emoji (Emoji_Presentation) here, two columns as in Python's wcwidth.
            if (0x1F1E6...0x1F1FF).contains(value) { continue }
            if DisplayWidth.of(scalar) != glibc {
                differences.append("U+\(String(value, radix: 16, uppercase: true)): \(DisplayWidth.of(scalar)) not \(glibc)")
            }
        }
        #expect(differences.isEmpty, "\(differences.count): \(differences.prefix(20))")
    }

    static let boxWidths = [24, 40, 57, 100]

    /// Every line of a box around `lines` is exactly the box's width by
    /// `measure`, and no line's text is lost.
    static func expectBox(_ lines: [String], measure: (String) throws -> Int?) throws {
        for width in boxWidths {
            let renderer = TerminalRenderer(width: width, color: false)
            let view = ViewNode.stack(axis: .vertical, children: lines.map { .text($0, style: .body, color: .primary) })
            let box = renderer.render(view, title: lines[0])
            for line in box.split(separator: "\n") {
                let columns = try #require(try measure(String(line)), "unmeasurable: \(line)")
                #expect(columns == renderer.width, "\(columns) columns, not \(renderer.width): \(line)")
            }
            let shown = RenderedBox.contents(box).joined(separator: " ").split(separator: " ").joined()
            #expect(shown == lines.joined(separator: " ").split(separator: " ").joined(), "text lost at \(width) columns")
        }
    }

    @Test("boxes of Hindi, Thai, CJK and mixed text line up by glibc's wcwidth, line by line", arguments: [
        ("Hindi", [
            "हिन्दी भारत की राजभाषा है", "क्षत्रिय और ज्ञान", "श्रीमान् राष्ट्रपति जी", "द्वितीय विश्वयुद्ध के बाद",
            "संयुक्त राष्ट्र संघ", "प्रधानमंत्री ने कहा कि स्वच्छता ज़रूरी है", "क्ष त्र ज्ञ श्र", "अंतर्राष्ट्रीय हवाई अड्डा",
        ]),
        ("Thai", ["ภาษาไทยเป็นภาษาราชการ", "น้ำใจ ไม่ได้ ที่นี่", "กรุงเทพมหานคร อมรรัตนโกสินทร์", "สวัสดีครับ ขอบคุณค่ะ"]),
        ("CJK", ["東京タワーと富士山", "한국어 문장은 두 칸", "中文：标点符号，全角。", "ｶﾀｶﾅ halfwidth and Ａ fullwidth", "𠀀𠀁 extension B"]),
        ("mixed", ["Zürich 東京 हिन्दी ภาษา", "Café ₹५०० क्ष 日本", "Ελληνικά Русский عربى ١٢", "\u{600}١٢ and \u{605} signs"]),
    ])
    func glibcBoxes(_ script: String, _ lines: [String]) throws {
        try Self.expectBox(lines, measure: Self.glibcWidth)
    }

    /// Widths Python's `wcwidth.wcswidth` gives (0.7.0): an emoji sequence is
    /// two columns, where glibc would add up its scalars.
    @Test("boxes of emoji line up as Python's wcwidth measures emoji sequences", arguments: [
        ("Done ✅ ✈️ 🫩 🪉", 16),
        ("1️⃣ 2️⃣ #️⃣ keycaps", 16),
        ("🏳️‍🌈 and 🏴‍☠️ flags", 15),
        ("👨‍👩‍👧‍👦 family, 🧑🏻‍💻 coder", 19),
        ("🇯🇵 日本 🇫🇷 Paris 👍🏽", 19),
    ])
    func emojiBoxes(_ line: String, _ python: Int) throws {
        #expect(DisplayWidth.of(line) == python)
        try Self.expectBox([line, line + " " + line, "mixed: " + line + " 東京"]) { DisplayWidth.of($0) }
    }
}
