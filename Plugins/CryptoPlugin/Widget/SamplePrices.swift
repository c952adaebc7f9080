import Foundation

/// Prices the widget makes up, for a first run or a demo without a network
/// (`"source": "sample"`): fixed for each endpoint, and a little apart from
/// one endpoint to the next so the spreads have something to compare. Nothing
/// is fetched, and the screens name them as samples wherever they name a
/// source.
struct SamplePrices: PriceSource {
    static let base: Decimal = 64_250

    func price(from endpoint: Endpoint) -> Result<Decimal, PriceError> {
        let cents = endpoint.url.utf8.reduce(0) { ($0 * 31 + Int($1)) % 4_001 } - 2_000
        return .success(Self.base + Decimal(cents) / 100)
    }
}
