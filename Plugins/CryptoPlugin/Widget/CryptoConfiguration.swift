import Foundation

/// The widget's settings, from its section of the host's configuration:
///
///     { "plugins": { "crypto": { "priceURL": "https://…", "refreshSeconds": 30 } } }
///
/// Every key is optional; a key of the wrong type or out of range is a
/// configuration error the screen shows, rather than a silent default.
struct CryptoConfiguration: Equatable, Sendable {
    var price = Endpoint(url: Self.defaultPriceURL, format: .auto)
    var exchanges: [Exchange: Endpoint] = Dictionary(uniqueKeysWithValues: Exchange.allCases.map {
        ($0, Endpoint(url: $0.defaultURL, format: $0.format))
    })
    var refreshSeconds = 30
    var timeoutMilliseconds: UInt32 = 5000
    var maxResponseBytes = 64 << 10
    /// `"source": "sample"`: made-up prices from the widget itself, for a
    /// first run or a demo offline; every screen says they are samples.
    var sample = false

    /// The market price comes from Coinbase's spot price, which needs no key.
    /// The original widget read CoinCap's v2 API, which CoinCap has since
    /// retired in favour of a keyed v3; its shape is still read (`priceFormat`
    /// `coincap`, or `auto`) for any endpoint that still speaks it.
    static let defaultPriceURL = "https://api.coinbase.com/v2/prices/BTC-USD/spot"

    static let refreshRange = 1...86_400
    static let timeoutRange = 100...60_000
    static let sizeRange = 256...(16 << 20)

    /// The keys the widget reads; anything else is probably a typo, and is logged.
    static var knownKeys: [String] {
        ["source", "priceURL", "priceFormat", "refreshSeconds", "timeoutSeconds", "maxResponseBytes"] + Exchange.allCases.map(\.configKey)
    }

    func endpoint(_ feed: Feed) -> Endpoint {
        switch feed {
        case .market: price
        case let .exchange(exchange): exchanges[exchange]!
        }
    }

    /// Where a feed's price comes from, as the screens name it.
    func sourceName(_ feed: Feed) -> String {
        sample ? "sample data, not a market price" : endpoint(feed).hostName
    }

    static func read(_ section: JSONValue) -> Result<CryptoConfiguration, PriceError> {
        var configuration = CryptoConfiguration()
        do throws(PriceError) {
            switch try string(section, "source") {
            case nil, "network": break
            case "sample": configuration.sample = true
            case let other?: throw .configuration("source must be network or sample, not \(PriceError.quoted(other))")
            }
            if let url = try string(section, "priceURL") { configuration.price = Endpoint(url: url, format: configuration.price.format) }
            if let name = try string(section, "priceFormat") {
                guard let format = TickerFormat(rawValue: name) else {
                    let names = TickerFormat.allCases.map(\.rawValue).joined(separator: ", ")
                    throw .configuration("priceFormat must be one of \(names), not \(PriceError.quoted(name))")
                }
                configuration.price = Endpoint(url: configuration.price.url, format: format)
            }
            for exchange in Exchange.allCases {
                if let url = try string(section, exchange.configKey) {
                    configuration.exchanges[exchange] = Endpoint(url: url, format: exchange.format)
                }
            }
            if let seconds = try number(section, "refreshSeconds", wholeUnits: 1, range: refreshRange) {
                configuration.refreshSeconds = seconds
            }
            if let milliseconds = try number(section, "timeoutSeconds", wholeUnits: 1000, range: timeoutRange) {
                configuration.timeoutMilliseconds = UInt32(milliseconds)
            }
            if let bytes = try number(section, "maxResponseBytes", wholeUnits: 1, range: sizeRange) {
                configuration.maxResponseBytes = bytes
            }
        } catch {
            return .failure(error)
        }
        return .success(configuration)
    }

    static func unknownKeys(in section: JSONValue) -> [String] {
        guard case let .object(members) = section else { return [] }
        return members.map(\.0).filter { !knownKeys.contains($0) }
    }

    private static func string(_ section: JSONValue, _ key: String) throws(PriceError) -> String? {
        guard let value = section[key] else { return nil }
        guard let text = value.string, !text.isEmpty else {
            throw .configuration("\(key) must be a non-empty string, not \(value.serialized)")
        }
        return text
    }

    /// A number of seconds (or bytes) as a whole count of `1/wholeUnits`:
    /// `timeoutSeconds` 2.5 is 2500 ms. Read from the literal's digits, never
    /// through a float.
    private static func number(_ section: JSONValue, _ key: String, wholeUnits: Int, range: ClosedRange<Int>) throws(PriceError) -> Int? {
        guard let value = section[key] else { return nil }
        let unit = wholeUnits == 1000 ? " seconds" : ""
        let limits = "from \(Decimal(range.lowerBound) / Decimal(wholeUnits)) to \(Decimal(range.upperBound) / Decimal(wholeUnits))\(unit)"
        let problem = PriceError.configuration("\(key) must be a number \(limits), not \(value.serialized)")
        guard case let .number(literal) = value, let decimal = TickerFormat.decimal(literal) else { throw problem }
        let scaled = decimal * Decimal(wholeUnits)
        guard scaled >= Decimal(range.lowerBound), scaled <= Decimal(range.upperBound) else { throw problem }
        var rounded = Decimal()
        var source = scaled
        NSDecimalRound(&rounded, &source, 0, .plain)
        guard rounded == scaled else { throw problem }
        return NSDecimalNumber(decimal: rounded).intValue
    }
}
