/// The dashboard cards: the trip's next step and the time until it (the
/// step under way too, on a medium card). The countdown is as coarse as it
/// can be while still true (days and hours a day away, hours and minutes
/// within a day), so a trip far ahead costs the host one wake-up an hour.
enum TripsCard {
    static func view(_ state: Result<TripsTimeline, BookingsError>?, now: Int64, size: CardSize) -> String {
        guard let state else { return VStack { Progress("Loading your trips") }.screen }
        let timeline: TripsTimeline
        switch state {
        case let .success(built): timeline = built
        case let .failure(error): return VStack { Text("No upcoming trips").style(.headline); Text(error.description).style(.caption).color(.warning) }.screen
        }
        let index = timeline.entryIndex(at: now)
        let current = index.flatMap { timeline.entries[$0].step }
        let next = timeline.entries[(index.map { $0 + 1 } ?? 0)...].first { $0.step != nil }
        return VStack {
            if let current, size != .small { Text("Now: " + label(current, in: timeline, long: true)).style(.caption) }
            if let next, let step = next.step {
                Text("Next: " + label(step, in: timeline, long: size != .small)).style(.headline)
                Text(countdown(to: next.date.milliseconds, now: now)).color(.positive)
                Text(next.date.display).style(.caption)
            } else if let current {
                Text(label(current, in: timeline, long: size != .small)).style(.headline)
                Text("under way").color(.positive)
            } else {
                Text("No upcoming trips").style(.headline)
            }
        }.screen
    }

    /// `Flight IB3170 MAD → CDG`, or `Hotel Le Marais` (with the nights, long).
    static func label(_ step: TripStep, in timeline: TripsTimeline, long: Bool) -> String {
        let booking = timeline.bookings[step.booking]
        switch step.kind {
        case .outboundFlight, .inboundFlight:
            let flight = (step.kind == .outboundFlight ? booking.outbound : booking.inbound)!
            return "\(long ? (step.kind == .outboundFlight ? "outbound " : "return ") : "")flight \(flight.code) "
                + "\(flight.departureAirport) → \(flight.arrivalAirport)"
        case .hotel:
            let hotel = booking.hotel!
            return "hotel \(hotel.name)" + (long ? ", \(hotel.nightsText.lowercased())" : "")
        }
    }

    private static let minute: Int64 = 60_000, hour: Int64 = 3_600_000, day: Int64 = 86_400_000

    /// `in 3 d 4 h`, `in 2 h 05 min`, `in 12 min`, `now`.
    static func countdown(to date: Int64, now: Int64) -> String {
        let left = date - now
        switch left {
        case ..<minute: return "now"
        case ..<hour: return "in \(left / minute) min"
        case ..<day:
            let minutes = left % hour / minute
            return "in \(left / hour) h \(minutes < 10 ? "0" : "")\(minutes) min"
        default: return "in \(left / day) d \(left % day / hour) h"
        }
    }

    /// When the countdown to `date` next reads differently.
    static func countdownChange(to date: Int64, now: Int64) -> Int64? {
        let left = date - now
        guard left >= minute else { return nil }
        let unit = left >= day ? hour : minute
        let rest = left % unit
        return now + (rest == 0 ? unit : rest)
    }

    /// The next step's date, for its countdown.
    static func nextStepDate(_ timeline: TripsTimeline, now: Int64) -> Int64? {
        let index = timeline.entryIndex(at: now)
        return timeline.entries[(index.map { $0 + 1 } ?? 0)...].first { $0.step != nil }?.date.milliseconds
    }
}
