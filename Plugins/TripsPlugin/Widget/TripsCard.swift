/// The dashboard cards: the trip's next step and the time until it (the
/// step under way too, on a medium card; the steps after it on a large one). The countdown is as coarse as it
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
        let upcoming = upcoming(timeline, now: now)
        return VStack {
            if let current, current != upcoming?.step, size != .small { Text("Now: " + label(current, in: timeline, long: true)).style(.caption) }
            if let (step, date) = upcoming {
                Text("Next: " + label(step, in: timeline, long: size != .small)).style(.headline)
                Text(countdown(to: date.milliseconds, now: now)).color(.positive)
                Text(date.display).style(.caption)
                if size == .large {
                    // A large card has room for what follows: up to three later steps, each with its time.
                    let later = later(timeline, now: now, after: step)
                    if !later.isEmpty {
                        Section("Then") {
                            for (next, when) in later.prefix(3) { Text(label(next, in: timeline, long: false) + " · " + when.display).style(.caption) }
                        }
                    }
                }
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

    /// `in 3 d 4 h`, `in 2 h 05 min`, `in 12 min`, `now`: rounded up, so
    /// the countdown never says less time is left than there is.
    static func countdown(to date: Int64, now: Int64) -> String {
        let left = date - now
        guard left > 0 else { return "now" }
        let minutes = (left + minute - 1) / minute
        switch minutes {
        case ..<60: return "in \(minutes) min"
        case ..<1440: return "in \(minutes / 60) h \(minutes % 60 < 10 ? "0" : "")\(minutes % 60) min"
        default:
            let hours = (left + hour - 1) / hour
            return "in \(hours / 24) d \(hours % 24) h"
        }
    }

    /// When the countdown to `date` next reads differently.
    static func countdownChange(to date: Int64, now: Int64) -> Int64? {
        let left = date - now
        guard left > 0 else { return nil }
        let unit = left > day ? hour : minute
        return date - (left - 1) / unit * unit
    }

    /// The next thing the traveller does, and when: the step shown now if
    /// its moment (a departure, a check-in) is still ahead, as a flight is
    /// shown from its purchase on; else the next step's.
    static func upcoming(_ timeline: TripsTimeline, now: Int64) -> (step: TripStep, date: ZonedTime)? {
        let index = timeline.entryIndex(at: now)
        let steps = timeline.entries[(index ?? 0)...].compactMap(\.step)
        return steps.lazy.map { ($0, moment($0, in: timeline)) }.first { $0.1.milliseconds > now }
    }

    /// The steps still ahead after `next`, in order, each with its moment.
    static func later(_ timeline: TripsTimeline, now: Int64, after next: TripStep) -> [(step: TripStep, date: ZonedTime)] {
        var seen = [next]
        return timeline.entries.compactMap(\.step).compactMap { step in
            guard !seen.contains(step) else { return nil }
            seen.append(step)
            let date = moment(step, in: timeline)
            return date.milliseconds > now ? (step, date) : nil
        }
    }

    static func moment(_ step: TripStep, in timeline: TripsTimeline) -> ZonedTime {
        let booking = timeline.bookings[step.booking]
        switch step.kind {
        case .outboundFlight: return booking.outbound!.departureTime
        case .inboundFlight: return booking.inbound!.departureTime
        case .hotel: return booking.hotel!.checkIn
        }
    }
}
