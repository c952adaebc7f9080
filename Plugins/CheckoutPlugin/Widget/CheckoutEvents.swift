/// The original's event handler, as bus topics. Each payload carries what
/// the handler received:
///
/// - `checkout.ready`: `{"isValid", "amountDueToday", "paymentScheduleChecksum"}`, once, with
///   `"errorCode"` and `"message"` as well when the widget starts invalid;
/// - `checkout.changed`: `{"status": STATUS, "sameStatus": BOOL}` after every accepted update,
///   `sameStatus` true when the status is the one last announced;
/// - `checkout.error`: `{"errorCode", "message"}`, right after a `ready` or `changed` with an
///   invalid status;
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
        case let .invalid(issue):
            ["isValid": false, "amountDueToday": nil, "paymentScheduleChecksum": nil,
             "errorCode": .string(issue.code.rawValue), "message": .string(issue.message)]
        }
        publish("checkout.ready", payload)
        reportError(status)
    }

    func changed(_ status: CheckoutStatus, sameStatus: Bool) {
        publish("checkout.changed", ["status": status.json, "sameStatus": .bool(sameStatus)])
        reportError(status)
    }

    private func reportError(_ status: CheckoutStatus) {
        if case let .invalid(issue) = status { publish("checkout.error", issue.json) }
    }

    func failure(_ issue: CheckoutIssue) {
        host.log(.error, "\(issue.code.rawValue): \(issue.message)")
        publish("checkout.failure", ["error": issue.json])
    }

    private func publish(_ topic: String, _ payload: JSONValue) {
        do { try host.publish(topic, payload) } catch { host.log(.error, "the host refused to publish \(topic): \(error)") }
    }
}
