import Foundation

/// The response shapes the widget reads a BTC price from. Every price is a
/// decimal string in these APIs (so that no one rounds it through a binary
/// float); a bare JSON number is read from its literal text just the same.
enum TickerFormat: String, CaseIterable, Sendable {
    /// CoinCap v2, `/v2/assets/bitcoin`: `{"data": {"priceUsd": "43210.55…"}}`.
    case coincap
    /// Coinbase, `/v2/prices/BTC-USD/spot`: `{"data": {"amount": "43210.55", "base": "BTC", "currency": "USD"}}`.
    case coinbase
    /// Kraken, `/0/public/Ticker?pair=XBTUSD`:
    /// `{"error": [], "result": {"XXBTZUSD": {"c": ["43210.10000", "0.0015"], …}}}`;
    /// `c` is the last trade, price then volume.
    case kraken
    /// Binance, `/api/v3/ticker/price?symbol=BTCUSDT`: `{"symbol": "BTCUSDT", "price": "43210.55000000"}`.
    case binance
    /// Whichever of the above the response turns out to be.
    case auto

    /// Reads the price out of a 2xx response body.
    func price(from body: [UInt8]) -> Result<Decimal, PriceError> {
        let json: JSONValue
        do { json = try JSONParser.parse(body) } catch { return .failure(.malformedJSON(error.description)) }
        if let message = Self.errorMessage(in: json) { return .failure(.exchangeError(message)) }
        let (field, value) = locate(in: json)
        guard let value else { return .failure(.missingField(field)) }
        return Self.price(value, field: field)
    }

    /// Where this format keeps the price, and the value there if any.
    private func locate(in json: JSONValue) -> (field: String, value: JSONValue?) {
        switch self {
        case .coincap:
            return ("data.priceUsd", json["data"]?["priceUsd"])
        case .coinbase:
            return ("data.amount", json["data"]?["amount"])
        case .binance:
            return ("price", json["price"])
        case .kraken:
            guard case let .object(pairs)? = json["result"] else { return ("result", nil) }
            // The key names the pair as Kraken spells it (XXBTZUSD for XBTUSD);
            // a ticker for one pair has one member, whatever the URL asked for.
            guard let (key, ticker) = pairs.first(where: { $0.0 == "XXBTZUSD" }) ?? (pairs.count == 1 ? pairs[0] : nil) else {
                return ("result.XXBTZUSD", nil)
            }
            let field = "result.\(key).c[0]"
            return (field, ticker["c"]?.array?.first)
        case .auto:
            let shapes: [(TickerFormat, Bool)] = [
                (.coincap, json["data"]?["priceUsd"] != nil),
                (.coinbase, json["data"]?["amount"] != nil),
                (.kraken, json["result"] != nil),
                (.binance, json["price"] != nil),
            ]
            guard let shape = shapes.first(where: { $0.1 })?.0 else {
                return ("price field (data.priceUsd, data.amount, result.XXBTZUSD.c[0] or price)", nil)
            }
            return shape.locate(in: json)
        }
    }

    /// A price from a string or number, refusing anything that is not a
    /// plain positive decimal.
    static func price(_ value: JSONValue, field: String) -> Result<Decimal, PriceError> {
        let text: String
        switch value {
        case let .string(string): text = string
        case let .number(literal): text = literal
        default: return .failure(.notNumeric(field: field, text: value.serialized))
        }
        guard let decimal = decimal(text) else { return .failure(.notNumeric(field: field, text: text)) }
        guard decimal > 0 else { return .failure(.notPositive(field: field, text: text)) }
        return .success(decimal)
    }

    /// Parses `-?digits[.digits][e[+-]digits]` exactly, or nil.
    /// Foundation's own parser stops at the first bad character and returns
    /// what it read so far ("12abc" is 12), so the grammar is checked first.
    static func decimal(_ text: String) -> Decimal? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 64 else { return nil }
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - start
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard digits() > 0 else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return nil }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return nil }
        }
        guard index == bytes.count,
              let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !value.isNaN else { return nil }
        return value
    }

    /// The error an API put in its body, if it says it failed: Kraken's
    /// `error` array, Coinbase's `errors`, Binance's `msg`, CoinCap's `error`.
    static func errorMessage(in json: JSONValue) -> String? {
        let message: String?
        if let errors = json["error"]?.array, !errors.isEmpty {
            message = errors.map { $0.string ?? $0.serialized }.joined(separator: "; ")
        } else if let text = json["error"]?.string, !text.isEmpty {
            message = text
        } else if let errors = json["errors"]?.array, !errors.isEmpty {
            message = errors.map { $0["message"]?.string ?? $0.serialized }.joined(separator: "; ")
        } else if json["price"] == nil, let text = json["msg"]?.string {
            message = text
        } else {
            message = nil
        }
        return message.map(printable)
    }

    /// Server text made safe to show: one line, no control characters, short.
    static func printable(_ text: String) -> String {
        let line = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
        return line.count > 120 ? String(line.prefix(120)) + "…" : line
    }
}
