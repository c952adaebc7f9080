/// The screen for each state. A problem is shown as a sentence that carries
/// its error code for scripts (never drawn), and the screen declares the first problem as its error state, so
/// `launch --format json` carries it for scripts as "error".
enum CheckoutView {
    static func screen(_ state: CheckoutState, params: JSONValue) -> String {
        let (style, styleIssues) = (state.settings?.style ?? CheckoutStyle()).overridden(by: params)
        let text = CheckoutText(locale: state.settings?.locale ?? .en_US)
        return VStack {
            if style.logo { Image(alt: text.logo, url: style.logoURL) }
            switch state {
            case let .unconfigured(issues):
                Text(CheckoutText.notConfiguredTitle).style(.headline)
                issues.flatMap(problem)
            case let .unavailable(_, issue):
                Text(CheckoutText.unavailableTitle).style(.headline)
                problem(issue)
            case let .active(checkout):
                active(checkout, style: style, text: text)
            }
            styleIssues.flatMap(problem)
        }.screen(error: error(state.status))
    }

    private static func active(_ checkout: ActiveCheckout, style: CheckoutStyle, text: CheckoutText) -> [View] {
        var views: [View] = []
        switch checkout.outcome {
        case let .success(schedule):
            if style.heading { views.append(Text(text.breakdown(schedule.amountDueToday)).style(.headline)) }
            views.append(Section(text.scheduleHeader) {
                List(rows: schedule.instalments.enumerated().map { index, instalment in
                    Row(id: String(index + 1), title: text.money.string(instalment.amount),
                        detail: instalment.due.long(in: text.locale), badge: index == 0 ? text.today : nil)
                })
            })
            views.append(Text(text.dueToday(schedule.amountDueToday)))
            views.append(Text(text.orderTotal(schedule.total)))
            if let reference = checkout.order?.merchantReference { views.append(Text(text.reference(reference)).style(.caption)) }
            if checkout.order != nil { views.append(Text(text.checksum(schedule.checksum)).style(.monospaced)) }
        case let .failure(issue):
            views += problem(issue)
            if let reference = checkout.order?.merchantReference { views.append(Text(text.reference(reference)).style(.caption)) }
        }
        views.append(Field(text.amountLabel, action: "update", placeholder: text.amountExample,
                           value: CheckoutText.clip(checkout.input), amount: true))
        return views
    }

    /// The problem the screen shows, as the status query reports it.
    private static func error(_ status: CheckoutStatus) -> String? {
        guard case let .invalid(issue) = status else { return nil }
        return "\(issue.code.rawValue): \(issue.message)"
    }

    private static func problem(_ issue: CheckoutIssue) -> [View] {
        [Text(issue.message).color(.negative).code(issue.code.rawValue)]
    }
}
