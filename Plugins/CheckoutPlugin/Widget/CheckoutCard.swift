/// The dashboard cards: the four instalments at a glance. The small card
/// lists amounts and short dates; the medium one adds the order total; the
/// large one gives each date in full.
/// A checkout with a problem shows its message instead, the code kept for scripts.
enum CheckoutCard {
    static func view(_ state: CheckoutState, size: CardSize) -> String {
        let text = CheckoutText(locale: state.settings?.locale ?? .en_US)
        return VStack {
            switch state {
            case let .unconfigured(issues):
                Text(CheckoutText.notConfiguredTitle).color(.negative)
                if let issue = issues.first { problem(issue) }
            case let .unavailable(_, issue):
                Text(CheckoutText.unavailableTitle).color(.negative)
                problem(issue)
            case let .active(checkout):
                active(checkout, size: size, text: text)
            }
        }.screen(error: error(state.status))
    }

    @ViewBuilder
    private static func active(_ checkout: ActiveCheckout, size: CardSize, text: CheckoutText) -> [View] {
        switch checkout.outcome {
        case let .success(schedule):
            if size != .small { Text(text.orderTotal(schedule.total)).style(.headline) }
            List(rows: schedule.instalments.enumerated().map { index, instalment in
                Row(id: String(index + 1), title: text.money.string(instalment.amount),
                    detail: index == 0 ? text.today : size == .large ? instalment.due.long(in: text.locale) : instalment.due.short(in: text.locale))
            })
        case let .failure(issue):
            problem(issue)
        }
    }

    private static func problem(_ issue: CheckoutIssue) -> View { Text(issue.message).color(.negative).code(issue.code.rawValue) }

    private static func error(_ status: CheckoutStatus) -> String? {
        guard case let .invalid(issue) = status else { return nil }
        return "\(issue.code.rawValue): \(issue.message)"
    }
}
