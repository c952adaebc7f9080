/// The currencies the checkout accepts. Every one of them has two minor
/// digits (cents or pence), so one exact integer rule serves them all.
enum CurrencyCode: String, CaseIterable, Sendable {
    case AUD, CAD, GBP, NZD, USD

    static let supportedList = allCases.map(\.rawValue).joined(separator: ", ")

    var minorDigits: Int { 2 }

    var minorUnitsPerMajor: Int64 { 100 }

    /// The largest amount accepted in any field: 9,999,999,999,999.99. Fifteen
    /// significant digits is the most that survives any JSON reader that turns
    /// numbers into doubles, so no consumer of our payloads can round a total.
    var largestMinorUnits: Int64 { 999_999_999_999_999 }

    /// The most digits before the decimal point that can still be in range.
    var maximumIntegerDigits: Int { 13 }
}

/// The locales the checkout formats money, dates and text for.
enum CheckoutLocale: String, CaseIterable, Sendable {
    case en_AU, en_CA, fr_CA, en_GB, en_NZ, en_US

    static let supportedList = allCases.map(\.rawValue).joined(separator: ", ")

    var isFrench: Bool { self == .fr_CA }

    /// Whether money is written `12,50` here (MoneyFormatter), so typed that way too.
    var writesDecimalComma: Bool { isFrench }

    /// The currency whose symbol needs no country prefix here.
    var homeCurrency: CurrencyCode {
        switch self {
        case .en_AU: .AUD
        case .en_CA, .fr_CA: .CAD
        case .en_GB: .GBP
        case .en_NZ: .NZD
        case .en_US: .USD
        }
    }
}
