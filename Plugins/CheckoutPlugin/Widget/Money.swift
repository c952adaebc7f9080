/// An amount as a whole number of the currency's minor units: exact integer
/// arithmetic, never binary floating point.
struct Money: Equatable, Sendable {
    let minorUnits: Int64
    let currency: CurrencyCode

    /// "1234.50": the canonical text used in payloads and in the checksum.
    var decimalText: String {
        let scale = currency.minorUnitsPerMajor
        let magnitude = minorUnits.magnitude
        let minor = String(magnitude % UInt64(scale))
        let padding = String(repeating: "0", count: currency.minorDigits - minor.count)
        return (minorUnits < 0 ? "-" : "") + "\(magnitude / UInt64(scale))." + padding + minor
    }

    /// The original SDK's Money: `{"amount": "50.00", "currency": "USD"}`.
    var json: JSONValue {
        ["amount": .string(decimalText), "currency": .string(currency.rawValue)]
    }
}
