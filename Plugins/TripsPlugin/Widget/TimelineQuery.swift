/// The answer to the host's `timeline` query (plugin.h): every entry from
/// the current one on, its date and the step it shows as data, so a script
/// reads the timeline without parsing a rendered screen.
enum TimelineQuery {
    static func json(_ state: Result<TripsTimeline, BookingsError>, now: Int64) -> JSONValue {
        let nowText: JSONValue = .string(ZonedTime(milliseconds: now, zone: .utc).iso)
        switch state {
        case let .failure(error):
            return ["now": nowText, "entries": [], "error": .string(error.description)]
        case let .success(timeline):
            let current = timeline.entryIndex(at: now)
            let entries = timeline.entries.enumerated().map { index, entry -> JSONValue in
                ["date": .string(entry.date.iso), "current": .bool(index == current),
                 "data": entry.step.map { step(in: timeline, $0) } ?? .null]
            }
            return ["now": nowText, "entries": .array(entries), "skipped": .number(String(timeline.skipped.count)), "error": nil]
        }
    }

    /// A step: its kind, booking, when it shows, and the flight or hotel behind it.
    static func step(in timeline: TripsTimeline, _ step: TripStep) -> JSONValue {
        let booking = timeline.bookings[step.booking]
        let detail: JSONValue
        switch step.kind {
        case .outboundFlight: detail = booking.outbound.map(flight) ?? .null
        case .inboundFlight: detail = booking.inbound.map(flight) ?? .null
        case .hotel: detail = booking.hotel.map(hotel) ?? .null
        }
        return .object([("kind", .string(step.kind.name)), ("booking", .string(booking.id)), ("start", .string(step.start.iso)),
                        ("end", .string(step.end.iso)), (step.kind == .hotel ? "hotel" : "flight", detail)])
    }

    static func flight(_ flight: Flight) -> JSONValue {
        ["code": .string(flight.code), "stops": .number(String(flight.stops)),
         "departure_airport": .string(flight.departureAirport), "departure_time": .string(flight.departureTime.iso),
         "arrival_airport": .string(flight.arrivalAirport), "arrival_time": .string(flight.arrivalTime.iso)]
    }

    static func hotel(_ hotel: Hotel) -> JSONValue {
        ["name": .string(hotel.name), "address": .string(hotel.address), "check_in": .string(hotel.checkIn.iso),
         "check_out": .string(hotel.checkOut.iso), "image_url": .optional(hotel.imageURL)]
    }
}
