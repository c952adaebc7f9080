import PluginABI

@_cdecl("widget_host_entry")
public func widgetHostEntry() -> UnsafePointer<wh_plugin_descriptor>? {
    exportWidget(manifest: wh_manifest_json()) { CryptoWidget(host: $0) }
}

/// The banking app's crypto widget: a live Bitcoin price, and the exchanges
/// that trade it with their spreads.
///
/// Each price is a feed (`FeedState`) the screens are bound to. Fetches run
/// off the host's thread (`PriceFetcher`) and land on it at the start of the
/// next call, which the fetcher asks the host to make; so the state needs no
/// lock. A shown screen refreshes its feeds every `refreshSeconds`, counted
/// from the end of the last attempt, and asks the clock to wake it then.
final class CryptoWidget: Widget {
    private let host: Host
    private let configuration: CryptoConfiguration?
    private let fetcher: PriceFetcher?
    private var feeds: [Feed: FeedState] = [:]
    /// The wake-up already asked of the clock, so each is asked once.
    private var wakeRequested: Int64?
    /// The market price kept across restarts, and the recent ones the price screen charts. Nil on the sample source: a
    /// made-up price kept there would come back on a later run from the network, and through the contract to Ticker,
    /// as the last real one; and a real one kept from earlier has no place among the samples.
    private let savedPrice: SavedPrice?
    private let history: PriceHistory?
    private var recentPrices: [Quote] = []

    private static let allExchanges = Exchange.allCases.map(Feed.exchange)

    init(host: Host) {
        self.host = host
        let section = host.configuration
        for key in CryptoConfiguration.unknownKeys(in: section) {
            host.log(.warning, "ignoring unknown configuration key \"\(key)\"; the keys are \(CryptoConfiguration.knownKeys.joined(separator: ", "))")
        }
        switch CryptoConfiguration.read(section) {
        case let .success(configuration):
            self.configuration = configuration
            fetcher = PriceFetcher(source: PriceSources.resolve(host, configuration), host: host)
            savedPrice = configuration.sample ? nil : SavedPrice(host: host)
            history = configuration.sample ? nil : PriceHistory(host: host)
            if let quote = savedPrice?.load() { feeds[.market, default: FeedState()].restore(quote) }
            recentPrices = history?.load() ?? []
        case let .failure(error):
            host.log(.error, error.reason)
            configuration = nil
            fetcher = nil
            savedPrice = nil
            history = PriceHistory(host: host)
            recentPrices = history?.load() ?? []
            // No feed can work; each shows why instead of fetching.
            for feed in [Feed.market] + Self.allExchanges { feeds[feed, default: FeedState()].failure = error }
        }
    }

    deinit {
        // The host frees its wh_host after destroy; no fetch may outlive it.
        if let fetcher, let configuration, !fetcher.waitForAll(milliseconds: Int(configuration.timeoutMilliseconds) + 2000) {
            host.log(.error, "a price fetch outlived its timeout at destroy")
        }
    }

    func render(screen: String, params: JSONValue) throws(WidgetError) -> String {
        collect()
        let now = host.nowMilliseconds ?? 0
        switch screen {
        case "price":
            refreshIfDue([.market], now: now)
            return views(now).price()
        case "exchanges":
            refreshIfDue(Self.allExchanges, now: now)
            return views(now).exchanges()
        case "exchange":
            let id = params["id"]?.string
            guard let exchange = id.flatMap(Exchange.init(rawValue:)) else { return CryptoViews.unknownExchange(id) }
            // The detail compares with the others, so all three stay fresh.
            refreshIfDue(Self.allExchanges, now: now)
            return views(now).exchange(exchange)
        default:
            throw .unknownScreen(screen)
        }
    }

    /// A card keeps the price fresh as the price screen does.
    func card(size: CardSize) throws(WidgetError) -> String? {
        collect()
        let now = host.nowMilliseconds ?? 0
        refreshIfDue([.market], now: now)
        return views(now).card(size: size)
    }

    func handle(action: String, value: String?) throws(WidgetError) {
        collect()
        switch action {
        case "retrieve":
            fetch([.market], awaited: true)
        case "refresh":
            // No value: the exchanges screen's button, for all of them.
            if let value {
                guard let exchange = Exchange(rawValue: value) else { throw .invalidValue("no exchange \"\(value)\"") }
                fetch([.exchange(exchange)], awaited: true)
            } else {
                fetch(Self.allExchanges, awaited: true)
            }
        case "exchanges":
            try navigate(to: CryptoViews.exchangesLink)
        case "exchange":
            guard let value, let exchange = Exchange(rawValue: value) else {
                throw .invalidValue("choose an exchange: " + Exchange.allCases.map(\.rawValue).joined(separator: ", "))
            }
            try navigate(to: CryptoViews.exchangeLink(exchange))
        default:
            throw .unknownAction(action)
        }
    }

