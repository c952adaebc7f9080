/// Every reason the checkout can be invalid, named as scripts see it in
/// `errorCode`, on the screen and in `--format json`.
enum CheckoutErrorCode: String, CaseIterable, Sendable {
    // Configuration: the widget cannot start.
    case noConfiguration, invalidMinimum, invalidMaximum, invalidOrdering, invalidCurrencyCode, invalidLocale
    case invalidStyle, tokenWithAmount
    // Token mode: the order cannot be used.
    case malformedToken, unknownToken, invalidOrder, orderNotCompleted, currencyMismatch
    // The amount.
    case amountMissing, amountHasSpaces, amountNotANumber, amountHasExponent, amountNegative, amountZero
    case amountTooPrecise, amountTooLarge, amountBelowMinimum, amountAboveMaximum, amountCannotSplit
    // Internal failures.
    case storeUnavailable, clockUnavailable
}

/// One reason, with the sentence a person reads.
struct CheckoutIssue: Error, Equatable, Sendable {
    let code: CheckoutErrorCode
    let message: String

    init(_ code: CheckoutErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `{"errorCode": ..., "message": ...}`, as onError received them.
    var json: JSONValue {
        ["errorCode": .string(code.rawValue), "message": .string(message)]
    }
}

/// What `getStatus` returned in the original: valid with the amount due today
/// (and the checksum, in token mode only), or invalid with a code and message.
enum CheckoutStatus: Equatable, Sendable {
    case valid(amountDueToday: Money, paymentScheduleChecksum: String?)
    case invalid(CheckoutIssue)

    var isValid: Bool {
        if case .valid = self { return true }
        return false
    }

    var json: JSONValue {
        switch self {
        case let .valid(amount, checksum):
            ["isValid": true, "amountDueToday": amount.json, "paymentScheduleChecksum": .optional(checksum)]
        case let .invalid(issue):
            ["isValid": false, "errorCode": .string(issue.code.rawValue), "message": .string(issue.message)]
        }
    }
}
