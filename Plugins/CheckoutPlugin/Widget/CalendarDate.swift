/// A day on the proleptic Gregorian calendar. The schedule works in whole
/// days; "today" is the user's own (their time zone, from the host's
/// clock/2: 22:30 on 30 April in New York is 30 April), and the dates after
/// it are plain calendar days.
struct CalendarDate: Equatable, Sendable {
    static let millisecondsPerDay: Int64 = 86_400_000

    let daysSinceEpoch: Int64
    let year: Int64
    let month: Int
    let day: Int

    /// The UTC day that holds an instant; floor division keeps instants
    /// before 1970 on the right day.
    init(milliseconds: Int64) {
        var days = milliseconds / Self.millisecondsPerDay
        if milliseconds % Self.millisecondsPerDay < 0 { days -= 1 }
        self.init(daysSinceEpoch: days)
    }

    /// The user's day now, nil without a clock; the UTC day on a host without clock/2.
    static func today(_ host: Host) -> CalendarDate? {
        host.localNow.map { CalendarDate(daysSinceEpoch: Int64($0.localDays)) }
    }

    init(daysSinceEpoch: Int64) {
        self.daysSinceEpoch = daysSinceEpoch
        let date = CivilCalendar.date(fromDays: Int(daysSinceEpoch))
        year = Int64(date.year)
        month = date.month
        day = date.day
    }

    func adding(days: Int64) -> CalendarDate {
        CalendarDate(daysSinceEpoch: daysSinceEpoch + days)
    }

    /// `2026-05-01`, for payloads and the checksum.
    var iso: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return (year < 0 ? "-" : "") + pad(Int(year.magnitude), 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }

    /// The long date of the locale (CLDR's long pattern): `May 15, 2026` in
    /// the US and Canada, `15 May 2026` in Australia, Britain and New
    /// Zealand, `15 mai 2026` in French.
    func long(in locale: CheckoutLocale) -> String {
        switch locale {
        case .en_US, .en_CA: "\(Self.englishMonths[month - 1]) \(day), \(year)"
        case .en_AU, .en_GB, .en_NZ: "\(day) \(Self.englishMonths[month - 1]) \(year)"
        case .fr_CA: "\(day) \(Self.frenchMonths[month - 1]) \(year)"
        }
    }

    /// The day and month alone, for a card, with the month abbreviated as
    /// the locale does: `Jun 14`, `14 Jun`, `14 juin`, `14 juil.` (a name's
    /// first letters are no abbreviation: "Janu", "juil" without its point).
    func short(in locale: CheckoutLocale) -> String {
        switch locale {
        case .en_US, .en_CA: "\(Self.englishShortMonths[month - 1]) \(day)"
        case .en_AU, .en_GB, .en_NZ: "\(day) \(Self.englishShortMonths[month - 1])"
        case .fr_CA: "\(day) \(Self.frenchShortMonths[month - 1])"
        }
    }

    private static let englishMonths = ["January", "February", "March", "April", "May", "June", "July", "August",
                                        "September", "October", "November", "December"]
    private static let frenchMonths = ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
                                       "septembre", "octobre", "novembre", "décembre"]
    private static let englishShortMonths = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let frenchShortMonths = ["janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août",
                                            "sept.", "oct.", "nov.", "déc."]
}
