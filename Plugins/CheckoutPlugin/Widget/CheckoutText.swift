/// Every sentence the widget shows. What a shopper reads follows the
/// configured locale (English, or French for fr_CA); what only a developer
/// can fix (configuration, tokens, stored orders) is in English, since the
/// locale itself may be what is wrong.
struct CheckoutText: Sendable {
    let locale: CheckoutLocale
    let money: MoneyFormatter

    init(locale: CheckoutLocale) {
        self.locale = locale
        money = MoneyFormatter(locale: locale)
    }

    private var french: Bool { locale.isFrench }
    /// French puts a no-break space before a colon.
    private var colon: String { french ? "\u{00A0}: " : ": " }

    // MARK: The schedule

    /// The original's breakdown line. Pounds drop "interest-free".
    func breakdown(_ instalment: Money) -> String {
        let amount = money.string(instalment)
        if french { return instalment.currency == .GBP ? "ou 4 versements de \(amount)" : "ou 4 versements sans intérêts de \(amount)" }
        return instalment.currency == .GBP ? "or 4 payments of \(amount)" : "or 4 interest-free payments of \(amount)"
    }

    var logo: String { french ? "Payez en 4" : "Pay in 4" }
    var scheduleHeader: String { french ? "Calendrier des versements" : "Payment schedule" }
    var today: String { french ? "aujourd'hui" : "today" }
    var amountLabel: String { french ? "Total de la commande" : "Order total" }
    func dueToday(_ amount: Money) -> String { (french ? "À payer aujourd'hui" : "Due today") + colon + money.string(amount) }
    func orderTotal(_ amount: Money) -> String { amountLabel + colon + money.string(amount) }
    func reference(_ text: String) -> String { (french ? "Référence de la commande" : "Order reference") + colon + text }
    func checksum(_ text: String) -> String { (french ? "Somme de contrôle" : "Schedule checksum") + colon + text }

    // MARK: The amount

    func amountIssue(_ problem: AmountProblem, input: String, currency: CurrencyCode) -> CheckoutIssue {
        let shown = french ? "« \(Self.clip(input)) »" : "\"\(Self.clip(input))\""
        // Amounts are typed in one machine format everywhere (the original's
        // sendUpdate takes "250.00"), so the example is the same in French.
        let example = "250.00"
        let largest = money.string(Money(minorUnits: currency.largestMinorUnits, currency: currency))
        switch problem {
        case .empty:
            return CheckoutIssue(.amountMissing, french ? "Entrez le total de la commande, par exemple \(example)"
                                                        : "Enter the order total, such as \(example)")
        case .surroundingSpace:
            return CheckoutIssue(.amountHasSpaces, french
                ? "Le montant \(shown) est entouré d'espaces\(colon)entrez seulement le montant, par exemple \(example)"
                : "The amount \(shown) has spaces around it: enter only the amount, such as \(example)")
        case .notANumber:
            return CheckoutIssue(.amountNotANumber, french
                ? "\(shown) n'est pas un montant\(colon)entrez des chiffres avec au plus 2 décimales, par exemple \(example)"
                : "\(shown) is not an amount: enter digits with at most 2 decimal places, such as \(example)")
        case .exponent:
            return CheckoutIssue(.amountHasExponent, french
                ? "\(shown) contient un exposant\(colon)entrez le montant au complet, par exemple 1000.00"
                : "\(shown) has an exponent: write the amount in full, such as 1000.00")
        case .negative:
            return CheckoutIssue(.amountNegative, french ? "Le montant \(shown) est négatif\(colon)entrez le total de la commande"
                                                         : "The amount \(shown) is negative: enter the order total")
        case .zero:
            return CheckoutIssue(.amountZero, french ? "Le montant doit être supérieur à zéro" : "The amount must be more than zero")
        case .tooPrecise:
            return CheckoutIssue(.amountTooPrecise, french
                ? "\(shown) a plus de 2 décimales\(colon)les montants en \(currency.rawValue) s'arrêtent aux cents"
                : "\(shown) has more than 2 decimal places: \(currency.rawValue) amounts stop at the cent")
        case .tooLarge:
            return CheckoutIssue(.amountTooLarge, french ? "\(shown) dépasse le plus grand montant accepté, \(largest)"
                                                         : "\(shown) is more than the largest amount accepted, \(largest)")
        }
    }

    /// The message for an order total outside the configured limits.
    func range(minimum: Money, maximum: Money) -> String {
        french
            ? "Le paiement en 4 versements est offert pour les commandes entre \(money.limit(minimum)) et \(money.limit(maximum))"
            : "Pay in 4 is available for orders between \(money.limit(minimum)) – \(money.limit(maximum))"
    }

    func cannotSplit(_ total: Money) -> String {
        let cent = money.string(Money(minorUnits: 1, currency: total.currency))
        return french
            ? "Une commande de \(money.string(total)) ne peut pas être divisée en 4 versements d'au moins \(cent)"
            : "An order of \(money.string(total)) cannot be split into 4 payments of at least \(cent)"
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
