/// The buy-now-pay-later schedule: four instalments, the first due today and
/// the others every two weeks after it.
///
/// The rounding rule: the first three instalments are total / 4 rounded
/// half-up to the minor unit; the last is what remains, so the four always
/// add up to the total exactly. 100.02 is 25.01, 25.01, 25.01, 24.99. A total
/// whose last instalment would come to nothing or less (under 0.04, and
/// 0.06) cannot be split, and says so instead of scheduling a zero payment.
struct PaymentSchedule: Equatable, Sendable {
    static let instalmentCount: Int64 = 4
    static let daysBetweenInstalments: Int64 = 14

    struct Instalment: Equatable, Sendable {
        let amount: Money
        let due: CalendarDate
    }

    let total: Money
    let instalments: [Instalment]

    /// Nil when some instalment would be less than one minor unit.
    init?(total: Money, firstDue: CalendarDate) {
        let count = Self.instalmentCount
        // Half-up rounding of total / count in integers: floor((2·total + count) / (2·count)).
        let regular = (2 * total.minorUnits + count) / (2 * count)
        let last = total.minorUnits - regular * (count - 1)
        guard regular >= 1, last >= 1 else { return nil }
        self.total = total
        instalments = (0..<count).map { index in
            Instalment(amount: Money(minorUnits: index == count - 1 ? last : regular, currency: total.currency),
                       due: firstDue.adding(days: index * Self.daysBetweenInstalments))
        }
    }

    var amountDueToday: Money { instalments[0].amount }

    /// What the checksum digests, one fact per line:
    ///
    ///     checkout-schedule/1
    ///     currency=USD
    ///     total=100.02
    ///     1=2026-05-01,25.01
    ///     …
    ///     4=2026-06-12,24.99
    ///
    /// Every line ends with a newline; amounts are canonical decimal text and
    /// dates ISO 8601 UTC days, so equal schedules give equal text.
    var canonicalText: String {
        var lines = ["checkout-schedule/1", "currency=\(total.currency.rawValue)", "total=\(total.decimalText)"]
        for (index, instalment) in instalments.enumerated() {
            lines.append("\(index + 1)=\(instalment.due.iso),\(instalment.amount.decimalText)")
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// The opaque value the merchant gives back when capturing the order: the
    /// SHA-256 of `canonicalText`, in lowercase hex.
    var checksum: String { SHA256.hex(canonicalText) }
}
