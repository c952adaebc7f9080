/// Where the widget stands, and the status it reports from there.
enum CheckoutState: Sendable {
    /// The configuration is missing or invalid: the widget cannot take amounts.
    case unconfigured([CheckoutIssue])
    /// Configured, but the order cannot be used (token mode) or the host
    /// failed us: no schedule can be made and updates are refused.
    case unavailable(CheckoutSettings, CheckoutIssue)
    /// Working: an amount (maybe an invalid one) and what it gives.
    case active(ActiveCheckout)

    var status: CheckoutStatus {
        switch self {
        case let .unconfigured(issues): .invalid(issues[0])
        case let .unavailable(_, issue): .invalid(issue)
        case let .active(checkout): checkout.status
        }
    }

    var settings: CheckoutSettings? {
        switch self {
        case .unconfigured: nil
        case let .unavailable(settings, _): settings
        case let .active(checkout): checkout.settings
        }
    }

    /// The state a fresh widget starts in, from its configuration, the
    /// user's day by the host's clock (nil without a clock) and (in token
    /// mode) the shared container.
    static func start(configuration: JSONValue, today: CalendarDate?,
                      loadOrder: (String, CurrencyCode) -> Result<CheckoutOrder, CheckoutIssue>) -> CheckoutState {
        let settings: CheckoutSettings
        switch CheckoutConfiguration.read(configuration) {
        case let .success(read): settings = read
        case let .failure(rejection): return .unconfigured(rejection.issues)
        }
        guard let today else {
            return .unavailable(settings, CheckoutIssue(.clockUnavailable, CheckoutText.clockUnavailable))
        }
        switch settings.mode {
        case let .tokenless(initialAmount):
            return .active(ActiveCheckout(settings: settings, order: nil, input: initialAmount, today: today))
        case let .token(value):
            let order: CheckoutOrder
            switch CheckoutOrder.token(from: value).flatMap({ loadOrder($0, settings.currency) }) {
            case let .success(found): order = found
            case let .failure(issue): return .unavailable(settings, issue)
            }
            return .active(ActiveCheckout(settings: settings, order: order, total: order.amount, today: today))
        }
    }
}

/// A checkout that can take amounts: tokenless, or with its stored order.
struct ActiveCheckout: Sendable {
    let settings: CheckoutSettings
    let order: CheckoutOrder?
    /// The amount as it was given, shown back in the amount field.
    let input: String
    let outcome: Result<PaymentSchedule, CheckoutIssue>

    /// From an amount in JSON (the configuration's `amount`), or none yet.
    init(settings: CheckoutSettings, order: CheckoutOrder?, input: JSONValue?, today: CalendarDate) {
        self.settings = settings
        self.order = order
        switch input {
        case nil:
            self.input = ""
            outcome = .failure(CheckoutText(locale: settings.locale).amountIssue(.empty, input: "", currency: settings.currency))
        case let value?:
            if let text = AmountParser.text(of: value) {
                self.input = text
                outcome = Self.schedule(text, settings, today)
            } else {
                self.input = value.serialized
                outcome = .failure(CheckoutText(locale: settings.locale).amountIssue(.notANumber, input: value.serialized,
                                                                                      currency: settings.currency))
            }
        }
    }

    /// From a total already known to be an amount (a stored order's).
    init(settings: CheckoutSettings, order: CheckoutOrder?, total: Money, today: CalendarDate) {
        self.settings = settings
        self.order = order
        input = total.decimalText
        outcome = Self.schedule(total, settings, today)
    }

    /// The same checkout with a new order total, as typed or sent by `update`.
    func updated(_ text: String, today: CalendarDate) -> ActiveCheckout {
        ActiveCheckout(settings: settings, order: order, input: .string(text), today: today)
    }

    var status: CheckoutStatus {
        switch outcome {
        // The checksum identifies a transaction's schedule, so only token mode has one.
        case let .success(schedule): .valid(amountDueToday: schedule.amountDueToday, paymentScheduleChecksum: order.map { _ in schedule.checksum })
        case let .failure(issue): .invalid(issue)
        }
    }

    private static func schedule(_ text: String, _ settings: CheckoutSettings, _ today: CalendarDate) -> Result<PaymentSchedule, CheckoutIssue> {
        // What a shopper types may be written as their locale writes it (12,50 in fr_CA).
        switch AmountParser.parse(text, currency: settings.currency, decimalComma: settings.locale.writesDecimalComma) {
        case let .success(units): schedule(Money(minorUnits: units, currency: settings.currency), settings, today)
        case let .failure(problem):
            .failure(CheckoutText(locale: settings.locale).amountIssue(problem, input: text, currency: settings.currency))
        }
    }

    private static func schedule(_ total: Money, _ settings: CheckoutSettings, _ today: CalendarDate) -> Result<PaymentSchedule, CheckoutIssue> {
        let text = CheckoutText(locale: settings.locale)
        if total.minorUnits < settings.minimum.minorUnits {
            return .failure(CheckoutIssue(.amountBelowMinimum, text.range(minimum: settings.minimum, maximum: settings.maximum)))
        }
        if total.minorUnits > settings.maximum.minorUnits {
            return .failure(CheckoutIssue(.amountAboveMaximum, text.range(minimum: settings.minimum, maximum: settings.maximum)))
        }
        guard let schedule = PaymentSchedule(total: total, firstDue: today) else {
            return .failure(CheckoutIssue(.amountCannotSplit, text.cannotSplit(total)))
        }
        return .success(schedule)
    }
}
