/// How a traveller reads a time.
///
/// Bookings give every time as ISO 8601 with an offset
/// (`2026-06-10T08:05:00+02:00`), read as the SDK's `ZonedTime(iso:)`. The
/// timeline compares instants, but a traveller reads a departure in the
/// airport's local time, so the offset from the booking is kept and every
/// time is shown as it was written.
extension ZonedTime {
    /// `Wed 10 Jun 2026 08:05 +02:00`: the local time a traveller reads, with its offset.
    var display: String { dateText + " " + timeText }

    /// `Wed 10 Jun 2026`.
    var dateText: String { "\(Self.weekdayNames[weekday]) \(day) \(Self.monthNames[month - 1]) \(year)" }

    /// `08:05 +02:00`.
    var timeText: String { time + " " + zone.offsetText }

    private static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
