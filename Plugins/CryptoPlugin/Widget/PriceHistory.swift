import Foundation

/// The market's recent good prices, oldest first, kept across restarts in
/// the widget's own state (`crypto.recentPrices`) for the price screen's
/// chart. A price equal to the one before, fetched within a minute of it,
/// is one point: a refresh every few seconds must not flatten the line.
struct PriceHistory {
    static let capacity = 48
    let state: WidgetState

    init(host: Host) { state = WidgetState(host: host, key: "crypto.recentPrices") }

    /// What was kept; entries that are not a price and a time are skipped.
    func load() -> [Quote] {
        (state.load()?.array ?? []).compactMap { entry in
            guard let text = entry["price"]?.string, let at = entry["at"]?.int64,
                  let price = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { return nil }
            return Quote(price: price, at: at)
        }.suffix(Self.capacity)
    }

    /// `quotes` with `quote` after them, at most `capacity` of them.
    static func appending(_ quote: Quote, to quotes: [Quote]) -> [Quote] {
        if let last = quotes.last, last.price == quote.price, quote.at - last.at < 60_000 { return quotes }
        return Array((quotes + [quote]).suffix(capacity))
    }

    func save(_ quotes: [Quote]) throws(Host.StoreFailure) {
        try state.save(.array(quotes.map { ["price": .string($0.price.description), "at": .number(String($0.at))] }))
    }
}
