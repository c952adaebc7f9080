/// The dashboard cards: the market price and its age at a glance, or
/// "unavailable" with the last good price. The medium card names the
/// source, the large one adds each exchange's price as last fetched; all
/// show a fetch in progress without hiding the price.
extension CryptoViews {
    func card(size: CardSize) -> String {
        let state = feeds[.market] ?? FeedState()
        return VStack {
            if let quote = state.lastGood {
                Text("BTC " + MoneyText.dollars(quote.price)).style(.headline).color(state.failure == nil ? .positive : .secondary)
                // A sample price has no age worth telling (it never changes, and is not refreshed by itself).
                Text(configuration?.sample == true ? "sample price" : TimeText.age(from: quote.at, to: now)).style(.caption)
            } else if state.fetching == .awaited {
                Progress("Fetching the price")
            }
            if let failure = state.failure {
                Text("Price unavailable").color(.negative)
                if size != .small { Text(failure.reason).style(.caption) }
            } else if state.lastGood == nil, state.fetching != .awaited {
                Text("No price yet.").color(.secondary)
            }
            if size != .small, let configuration { Text("BTC in US dollars, from \(configuration.sourceName(.market))").style(.caption) }
            if size == .large {
                // A large card has room for the exchanges, as far as they were fetched (the card fetches none itself).
                Section("Exchanges") {
                    for exchange in Exchange.allCases {
                        Text(exchange.name + ": " + (feeds[.exchange(exchange)]?.lastGood.map { MoneyText.dollars($0.price) } ?? "not fetched yet"))
                            .style(.caption)
                    }
                }
            }
        }.screen(error: state.failure.map { "Price unavailable: \($0.reason)" })
    }
}
