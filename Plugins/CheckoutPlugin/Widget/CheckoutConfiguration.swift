/// The two style switches of the original widget; both default to on.
/// The logo is Afterpay's picture, which the host fetches from a host the
/// manifest grants (the terminal shows its alt text).
struct CheckoutStyle: Equatable, Sendable {
    static let afterpayLogo = "https://static.afterpay.com/integration/product-page/logo-afterpay-colour.png"
    var logo = true
    var heading = true
    var logoURL = Self.afterpayLogo

    /// The configuration section, then the screen params, override the
    /// defaults key by key. A value other than true or false is refused with
    /// `invalidStyle`, never guessed at.
    func overridden(by values: JSONValue) -> (CheckoutStyle, [CheckoutIssue]) {
        var style = self
        var issues: [CheckoutIssue] = []
        for key in ["logo", "heading"] {
            switch CheckoutConfiguration.flag(key, values[key]) {
            case let .success(value?): if key == "logo" { style.logo = value } else { style.heading = value }
            case .success(nil): break
            case let .failure(issue): issues.append(issue)
            }
        }
        if let url = values["logoURL"]?.string, !url.isEmpty { style.logoURL = url }
        return (style, issues)
    }
}

/// A configuration that passed every check.
struct CheckoutSettings: Sendable {
    enum Mode: Sendable {
        /// Before any checkout: the amount, if the configuration gave one.
        case tokenless(initialAmount: JSONValue?)
        /// After a completed checkout: the token as configured, checked later.
        case token(JSONValue)
    }

    let minimum: Money
    let maximum: Money
    let currency: CurrencyCode
    let locale: CheckoutLocale
    let style: CheckoutStyle
    let mode: Mode
}

/// Reads and checks the plugin's configuration section. Every problem is
/// reported, not just the first, each with its code; the first one is the
/// widget's status.
enum CheckoutConfiguration {
    /// Every problem found, in the order of the original SDK's errors.
    struct Rejection: Error {
        let issues: [CheckoutIssue]
    }

    static let requiredKeys = ["minimumAmount", "maximumAmount", "currencyCode", "locale"]
    static let optionalKeys = ["amount", "token", "logo", "heading", "logoURL"]

    static func read(_ section: JSONValue) -> Result<CheckoutSettings, Rejection> {
        func value(_ key: String) -> JSONValue? {
            guard let value = section[key], value != .null else { return nil }
            return value
        }
        guard requiredKeys.contains(where: { value($0) != nil }) else {
            return .failure(Rejection(issues: [CheckoutIssue(.noConfiguration, CheckoutText.noConfiguration)]))
        }
        var issues: [CheckoutIssue] = []

        let currency = choice("currencyCode", value("currencyCode"), CurrencyCode.self, .invalidCurrencyCode,
                              supported: CurrencyCode.supportedList, issues: &issues)
        let locale = choice("locale", value("locale"), CheckoutLocale.self, .invalidLocale,
                            supported: CheckoutLocale.supportedList, issues: &issues)
        // Every supported currency has two minor digits, so the limits can be
        // checked even when the currency itself was refused.
        let limitCurrency = currency ?? .USD
        let minimum = limit("minimumAmount", value("minimumAmount"), .invalidMinimum, limitCurrency, issues: &issues)
        let maximum = limit("maximumAmount", value("maximumAmount"), .invalidMaximum, limitCurrency, issues: &issues)
        if let minimum, let maximum, minimum >= maximum {
            let text = { (units: Int64) in Money(minorUnits: units, currency: limitCurrency).decimalText }
            issues.append(CheckoutIssue(.invalidOrdering, CheckoutText.ordering(minimum: text(minimum), maximum: text(maximum))))
        }
        let (style, styleIssues) = CheckoutStyle().overridden(by: section)
        issues += styleIssues
        if value("token") != nil, value("amount") != nil {
            issues.append(CheckoutIssue(.tokenWithAmount, CheckoutText.tokenWithAmount))
        }
        // The issue order follows the original SDK's list of errors.
        let rank = { (code: CheckoutErrorCode) in CheckoutErrorCode.allCases.firstIndex(of: code)! }
        issues = issues.enumerated().sorted { (rank($0.element.code), $0.offset) < (rank($1.element.code), $1.offset) }.map(\.element)

        guard issues.isEmpty, let currency, let locale, let minimum, let maximum else { return .failure(Rejection(issues: issues)) }
        let mode: CheckoutSettings.Mode = value("token").map { .token($0) } ?? .tokenless(initialAmount: value("amount"))
        return .success(CheckoutSettings(minimum: Money(minorUnits: minimum, currency: currency),
                                         maximum: Money(minorUnits: maximum, currency: currency),
                                         currency: currency, locale: locale, style: style, mode: mode))
    }

    /// Keys the widget does not know; worth a warning, since a misspelt key
    /// otherwise shows up only as the missing key it was meant to be.
    static func unknownKeys(_ section: JSONValue) -> [String] {
        guard case let .object(members) = section else { return [] }
        return members.map(\.0).filter { !requiredKeys.contains($0) && !optionalKeys.contains($0) }
    }

    /// true, false, or the strings "true" and "false" (screen params are
    /// always strings); nil when absent.
    static func flag(_ key: String, _ value: JSONValue?) -> Result<Bool?, CheckoutIssue> {
        switch value {
        case nil, .null?: .success(nil)
        case let .bool(flag)?: .success(flag)
        case .string("true")?: .success(true)
        case .string("false")?: .success(false)
        case let other?: .failure(CheckoutIssue(.invalidStyle, CheckoutText.style(key: key, value: CheckoutText.shown(other))))
        }
    }

    private static func choice<Choice: RawRepresentable>(
        _ key: String, _ value: JSONValue?, _: Choice.Type, _ code: CheckoutErrorCode, supported: String,
        issues: inout [CheckoutIssue]
    ) -> Choice? where Choice.RawValue == String {
        guard let value else {
            issues.append(CheckoutIssue(code, CheckoutText.missing(key: key, supported: supported)))
            return nil
        }
        guard let text = value.string, let choice = Choice(rawValue: text) else {
            issues.append(CheckoutIssue(code, CheckoutText.unsupported(key: key, value: CheckoutText.shown(value), supported: supported)))
            return nil
        }
        return choice
    }

    private static func limit(
        _ key: String, _ value: JSONValue?, _ code: CheckoutErrorCode, _ currency: CurrencyCode, issues: inout [CheckoutIssue]
    ) -> Int64? {
        guard let value else {
            issues.append(CheckoutIssue(code, CheckoutText.missingLimit(key: key)))
            return nil
        }
        guard let text = AmountParser.text(of: value) else {
            issues.append(CheckoutIssue(code, CheckoutText.limitNotAmount(key: key, value: CheckoutText.shown(value))))
            return nil
        }
        switch AmountParser.parse(text, currency: currency) {
        case let .success(units): return units
        case let .failure(problem):
            issues.append(CheckoutIssue(code, CheckoutText.badLimit(key: key, value: CheckoutText.shown(value),
                                                                   reason: CheckoutText.reason(problem, currency))))
            return nil
        }
    }
}
