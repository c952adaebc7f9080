/// The original's event handler, as bus topics. Each payload carries what
/// the handler received:
///
/// - `checkout.ready`: `{"isValid", "amountDueToday", "paymentScheduleChecksum"}`, once;
/// - `checkout.changed`: `{"status": STATUS}` when the status differs from the last one announced;
/// - `checkout.error`: `{"errorCode", "message"}`, right after a change to an invalid status;
/// - `checkout.failure`: `{"error": {"errorCode", "message"}}` when the widget cannot work at all.
///
/// STATUS is `{"isValid": true, "amountDueToday": MONEY, "paymentScheduleChecksum": TEXT|null}`
/// or `{"isValid": false, "errorCode": CODE, "message": TEXT}`; MONEY is
/// `{"amount": "50.00", "currency": "USD"}`.
struct CheckoutEvents {
    static let topics = ["checkout.ready", "checkout.changed", "checkout.error", "checkout.failure"]

    let host: Host

    func ready(_ status: CheckoutStatus) {
        let payload: JSONValue = switch status {
        case let .valid(amount, checksum):
            ["isValid": true, "amountDueToday": amount.json, "paymentScheduleChecksum": .optional(checksum)]
        case .invalid:
            ["isValid": false, "amountDueToday": nil, "paymentScheduleChecksum": nil]
        }
        publish("checkout.ready", payload)
    }

    func changed(_ status: CheckoutStatus) {
        publish("checkout.changed", ["status": status.json])
        if case let .invalid(issue) = status { publish("checkout.error", issue.json) }
    }

    func failure(_ issue: CheckoutIssue) {
        host.log(.error, "\(issue.code.rawValue): \(issue.message)")
        publish("checkout.failure", ["error": issue.json])
    }

    private func publish(_ topic: String, _ payload: JSONValue) {
        if !host.publish(topic, payload) { host.log(.error, "the host refused to publish \(topic)") }
    }
}
