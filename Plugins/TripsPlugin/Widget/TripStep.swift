/// One thing the widget can show about a booking, for as long as it is
/// relevant: from `start` (inclusive) to `end` (exclusive).
public struct TripStep: Sendable, Equatable {
    public enum Kind: Int, Sendable, Comparable {
        case outboundFlight, hotel, inboundFlight

        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }

        public var name: String {
            switch self {
            case .outboundFlight: "outbound_flight"
            case .hotel: "hotel"
            case .inboundFlight: "inbound_flight"
            }
        }
    }

    public let kind: Kind
    /// The booking's position in the decoded list, so a step stays small
    /// (sorting 300,000 of them moves no strings).
    public let booking: Int
    public let start: ZonedTime
    public let end: ZonedTime
}

/// The adapter: each booking becomes its steps, following the original
/// widget. The outbound flight shows from the purchase until it lands; the
/// hotel from the landing until check-out; the inbound flight from then
/// until the traveller is home. In general each step begins where the one
/// before it ended (the first at the purchase date), so:
///
/// - a one-way trip (outbound only) is one step, purchase to landing;
/// - a hotel alone runs from the purchase to check-out;
/// - flights without a hotel: the inbound flight shows from the outbound
///   landing until home, so the return is on screen during the stay;
/// - if the inbound flight departs before the hotel's check-out, the hotel
///   step ends at that departure, so the flight is on screen while it flies;
/// - a zero-night (day-use) stay is an ordinary step; its view says so.
///
/// A step that would end before it begins (a booking bought after its
/// flight landed) is left out, as is a step that has ended by `now`.
public enum TripSteps {
    public static func steps(of booking: Booking, at index: Int, into steps: inout [TripStep]) {
        var previousEnd = booking.purchaseDate
        func add(_ kind: TripStep.Kind, ending end: ZonedTime) {
            if end.milliseconds > previousEnd.milliseconds {
                steps.append(TripStep(kind: kind, booking: index, start: previousEnd, end: end))
                previousEnd = end
            }
        }
        if let outbound = booking.outbound { add(.outboundFlight, ending: outbound.arrivalTime) }
        if let hotel = booking.hotel {
            var end = hotel.checkOut
            if let inbound = booking.inbound, inbound.departureTime.milliseconds < end.milliseconds { end = inbound.departureTime }
            add(.hotel, ending: end)
        }
        if let inbound = booking.inbound { add(.inboundFlight, ending: inbound.arrivalTime) }
    }

    /// Every booking's steps that have not ended by `now`, sorted by start
    /// (then end, then booking, then leg, so the order never depends on the
    /// sort's stability). O(n log n).
    public static func upcoming(_ bookings: [Booking], now: Int64) -> [TripStep] {
        var all: [TripStep] = []
        all.reserveCapacity(bookings.count * 3)
        for (index, booking) in bookings.enumerated() { steps(of: booking, at: index, into: &all) }
        all.removeAll { $0.end.milliseconds <= now }
        all.sort { a, b in
            if a.start.milliseconds != b.start.milliseconds { return a.start.milliseconds < b.start.milliseconds }
            if a.end.milliseconds != b.end.milliseconds { return a.end.milliseconds < b.end.milliseconds }
            if a.booking != b.booking { return a.booking < b.booking }
            return a.kind < b.kind
        }
        return all
    }
}
