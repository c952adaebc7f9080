import Foundation

/// How exchanges' prices differ, in dollars and as a percentage. Only
/// exchanges whose latest attempt gave a price take part: comparing with a
/// stale price would show a spread that no longer exists.
struct Spread: Equatable {
    let amount: Decimal
    /// The amount as a percentage of what it is measured against.
    let percent: Decimal

    init(_ price: Decimal, against reference: Decimal) {
        amount = price - reference
        percent = MoneyText.percent(amount, of: reference)
    }

    /// `+$5.20 (+0.01%)`.
    var text: String { "\(MoneyText.signedDollars(amount)) (\(MoneyText.signedPercent(percent)))" }

    /// One exchange against the average of the others; nil with no other price.
    static func againstOthers(_ exchange: Exchange, prices: [Exchange: Decimal]) -> Spread? {
        guard let price = prices[exchange] else { return nil }
        let others = prices.filter { $0.key != exchange }.map(\.value)
        guard !others.isEmpty else { return nil }
        return Spread(price, against: others.reduce(0, +) / Decimal(others.count))
    }

    /// The widest gap: the highest price against the lowest; nil under two prices.
    static func widest(_ prices: [Exchange: Decimal]) -> (low: Exchange, high: Exchange, spread: Spread)? {
        // Exchange order breaks ties, so equal prices always name the same pair.
        let sorted = Exchange.allCases.compactMap { exchange in prices[exchange].map { (exchange, $0) } }
        guard sorted.count >= 2, let low = sorted.min(by: { $0.1 < $1.1 }), let high = sorted.max(by: { $0.1 < $1.1 }) else {
            return nil
        }
        return (low.0, high.0, Spread(high.1, against: low.1))
    }
}
