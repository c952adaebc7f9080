import Foundation

/// Dollar amounts and percentages as the screens show them, from `Decimal`
/// only: `$43,210.55`, `+$5.20`, `-0.01%`. The widget formats them itself,
/// rounding half away from zero to the cent, so the result does not depend
/// on the machine's locale data.
enum MoneyText {
    /// `$43,210.55`; a negative amount is `-$5.20`.
    static func dollars(_ amount: Decimal) -> String {
        let (negative, digits) = fixed(amount, places: 2)
        return (negative ? "-" : "") + "$" + digits
    }

    /// A difference with its sign: `+$5.20`, `-$5.20`, `$0.00`.
    static func signedDollars(_ amount: Decimal) -> String {
        let (negative, digits) = fixed(amount, places: 2)
        if digits == "0.00" { return "$0.00" }
        return (negative ? "-" : "+") + "$" + digits
    }

    /// `+0.03%`, `-1.25%`, `0.00%`.
    static func signedPercent(_ value: Decimal) -> String {
        let (negative, digits) = fixed(value, places: 2)
        if digits == "0.00" { return "0.00%" }
        return (negative ? "-" : "+") + digits + "%"
    }

    /// `0.06%`, for a magnitude.
    static func percentText(_ value: Decimal) -> String {
        fixed(value, places: 2).digits + "%"
    }

    /// `part` as a percentage of `whole`.
    static func percent(_ part: Decimal, of whole: Decimal) -> Decimal {
        whole == 0 ? 0 : part / whole * 100
    }

    /// The magnitude rounded to `places`, grouped by thousands, with exactly
    /// `places` decimals; and whether the value was negative.
    static func fixed(_ value: Decimal, places: Int) -> (negative: Bool, digits: String) {
        var source = value < 0 ? -value : value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &source, places, .plain)
        // Decimal's description is plain digits with at most `places` decimals here.
        let text = rounded.description
        let parts = text.split(separator: ".", maxSplits: 1)
        let whole = String(parts.first ?? "0")
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        fraction += String(repeating: "0", count: max(places - fraction.count, 0))
        return (value < 0, grouped(whole) + (places > 0 ? "." + fraction : ""))
    }

    private static func grouped(_ digits: String) -> String {
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return out
    }
}