    /// The host's refresh (the `r` key): the feeds of the screen shown, fetched now.
    func refresh(screen: String) throws(WidgetError) {
        collect()
        fetch(screen == "price" ? [.market] : Self.allExchanges, awaited: true)
    }

    /// The contract other widgets may ask (contract.h; declared in the
    /// manifest's "contracts.provides"): the Bitcoin price as this widget
    /// knows it. Asking keeps the price fresh as showing the price screen
    /// does: the first ask fetches, later ones refresh every `refreshSeconds`,
    /// and the clock wakes the host when the next is due, so the asker is
    /// drawn again and asks again.
    static let priceContract = "org.widgethost.crypto.price/1"

    func query(_ id: String) throws(WidgetError) -> String {
        guard id == Self.priceContract else { throw .unknownQuery(id) }
        collect()
        refreshIfDue([.market], now: host.nowMilliseconds ?? 0)
        let state = feeds[.market] ?? FeedState()
        let fetching = state.fetching != nil
        // A price kept from the last run is not offered while the first fetch is out: the asker waits for a fresh one.
        let known = state.isStale && fetching ? nil : state.lastGood
        let answer: JSONValue = [
            "currency": "USD",
            "price": known.map { .string("\($0.price)") } ?? .null,
            "at": known.map { .number(String($0.at)) } ?? .null,
            "fetching": .bool(fetching),
            "error": state.failure.map { .string($0.reason) } ?? .null,
            "sample": .bool(configuration?.sample ?? false),
        ]
        return answer.serialized
    }

    private func views(_ now: Int64) -> CryptoViews {
        CryptoViews(feeds: feeds, configuration: configuration, now: now, zone: host.timeZone(atMilliseconds: now), recentPrices: recentPrices)
    }

    /// Navigation is a bus event (`nav.push`) that the host's navigator routes.
    private func navigate(to link: String) throws(WidgetError) {
        do { try host.push(link) } catch {
            host.log(.warning, "cannot open \(link): \(error)")
            throw .failed("\(error)")
        }
    }

    // MARK: Fetching

    /// Applies the results that arrived since the last call.
    private func collect() {
        guard let fetcher else { return }
        for delivery in fetcher.deliveries() {
            let now = host.nowMilliseconds ?? 0
            feeds[delivery.feed, default: FeedState()].settle(delivery.result, at: now)
            if delivery.feed == .market, case .success = delivery.result, let quote = feeds[.market]?.lastGood {
                do { try savedPrice?.save(quote) } catch { host.log(.warning, "the last price was not kept for the next run: \(error)") }
                let recent = PriceHistory.appending(quote, to: recentPrices)
                if recent != recentPrices {
                    recentPrices = recent
                    do { try history?.save(recent) } catch { host.log(.warning, "the recent prices were not kept for the next run: \(error)") }
                }
            }
            let url = configuration?.endpoint(delivery.feed).url ?? "?"
            switch delivery.result {
            case let .success(price): host.log(.debug, "\(url): \(price)")
            case let .failure(error): host.log(.warning, "price unavailable from \(url): \(error.reason)")
            }
        }
    }

    /// Starts fetching each feed not already being fetched. `awaited` marks
    /// a fetch someone asked for, which the screen shows as loading.
    private func fetch(_ targets: [Feed], awaited: Bool) {
        guard let fetcher, let configuration else { return }
        for feed in targets {
            let idle = feeds[feed]?.fetching == nil
            feeds[feed, default: FeedState()].start(awaited: awaited)
            if idle { fetcher.fetch(feed, from: configuration.endpoint(feed)) }
        }
    }

    /// The shown screen's automatic refresh: a feed never tried is fetched
    /// as awaited (the first load); one whose interval has passed, quietly.
    /// Then the clock is asked to wake the widget when the next one is due
    /// (never for the sample source, which has nothing new to fetch).
    private func refreshIfDue(_ targets: [Feed], now: Int64) {
        guard let configuration else { return }
        let interval = Int64(configuration.refreshSeconds) * 1000
        var nextDue: Int64?
        for feed in targets {
            let state = feeds[feed] ?? FeedState()
            guard state.fetching == nil else { continue }
            guard let settled = state.settledAt else {
                fetch([feed], awaited: true)
                continue
            }
            // Sample prices never change: fetched once, then only when asked (Refresh, the `r` key), with no timer.
            if configuration.sample { continue }
            if now - settled >= interval {
                fetch([feed], awaited: false)
            } else {
                nextDue = min(nextDue ?? .max, settled + interval)
            }
        }
        if let nextDue, wakeRequested.map({ $0 <= now || $0 > nextDue }) ?? true {
            wakeRequested = nextDue
            host.wake(atMilliseconds: nextDue)
        }
    }
}
