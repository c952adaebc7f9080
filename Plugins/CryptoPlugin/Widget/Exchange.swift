/// The exchanges the widget compares. Each has its own public, keyless
/// ticker and its own response shape (`TickerFormat`).
enum Exchange: String, CaseIterable, Sendable {
    case coinbase, kraken, binance

    var name: String {
        switch self {
        case .coinbase: "Coinbase"
        case .kraken: "Kraken"
        case .binance: "Binance"
        }
    }

    /// The market the ticker quotes, as the exchange names it. Binance has
    /// no BTC/USD book for most of the world, so it quotes the USDT dollar
    /// token; the widget shows it in dollars and says so.
    var pair: String {
        switch self {
        case .coinbase: "BTC-USD"
        case .kraken: "XBT/USD"
        case .binance: "BTC/USDT"
        }
    }

    var format: TickerFormat {
        switch self {
        case .coinbase: .coinbase
        case .kraken: .kraken
        case .binance: .binance
        }
    }

    /// The configuration key that overrides the ticker's URL.
    var configKey: String { rawValue + "URL" }

    var defaultURL: String {
        switch self {
        case .coinbase: "https://api.coinbase.com/v2/prices/BTC-USD/spot"
        case .kraken: "https://api.kraken.com/0/public/Ticker?pair=XBTUSD"
        case .binance: "https://api.binance.com/api/v3/ticker/price?symbol=BTCUSDT"
        }
    }
}

/// A price to keep: the market price on the main screen, or one exchange's.
enum Feed: Hashable, Sendable {
    case market
    case exchange(Exchange)
}

/// Where a feed's price comes from and how to read it.
struct Endpoint: Equatable, Sendable {
    let url: String
    let format: TickerFormat

    /// The host part of the URL, to name the source on screen.
    var hostName: String {
        let rest = url.firstRange(of: "://").map { url[$0.upperBound...] } ?? url[...]
        return String(rest.prefix { $0 != "/" && $0 != "?" })
    }
}
