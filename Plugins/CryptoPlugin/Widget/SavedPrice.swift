import Foundation

/// The last good market price with its time, kept across restarts in the
/// widget's own state (`crypto.lastPrice`), so that a restart shows it, as
/// stale with its age, until a fetch replaces it.
struct SavedPrice {
    let state: WidgetState

    init(host: Host) { state = WidgetState(host: host, key: "crypto.lastPrice") }

    /// The saved quote; nil when none was saved or what was found is not one.
    func load() -> Quote? {
        guard let saved = state.load(), let text = saved["price"]?.string, let at = saved["at"]?.int64,
              let price = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { return nil }
        return Quote(price: price, at: at)
    }

    func save(_ quote: Quote) throws(Host.StoreFailure) {
        try state.save(["price": .string(quote.price.description), "at": .number(String(quote.at))])
    }
}
