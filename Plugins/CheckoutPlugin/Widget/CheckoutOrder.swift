/// A completed checkout, as the app stores it in the shared container under
/// `checkout.orders.TOKEN`:
///
///     { "status": "completed", "amount": "200.00", "currency": "USD",
///       "merchantReference": "order-1001" }
///
/// `status`, `amount` (a string or number with at most two decimals) and
/// `currency` are required; `merchantReference` (1 to 100 characters) and
/// `token` (which must then equal the key's token) are optional. Any other
/// key, or a value of the wrong kind, makes the order invalid: the widget
/// shows nothing it had to guess.
struct CheckoutOrder: Equatable, Sendable {
    static let keyPrefix = "checkout.orders."
    static let maximumBytes = 64 << 10
    static let knownKeys = ["status", "amount", "currency", "merchantReference", "token"]

    let token: String
    let amount: Money
    let merchantReference: String?

    static func storeKey(_ token: String) -> String { keyPrefix + token }

    /// A token is 1 to 64 ASCII letters, digits, `-` or `_`: it becomes one
    /// segment of a store key, so it can never name another key. A JSON
    /// number counts by its literal text, since `--set checkout.token=12345`
    /// reads as one.
    static func token(from value: JSONValue) -> Result<String, CheckoutIssue> {
        guard let text = AmountParser.text(of: value), (1...64).contains(text.utf8.count), text.utf8.allSatisfy({ byte in
            (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 45 || byte == 95
        }) else {
            return .failure(CheckoutIssue(.malformedToken, CheckoutText.malformedToken(CheckoutText.shown(value))))
        }
        return .success(text)
    }

    /// Looks the token up and checks the stored order. A store that cannot be
    /// read is `storeUnavailable`, an internal failure rather than a bad token.
    static func load(token: String, currency: CurrencyCode, from host: Host) -> Result<CheckoutOrder, CheckoutIssue> {
        let key = storeKey(token)
        let found: [UInt8]?
        do { found = try host.storeGet(key) } catch {
            return .failure(CheckoutIssue(.storeUnavailable, CheckoutText.storeUnavailable(key: key, reason: "\(error)")))
        }
        guard let bytes = found else { return .failure(CheckoutIssue(.unknownToken, CheckoutText.unknownToken(token, key: key))) }
        return parse(bytes, token: token, currency: currency)
    }

    static func parse(_ bytes: [UInt8], token: String, currency: CurrencyCode) -> Result<CheckoutOrder, CheckoutIssue> {
        let key = storeKey(token)
        func invalid(_ detail: String) -> Result<CheckoutOrder, CheckoutIssue> {
            .failure(CheckoutIssue(.invalidOrder, CheckoutText.invalidOrder(key: key, detail: detail)))
        }
        guard bytes.count <= maximumBytes else { return invalid("it is over \(maximumBytes / 1024) KiB") }
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch { return invalid("not JSON (\(error))") }
        guard case let .object(members) = json else { return invalid("it must be a JSON object") }
        if let unknown = members.first(where: { !knownKeys.contains($0.0) }) {
            return invalid("unknown key \"\(CheckoutText.clip(unknown.0))\"; the keys are \(knownKeys.joined(separator: ", "))")
        }
        if let stored = json["token"], stored != .string(token) {
            return invalid("its token \(CheckoutText.shown(stored)) is not \"\(token)\"")
        }
        guard let status = json["status"] else { return invalid("status is missing") }
        guard let statusText = status.string else { return invalid("status must be a string, not \(CheckoutText.shown(status))") }
        guard let currencyValue = json["currency"] else { return invalid("currency is missing") }
        guard let currencyText = currencyValue.string, let orderCurrency = CurrencyCode(rawValue: currencyText) else {
            return invalid("currency \(CheckoutText.shown(currencyValue)) is not one of \(CurrencyCode.supportedList)")
        }
        guard let amountValue = json["amount"] else { return invalid("amount is missing") }
        guard let amountText = AmountParser.text(of: amountValue) else {
            return invalid("amount must be a string or a number, not \(CheckoutText.shown(amountValue))")
        }
        let units: Int64
        switch AmountParser.parse(amountText, currency: orderCurrency) {
        case let .success(value): units = value
        case let .failure(problem):
            return invalid("amount \(CheckoutText.shown(amountValue)) is not valid: \(CheckoutText.reason(problem, orderCurrency))")
        }
        var reference: String?
        if let value = json["merchantReference"] {
            guard let text = value.string, (1...100).contains(text.count),
                  !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                return invalid("merchantReference must be 1 to 100 printable characters")
            }
            reference = text
        }
        guard statusText == "completed" else {
            return .failure(CheckoutIssue(.orderNotCompleted, CheckoutText.orderNotCompleted(token, status: CheckoutText.shown(status))))
        }
        guard orderCurrency == currency else {
            return .failure(CheckoutIssue(.currencyMismatch, CheckoutText.currencyMismatch(token, order: orderCurrency, configured: currency)))
        }
        return .success(CheckoutOrder(token: token, amount: Money(minorUnits: units, currency: orderCurrency), merchantReference: reference))
    }
}
