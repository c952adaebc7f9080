/// Why a piece of text is not an amount. Each maps to its own error code, so
/// a script can tell "abc" from "-5" from "12.345".
enum AmountProblem: Error, Equatable, Sendable {
    case empty
    case surroundingSpace
    case notANumber
    case exponent
    case negative
    case zero
    case tooPrecise
    case tooLarge
}

/// The strict amount grammar: `0|[1-9][0-9]*` then optionally `.` and one or
/// two digits, in ASCII, nothing around it. Anything else is refused with a
/// reason rather than coerced: no trimming, no signs, no grouping, no
/// exponents, no rounding of extra decimals. The result is in minor units.
/// Where the shopper's locale writes a decimal comma (fr_CA: `12,50`), what
/// they type may use it instead of the point; nothing else changes.
enum AmountParser {
    static func parse(_ text: String, currency: CurrencyCode, decimalComma: Bool = false) -> Result<Int64, AmountProblem> {
        guard let first = text.first, let last = text.last else { return .failure(.empty) }
        if first.isWhitespace || last.isWhitespace { return .failure(.surroundingSpace) }

        let bytes = Array(text.utf8)
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index += 1 }
        func digits() -> ArraySlice<UInt8> {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return bytes[start..<index]
        }
        let integer = digits()
        var fraction: ArraySlice<UInt8> = []
        var hasPoint = false
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || (decimalComma && bytes[index] == UInt8(ascii: ",")) {
            hasPoint = true
            index += 1
            fraction = digits()
        }
        var hasExponent = false
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard !digits().isEmpty else { return .failure(.notANumber) }
            hasExponent = true
        }
        guard index == bytes.count, !integer.isEmpty, !(hasPoint && fraction.isEmpty),
              integer.count == 1 || integer.first != UInt8(ascii: "0") else { return .failure(.notANumber) }
        if negative { return .failure(.negative) }
        if hasExponent { return .failure(.exponent) }
        if fraction.count > currency.minorDigits { return .failure(.tooPrecise) }
        // Counting digits first keeps the arithmetic below from overflowing.
        if integer.count > currency.maximumIntegerDigits { return .failure(.tooLarge) }

        var minorUnits: Int64 = 0
        for digit in integer { minorUnits = minorUnits * 10 + Int64(digit - UInt8(ascii: "0")) }
        for position in 0..<currency.minorDigits {
            let digit = position < fraction.count ? Int64(fraction[fraction.startIndex + position] - UInt8(ascii: "0")) : 0
            minorUnits = minorUnits * 10 + digit
        }
        if minorUnits > currency.largestMinorUnits { return .failure(.tooLarge) }
        if minorUnits == 0 { return .failure(.zero) }
        return .success(minorUnits)
    }

    /// The text of an amount given in JSON: a string as it is, a number as its
    /// literal text (the host keeps it), nil for any other kind of value.
    static func text(of value: JSONValue) -> String? {
        switch value {
        case let .string(text), let .number(text): text
        default: nil
        }
    }
}
