/// Every sentence the widget shows. What a shopper reads is translated
/// (CheckoutFrench, through the SDK's Translations): into the configured
/// locale's language when it has one (fr_CA), else the person's (`LANG`);
/// money and dates follow the configured locale. What only a developer can
/// fix (configuration, tokens, stored orders) is in English, since the
/// locale itself may be what is wrong.
struct CheckoutText: Sendable {
    let locale: CheckoutLocale
    let money: MoneyFormatter
    private let text: Translations

    init(locale: CheckoutLocale, preferences: [String] = Translations.preferences()) {
        self.locale = locale
        money = MoneyFormatter(locale: locale)
        text = Translations(["fr": CheckoutFrench.table], preferences: locale.isFrench ? ["fr_CA", "fr"] : preferences)
    }

    // MARK: The schedule

    /// The original's breakdown line. Pounds drop "interest-free".
    func breakdown(_ instalment: Money) -> String {
        text(instalment.currency == .GBP ? "or 4 payments of {0}" : "or 4 interest-free payments of {0}", money.string(instalment))
    }

    var logo: String { text("Pay in 4") }
    var scheduleHeader: String { text("Payment schedule") }
    var today: String { text("today") }
    var amountLabel: String { text("Order total") }
    func dueToday(_ amount: Money) -> String { text("Due today: {0}", money.string(amount)) }
    func orderTotal(_ amount: Money) -> String { text("Order total: {0}", money.string(amount)) }
    func reference(_ reference: String) -> String { text("Order reference: {0}", reference) }
    func checksum(_ checksum: String) -> String { text("Schedule checksum: {0}", checksum) }

    // MARK: The amount

    /// An amount as the shopper may type it, for examples and the field's placeholder.
    var amountExample: String { text("250.00") }

    func amountIssue(_ problem: AmountProblem, input: String, currency: CurrencyCode) -> CheckoutIssue {
        let shown = text("\"{0}\"", Self.clip(input))
        let example = amountExample
        let largest = money.string(Money(minorUnits: currency.largestMinorUnits, currency: currency))
        switch problem {
        case .empty:
            return CheckoutIssue(.amountMissing, text("Enter the order total, such as {0}", example))
        case .surroundingSpace:
            return CheckoutIssue(.amountHasSpaces, text("The amount {0} has spaces around it: enter only the amount, such as {1}", shown, example))
        case .notANumber:
            return CheckoutIssue(.amountNotANumber, text("{0} is not an amount: enter digits with at most 2 decimal places, such as {1}", shown, example))
        case .exponent:
            return CheckoutIssue(.amountHasExponent, text("{0} has an exponent: write the amount in full, such as {1}", shown, text("1000.00")))
        case .negative:
            return CheckoutIssue(.amountNegative, text("The amount {0} is negative: enter the order total", shown))
        case .zero:
            return CheckoutIssue(.amountZero, text("The amount must be more than zero"))
        case .tooPrecise:
            return CheckoutIssue(.amountTooPrecise, text("{0} has more than 2 decimal places: {1} amounts stop at the cent", shown, currency.rawValue))
        case .tooLarge:
            return CheckoutIssue(.amountTooLarge, text("{0} is more than the largest amount accepted, {1}", shown, largest))
        }
    }

    /// The message for an order total outside the configured limits.
    func range(minimum: Money, maximum: Money) -> String {
        text("Pay in 4 is available for orders between {0} – {1}", money.limit(minimum), money.limit(maximum))
    }

    func cannotSplit(_ total: Money) -> String {
        text("An order of {0} cannot be split into 4 payments of at least {1}", money.string(total),
             money.string(Money(minorUnits: 1, currency: total.currency)))
    }

    // MARK: Developer-facing, in English

    static let notConfiguredTitle = "Checkout is not configured"
    static let unavailableTitle = "This checkout cannot be shown"

    static let noConfiguration = "Checkout has no configuration: set minimumAmount, maximumAmount, currencyCode and locale in "
        + "the plugin's \"checkout\" section, for example with --set checkout.currencyCode=USD"

    static func missing(key: String, supported: String) -> String { "\(key) is missing: use one of \(supported)" }

    static func unsupported(key: String, value: String, supported: String) -> String {
        "\(key) \(value) is not supported: use one of \(supported)"
    }

    static func missingLimit(key: String) -> String { "\(key) is missing: set it to an amount such as \"50.00\"" }

    static func limitNotAmount(key: String, value: String) -> String { "\(key) must be an amount such as \"50.00\", not \(value)" }

    static func badLimit(key: String, value: String, reason: String) -> String { "\(key) \(value) is not a valid amount: \(reason)" }

    static func reason(_ problem: AmountProblem, _ currency: CurrencyCode) -> String {
        switch problem {
        case .empty: "it is empty"
        case .surroundingSpace: "it has spaces around it"
        case .notANumber: "write digits with at most 2 decimal places, such as 50.00"
        case .exponent: "exponents such as 1e3 are not accepted"
        case .negative: "it is negative"
        case .zero: "it must be more than zero"
        case .tooPrecise: "\(currency.rawValue) amounts have at most 2 decimal places"
        case .tooLarge: "it is more than the largest amount accepted, \(Money(minorUnits: currency.largestMinorUnits, currency: currency).decimalText)"
        }
    }

    static func ordering(minimum: String, maximum: String) -> String {
        "minimumAmount (\(minimum)) must be less than maximumAmount (\(maximum))"
    }

    static func style(key: String, value: String) -> String { "\(key) must be true or false, not \(value)" }

    static let tokenWithAmount = "Give either a token (after a completed checkout) or an amount (before one), not both"

    static func malformedToken(_ shown: String) -> String {
        "The checkout token \(shown) is malformed: a token is 1 to 64 letters, digits, '-' or '_'"
    }

    static func unknownToken(_ token: String, key: String) -> String {
        "No checkout is stored for token \"\(token)\" (the app stores it at \(key))"
    }

    static func invalidOrder(key: String, detail: String) -> String { "The checkout stored at \(key) is invalid: \(detail)" }

    static func orderNotCompleted(_ token: String, status: String) -> String {
        "Checkout \"\(token)\" is \(status), not completed"
    }

    static func currencyMismatch(_ token: String, order: CurrencyCode, configured: CurrencyCode) -> String {
        "Checkout \"\(token)\" is in \(order.rawValue), but the widget is configured for \(configured.rawValue)"
    }

    static func storeUnavailable(key: String, reason: String) -> String { "The shared container could not be read at \(key): \(reason)" }

    static let clockUnavailable = "The host's clock is unavailable, so the instalments cannot be dated"

    // MARK: Quoting what someone typed

    /// A JSON value as it appears in a message: a string in quotes, anything
    /// else as JSON.
    static func shown(_ value: JSONValue) -> String {
        if let text = value.string { return "\"\(clip(text))\"" }
        return clip(value.serialized)
    }

    /// Input quoted back is cut to 40 characters, and control characters are
    /// replaced, so that no input can flood or drive the terminal.
    static func clip(_ text: String) -> String {
        let visible = String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control ? "\u{FFFD}" : scalar
        }))
        return visible.count > 40 ? String(visible.prefix(40)) + "…" : visible
    }
}
