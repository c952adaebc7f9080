import Foundation

/// The widget's screens, as pure functions of its state: the view is bound
/// to the feeds, so whatever changes them shows on the next render.
struct CryptoViews {
    let feeds: [Feed: FeedState]
    /// Nil when the configuration could not be read (every feed then says why).
    let configuration: CryptoConfiguration?
    let now: Int64
    /// The user's time zone, which times are shown in.
    let zone: ZonedTime.Zone
    /// The market's recent good prices, oldest first (PriceHistory).
    var recentPrices: [Quote] = []

    static let exchangesLink = "widget://org.widgethost.crypto/exchanges"

    static func exchangeLink(_ exchange: Exchange) -> String {
        "widget://org.widgethost.crypto/exchange?id=\(exchange.rawValue)"
    }

    // MARK: Screens
    //
    // Each returns the whole screen, declaring an error state (for scripts:
    // `launch --format json` carries it as "error") when its price failed.

    /// `price`: the market price, when it was updated, Retrieve and See Exchanges.
    func price() -> String {
        let state = feeds[.market] ?? FeedState()
        return VStack {
            Text("Bitcoin").style(.title)
            if let configuration {
                Text("BTC in US dollars, from \(configuration.sourceName(.market))").style(.caption)
            }
            if state.fetching == .awaited { Progress("Fetching the price") }
            status(state)
            if recentPrices.count > 1 {
                Chart("Recent prices", points: recentPrices.map { quote in
                    (ZonedTime(milliseconds: quote.at, zone: zone).time, NSDecimalNumber(decimal: quote.price).doubleValue)
                })
            }
            footer([state])
            Button(state.failure == nil ? "Retrieve" : "Retry", action: "retrieve", prominence: .primary)
            Button("See Exchanges", action: "exchanges")
        }.screen(error: Self.unavailable(state))
    }

    /// `exchanges`: each exchange's price and its spread against the others.
    /// Only when every exchange failed is the screen an error: one missing
    /// row still leaves a comparison to read.
    func exchanges() -> String {
        let states = Exchange.allCases.map { feeds[.exchange($0)] ?? FeedState() }
        let prices = currentPrices()
        return VStack {
            Text("Exchanges").style(.title)
            Text("BTC on each exchange, and its spread against the average of the others").style(.caption)
            if states.contains(where: { $0.fetching == .awaited }) { Progress("Fetching exchange prices") }
            List(action: "exchange", rows: Exchange.allCases.map { row($0, prices: prices) })
            widestSpread(prices)
            footer(states)
            Button(states.contains { $0.failure != nil } ? "Retry" : "Refresh", action: "refresh")
        }.screen(error: states.allSatisfy { $0.failure != nil } ? "No exchange price is available" : nil)
    }

    /// `exchange?id=ID`: one exchange in detail.
    func exchange(_ exchange: Exchange) -> String {
        let state = feeds[.exchange(exchange)] ?? FeedState()
        let prices = currentPrices()
        let endpoint = configuration?.endpoint(.exchange(exchange))
        return VStack {
            Text(exchange.name).style(.title)
            Text("\(exchange.pair)" + (configuration.map { ", from \($0.sourceName(.exchange(exchange)))" } ?? "")).style(.caption)
            if state.fetching == .awaited { Progress("Fetching the \(exchange.name) price") }
            // The spread needs the others too: until their first prices are
            // in, the screen is loading, so a scripted run waits for them.
            let peers = Exchange.allCases.filter { $0 != exchange && feeds[.exchange($0)]?.fetching == .awaited }
            if !peers.isEmpty { Progress("Fetching the \(peers.map(\.name).joined(separator: " and ")) price for the spread") }
            status(state)
            if exchange == .binance {
                Text("Binance quotes USDT, a token pegged to the dollar; it is shown in dollars.").style(.caption)
            }
            Section("Spread") {
                for other in Exchange.allCases where other != exchange {
                    Text(comparison(exchange, with: other, prices: prices))
                }
                if let spread = Spread.againstOthers(exchange, prices: prices) {
                    Text("Against the others' average: \(spread.text)")
                }
            }
            if let endpoint, configuration?.sample == false {
                Section("Source") {
                    Text(endpoint.url).style(.monospaced)
                    Text("Reads \(exchange.format.priceField)").style(.caption)
                }
            }
            footer([state])
            Button(state.failure == nil ? "Refresh" : "Retry", action: "refresh", value: exchange.rawValue)
        }.screen(error: Self.unavailable(state, from: exchange.name))
    }

    /// `exchange` with no id, or an id the widget does not know.
    static func unknownExchange(_ id: String?) -> String {
        let problem = id.map { "There is no exchange \(PriceError.quoted($0))." } ?? "No exchange was chosen."
        return VStack {
            Text("Exchange").style(.title)
            Text(problem).color(.negative)
            Text("The exchanges are " + Exchange.allCases.map(\.name).joined(separator: ", ") + ".")
            Link("See Exchanges", to: exchangesLink)
        }.screen(error: problem)
    }

    // MARK: Parts

