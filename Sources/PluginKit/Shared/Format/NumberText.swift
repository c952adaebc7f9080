/// Numbers, money and ages as every widget shows them, so that two widgets
/// showing one price show it alike (`$44,001.13`, `just now`). Works on the
/// decimal text itself (no Foundation, no locale data): rounding is half away
/// from zero, exact for any number of digits.
public enum NumberText {
    /// How a locale writes a number: `1,234.50` in English, `1 234,50` in French.
    public struct Style: Equatable, Sendable {
        public let grouping: String
        public let decimal: String

        public init(grouping: String, decimal: String) {
            self.grouping = grouping
            self.decimal = decimal
        }

        public static let english = Style(grouping: ",", decimal: ".")
        /// French (Canada and France): a no-break space groups, a comma marks the decimals.
        public static let french = Style(grouping: "\u{00A0}", decimal: ",")
    }

    /// The magnitude of a plain decimal (`-44001.129`) rounded to `places`
    /// and grouped by thousands (`44,001.13`), and whether it was negative;
    /// nil unless the text is a plain decimal.
    public static func fixed(_ text: String, places: Int, style: Style = .english) -> (negative: Bool, digits: String)? {
        var body = Substring(text)
        let negative = body.first == "-"
        if negative || body.first == "+" { body = body.dropFirst() }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0], fraction = parts.count > 1 ? parts[1] : ""
        guard !whole.isEmpty || !fraction.isEmpty, (whole + fraction).allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        var digits = Array((whole.isEmpty ? "0" : whole).utf8) + Array(fraction.utf8.prefix(places))
        digits += Array(repeating: UInt8(ascii: "0"), count: places + (whole.isEmpty ? 1 : whole.count) - digits.count)
        if fraction.utf8.count > places, Array(fraction.utf8)[places] >= UInt8(ascii: "5") { increment(&digits) }
        let wholeDigits = String(decoding: digits.dropLast(places), as: UTF8.self).trimmingLeadingZeros
        let fractionDigits = String(decoding: digits.suffix(places), as: UTF8.self)
        let isZero = !digits.contains { $0 != UInt8(ascii: "0") }
        return (negative && !isZero, grouped(wholeDigits, by: style.grouping) + (places > 0 ? style.decimal + fractionDigits : ""))
    }

    /// `$44,001.13`, `-$5.20` (English) or `44 001,13 $` (French); the text
    /// unchanged when it is not a plain decimal, so nothing is hidden.
    public static func money(_ text: String, symbol: String = "$", places: Int = 2, style: Style = .english) -> String {
        guard let (negative, digits) = fixed(text, places: places, style: style) else { return text }
        let sign = negative ? "-" : ""
        return style == .english ? sign + symbol + digits : sign + digits + "\u{00A0}" + symbol
    }

    /// How long ago, from the host's clock: `just now`, `12 s ago`,
    /// `5 min ago`, `3 h ago`, `2 d ago`.
    public static func age(from then: Int64, to now: Int64) -> String {
        let seconds = max(now - then, 0) / 1000
        switch seconds {
        case 0: return "just now"
        case ..<60: return "\(seconds) s ago"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3600) h ago"
        default: return "\(seconds / 86_400) d ago"
        }
    }

    /// Adds one to the last digit, carrying; a carry out of the first digit grows the number.
    private static func increment(_ digits: inout [UInt8]) {
        var index = digits.count - 1
        while index >= 0 {
            if digits[index] == UInt8(ascii: "9") {
                digits[index] = UInt8(ascii: "0")
                index -= 1
            } else {
                digits[index] += 1
                return
            }
        }
        digits.insert(UInt8(ascii: "1"), at: 0)
    }

    private static func grouped(_ digits: String, by separator: String) -> String {
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += separator }
            out.append(character)
        }
        return out
    }
}

private extension String {
    var trimmingLeadingZeros: String {
        let trimmed = drop { $0 == "0" }
        return trimmed.isEmpty ? "0" : String(trimmed)
    }
}
