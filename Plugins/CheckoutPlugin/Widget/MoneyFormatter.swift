/// Money as a person in a locale writes it. The rules are our own table, not
/// Foundation's locale data, which is incomplete on some Linux systems:
///
/// - English locales: symbol first, `,` between thousands, `.` before the
///   cents: `$1,234.50`, `£1,234.50`.
/// - fr_CA: `1 234,50 $`, with no-break spaces (U+00A0) between thousands and
///   before the symbol, as CLDR has it.
/// - The locale's own currency takes its bare symbol; another dollar gets its
///   country (`A$`, `CA$`, `NZ$`, `US$` in English; `$ AU`, `$ NZ`, `$ US` in
///   French, with a no-break space), so an amount is never ambiguous. The pound is always `£`.
struct MoneyFormatter: Sendable {
    static let noBreakSpace = "\u{00A0}"

    let locale: CheckoutLocale

    /// Always with the minor digits: `$12.50`, `$50.00`.
    func string(_ money: Money) -> String {
        compose(money, cents: true)
    }

    /// Whole amounts without `.00`, as the original's limits read: `$50`,
    /// `$2,000`, but `$49.99`.
    func limit(_ money: Money) -> String {
        compose(money, cents: money.minorUnits % money.currency.minorUnitsPerMajor != 0)
    }

    func symbol(_ currency: CurrencyCode) -> String {
        if currency == .GBP { return "£" }
        if locale.isFrench {
            switch currency {
            case .CAD: return "$"
            case .AUD: return "$" + Self.noBreakSpace + "AU"
            case .NZD: return "$" + Self.noBreakSpace + "NZ"
            case .USD, .GBP: return "$" + Self.noBreakSpace + "US"
            }
        }
        if currency == locale.homeCurrency { return "$" }
        switch currency {
        case .AUD: return "A$"
        case .CAD: return "CA$"
        case .NZD: return "NZ$"
        case .USD, .GBP: return "US$"
        }
    }

    private func compose(_ money: Money, cents: Bool) -> String {
        let scale = UInt64(money.currency.minorUnitsPerMajor)
        let magnitude = money.minorUnits.magnitude
        var number = grouped(magnitude / scale)
        if cents {
            let minor = String(magnitude % scale)
            number += (locale.isFrench ? "," : ".") + String(repeating: "0", count: money.currency.minorDigits - minor.count) + minor
        }
        let sign = money.minorUnits < 0 ? "-" : ""
        return locale.isFrench
            ? sign + number + Self.noBreakSpace + symbol(money.currency)
            : sign + symbol(money.currency) + number
    }

    private func grouped(_ whole: UInt64) -> String {
        let digits = Array(String(whole))
        let separator = locale.isFrench ? Self.noBreakSpace : ","
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += separator }
            out.append(digit)
        }
        return out
    }
}