    /// The error a screen declares when its feed failed: what it shows as
    /// "Price unavailable", with the reason.
    private static func unavailable(_ state: FeedState, from source: String? = nil) -> String? {
        state.failure.map { "Price unavailable" + (source.map { " from \($0)" } ?? "") + ": \($0.reason)" }
    }

    /// A feed's price, or "Price unavailable" with the reason and the last
    /// good price with its age.
    @ViewBuilder
    private func status(_ state: FeedState) -> [View] {
        if let failure = state.failure {
            Text("Price unavailable").style(.headline).color(.negative)
            Text(failure.reason).code(failure.code)
            if let last = state.lastGood {
                Text("Last good price \(MoneyText.dollars(last.price)), updated \(TimeText.updated(last.at, now: now, zone: zone))").style(.caption)
            } else {
                Text("No price has been retrieved yet.").style(.caption)
            }
            if case .configuration = failure {
                Text("Fix the widget's configuration and launch it again.").style(.caption)
            }
        } else if let quote = state.lastGood, state.isStale {
            Text(MoneyText.dollars(quote.price)).style(.headline).color(.secondary)
            Text("Stale: last known price, updated \(TimeText.updated(quote.at, now: now, zone: zone))").style(.caption)
        } else if let quote = state.lastGood {
            Text(MoneyText.dollars(quote.price)).style(.headline).color(.positive)
            Text("Updated \(TimeText.updated(quote.at, now: now, zone: zone))").style(.caption)
        } else if state.fetching != .awaited {
            // Only before the first load (the loading indicator covers that).
            Text("No price yet.").color(.secondary)
        }
    }

    /// Refresh in progress and the refresh interval.
    @ViewBuilder
    private func footer(_ states: [FeedState]) -> [View] {
        if states.contains(where: { $0.fetching == .quiet }) { Text("Refreshing…").style(.caption) }
        if let configuration {
            Text(configuration.sample ? "Sample prices do not change: refreshed only when asked"
                     : "Refreshes every \(configuration.refreshSeconds) s while shown").style(.caption)
        }
    }

    private func row(_ exchange: Exchange, prices: [Exchange: Decimal]) -> Row {
        let state = feeds[.exchange(exchange)] ?? FeedState()
        if let failure = state.failure {
            let last = state.lastGood.map { ", last \(MoneyText.dollars($0.price)) \(TimeText.age(from: $0.at, to: now))" } ?? ""
            let cells = [Text("unavailable").align(.trailing).code(failure.code), Text(last.isEmpty ? "" : String(last.dropFirst(2)))]
            return Row(id: exchange.rawValue, title: exchange.name, detail: "Price unavailable: \(failure.reason)\(last)",
                       badge: exchange.pair, cells: cells, disclosure: true)
        }
        guard let price = prices[exchange] else {
            return Row(id: exchange.rawValue, title: exchange.name, detail: "Fetching…", badge: exchange.pair, cells: [Text("Fetching…")],
                       disclosure: true)
        }
        let spread = Spread.againstOthers(exchange, prices: prices)
        // The detail is what hosts that predate row cells show; the cells put price and spread in columns.
        let detail = MoneyText.dollars(price) + (spread.map { "  \($0.text) vs others" } ?? "  no other price to compare")
        let cells = [Text(MoneyText.dollars(price)).align(.trailing), Text(spread?.text ?? "no other price").align(.trailing)]
        return Row(id: exchange.rawValue, title: exchange.name, detail: detail, badge: exchange.pair, cells: cells, disclosure: true)
    }

    @ViewBuilder
    private func widestSpread(_ prices: [Exchange: Decimal]) -> [View] {
        if let widest = Spread.widest(prices) {
            if widest.spread.amount == 0 {
                Text("Every exchange with a price shows the same one.").style(.caption)
            } else {
                Text("Widest spread \(MoneyText.dollars(widest.spread.amount)) (\(MoneyText.percentText(widest.spread.percent))): "
                    + "\(widest.high.name) highest, \(widest.low.name) lowest").style(.caption)
            }
        } else {
            Text("A spread needs prices from at least two exchanges.").style(.caption)
        }
    }

    private func comparison(_ exchange: Exchange, with other: Exchange, prices: [Exchange: Decimal]) -> String {
        guard let price = prices[exchange] else { return "Against \(other.name): needs a \(exchange.name) price" }
        guard let theirs = prices[other] else { return "Against \(other.name): no \(other.name) price" }
        return "Against \(other.name) (\(MoneyText.dollars(theirs))): \(Spread(price, against: theirs).text)"
    }

    private func currentPrices() -> [Exchange: Decimal] {
        var prices: [Exchange: Decimal] = [:]
        for exchange in Exchange.allCases {
            if let quote = feeds[.exchange(exchange)]?.current { prices[exchange] = quote.price }
        }
        return prices
    }
}

extension TickerFormat {
    /// Where the price is read from, in words.
    var priceField: String {
        switch self {
        case .coincap: "data.priceUsd"
        case .coinbase: "data.amount"
        case .kraken: "result.XXBTZUSD.c[0], the last trade"
        case .binance: "price"
        case .auto: "whichever of data.priceUsd, data.amount, result.XXBTZUSD.c[0] or price the response has"
        }
    }
}
