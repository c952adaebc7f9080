import Foundation

/// Dollar amounts and percentages as the screens show them, from `Decimal`
/// only: `$43,210.55`, `+$5.20`, `-0.01%`, rounding half away from zero to
/// the cent through the SDK's `NumberText` (which Ticker uses too), so the
/// result does not depend on the machine's locale data.
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
    /// `places` decimals; and whether the value was negative. The SDK's
    /// `NumberText` does it, so that every widget writes money alike.
    static func fixed(_ value: Decimal, places: Int) -> (negative: Bool, digits: String) {
        NumberText.fixed(value.description, places: places) ?? (value < 0, value.description)
    }
}
