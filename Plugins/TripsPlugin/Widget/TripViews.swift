/// The widget's screens as views. Every time is shown in the local time
/// and offset the booking gave it; links go to this plugin's own screens,
/// which stand for the app (a booking, a search) and open through the bus.
public enum TripViews {
    static let plugin = "org.widgethost.trips"

    /// At most this many entries are listed on the timeline screen, so a
    /// huge file stays within the host's limits on a view's size.
    static let listedEntries = 500

    // MARK: Links into the app

    public enum SearchKind: String, CaseIterable, Sendable {
        case flight, hotel, package

        var title: String {
            switch self {
            case .flight: "Search flights"
            case .hotel: "Search hotels"
            case .package: "Search flight + hotel"
            }
        }
    }

    static func bookingLink(_ id: String) -> String { "widget://\(plugin)/booking?id=\(percentEncoded(id))" }
    static func searchLink(_ kind: SearchKind) -> String { "widget://\(plugin)/search?kind=\(kind.rawValue)" }

    // MARK: The widget

    /// The entry current at `now`, or the no-booking view with the reason.
    public static func current(_ state: Result<TripsTimeline, BookingsError>, now: Int64) -> View {
        switch state {
        case let .failure(error):
            return noBooking(reason: error)
        case let .success(timeline):
            let index = timeline.entryIndex(at: now)
            let nextIndex = index.map { $0 + 1 } ?? 0
            var notes: [View] = []
            if nextIndex < timeline.entries.count, let step = timeline.entries[nextIndex].step {
                notes.append(Text("Next: " + summary(step, in: timeline) + ", from " + timeline.entries[nextIndex].date.display).style(.caption))
            }
            if !timeline.skipped.isEmpty { notes.append(skippedNote(timeline.skipped.count)) }
            guard let index, let step = timeline.entries[index].step else {
                // Between trips, "No upcoming trips" would contradict the next step shown under it.
                return VStack { noBooking(reason: nil, betweenTrips: !notes.isEmpty && nextIndex < timeline.entries.count); notes }
            }
            return VStack { self.step(step, of: timeline.bookings[step.booking]); notes }
        }
    }

    static func step(_ step: TripStep, of booking: Booking) -> View {
        switch step.kind {
        case .outboundFlight: flight(booking.outbound!, label: "Outbound flight", booking: booking)
        case .inboundFlight: flight(booking.inbound!, label: "Return flight", booking: booking)
        case .hotel: hotel(booking.hotel!, booking: booking)
        }
    }

    static func flight(_ flight: Flight, label: String, booking: Booking) -> View {
        VStack {
            Badge(label)
            Text("\(flight.code) · \(flight.stopsText)").style(.headline)
            Text("Departs \(flight.departureAirport)  \(flight.departureTime.display)")
            Text("Arrives \(flight.arrivalAirport)  \(flight.arrivalTime.display)")
            Link("Open booking \(booking.id)", to: bookingLink(booking.id))
        }
    }

    static func hotel(_ hotel: Hotel, booking: Booking) -> View {
        VStack {
            Badge("Hotel")
            Text(hotel.name).style(.headline)
            Text(hotel.address)
            Text("\(hotel.checkIn.dateText) · \(hotel.nightsText)")
            Text("Check-in  \(hotel.checkIn.display)")
            Text("Check-out \(hotel.checkOut.display)")
            picture(hotel)
            Link("Open booking \(booking.id)", to: bookingLink(booking.id))
        }
    }

    /// The hotel's photo with its review score over it; the score alone when
    /// the booking has no photo (no placeholder for a picture that does not exist).
    @ViewBuilder
    static func picture(_ hotel: Hotel) -> [View] {
        if let url = hotel.imageURL {
            if let review = hotel.reviewText {
                Overlay(.topTrailing) {
                    Image(alt: "Photo of \(hotel.name)", url: url)
                    Badge(review)
                }
            } else {
                Image(alt: "Photo of \(hotel.name)", url: url)
            }
        } else if let review = hotel.reviewText {
            Badge(review)
        }
    }

    /// No trip to show: three ways into the app, and why, when a named error
    /// is the cause. Between two trips, it says so rather than "no upcoming trips".
    public static func noBooking(reason: BookingsError?, betweenTrips: Bool = false) -> View {
        VStack {
            Text(betweenTrips ? "Between trips" : "No upcoming trips").style(.headline)
            Text("Where to next?")
            for kind in SearchKind.allCases { Link(kind.title, to: searchLink(kind)) }
            if let reason { Text(reason.description).style(.caption).color(.warning) }
        }
    }

    static func skippedNote(_ count: Int) -> View {
        Text(count == 1 ? "1 booking could not be read; the log says why." : "\(count) bookings could not be read; the log says why.")
            .style(.caption).color(.warning)
    }

    public static func loading() -> View { VStack { Progress("Loading your trips") } }

    // MARK: The app's screens

    /// A booking in full, as the app would show it.
    /// The whole screen: one the booking cannot be shown on declares why as its error.
    static func booking(_ booking: Booking?, id: String?, state: Result<TripsTimeline, BookingsError>) -> String {
        guard let booking else {
            let why: String = switch (id, state) {
            case (nil, _): "No booking was chosen."
            case let (_, .failure(error)): "Booking \"\(id!)\" cannot be shown. \(error)"
            case (_, .success): "Booking \"\(id!)\" is not among your trips."
            }
            return VStack {
                Text(why)
                for kind in SearchKind.allCases { Link(kind.title, to: searchLink(kind)) }
            }.screen(error: why)
        }
        return VStack {
            Text("Booking \(booking.id)").style(.headline)
            Text("Bought \(booking.purchaseDate.display)").style(.caption)
            if let outbound = booking.outbound { Section("Outbound flight") { flightDetails(outbound) } }
            if let hotel = booking.hotel {
                Section("Hotel") {
                    Text(hotel.name).style(.headline)
                    Text(hotel.address)
                    Text(hotel.nightsText)
                    Text("Check-in  \(hotel.checkIn.display)")
                    Text("Check-out \(hotel.checkOut.display)")
                    picture(hotel)
                }
            }
            if let inbound = booking.inbound { Section("Return flight") { flightDetails(inbound) } }
        }.screen
    }

    private static func flightDetails(_ flight: Flight) -> [View] {
        [Text("\(flight.code) · \(flight.stopsText)").style(.headline),
         Text("Departs \(flight.departureAirport)  \(flight.departureTime.display)"),
         Text("Arrives \(flight.arrivalAirport)  \(flight.arrivalTime.display)")]
    }

    /// The app's search, where the no-booking view's calls to action lead.
    static func search(_ kind: SearchKind?) -> View {
        VStack {
            if let kind {
                Text(kind.title).style(.headline)
                Text("The travel app opens here, on its \(kind == .package ? "flight + hotel" : kind.rawValue) search.")
            } else {
                Text("What would you like to search for?")
                for kind in SearchKind.allCases { Link(kind.title, to: searchLink(kind)) }
            }
        }
    }

    // MARK: The timeline

    /// Every entry from the current one on, under a heading for its day: its
    /// time, the step, and when that step ends. Days and times are the user's
    /// (their time zone, named), so an entry that starts at 23:30 in New York
    /// is under the New York day; scripts read the ISO keys from
    /// `timeline --json`. `widget-host timeline` prints this screen.
    static func timeline(_ state: Result<TripsTimeline, BookingsError>, now: Int64, zoneAt: (Int64) -> ZonedTime.Zone) -> View {
        func personal(_ milliseconds: Int64) -> String { Self.personal(milliseconds, zoneAt(milliseconds)) }
        let nowText = personal(now)
        switch state {
        case let .failure(error):
            return VStack {
                Text("Timeline at \(nowText): 1 entry").style(.caption)
                Section(days([(0, TimelineEntry(date: ZonedTime(milliseconds: now, zone: .utc), step: nil))], zoneAt: zoneAt)[0].heading) {
                    VStack {
                        Text(clock(now, zoneAt(now))).style(.headline)
                        Badge("now")
                        Text("No booking")
                        Text(error.description).style(.caption).color(.warning)
                    }.padding(2)
                }
            }
        case let .success(timeline):
            let current = timeline.entryIndex(at: now)
            let shown = timeline.entries.prefix(listedEntries)
            return VStack {
                let entries = "\(timeline.entries.count) \(timeline.entries.count == 1 ? "entry" : "entries")"
                let bookings = "\(timeline.bookings.count) \(timeline.bookings.count == 1 ? "booking" : "bookings")"
                Text("Timeline at \(nowText): \(entries) from \(bookings)").style(.caption)
                if current == nil { Text("Nothing is shown before the first entry.").style(.caption) }
                if !timeline.skipped.isEmpty { skippedNote(timeline.skipped.count) }
                for day in days(Array(shown.enumerated()), zoneAt: zoneAt) {
                    Section(day.heading) {
                        for (index, entry) in day.entries {
                            VStack {
                                Text(clock(entry.date.milliseconds, zoneAt(entry.date.milliseconds))).style(.headline)
                                if index == current { Badge("now") }
                                if let step = entry.step {
                                    Text(summary(step, in: timeline))
                                    Text("until \(personal(step.end.milliseconds))").style(.caption)
                                } else {
                                    Text("No booking")
                                }
                            }.padding(2)
                        }
                    }
                }
                if timeline.entries.count > shown.count {
                    Text("… and \(timeline.entries.count - shown.count) more entries").style(.caption)
                }
            }
        }
    }

    /// Consecutive entries grouped by their day in the user's zone, headed `Wed 10 Jun 2026`.
    static func days(_ entries: [(Int, TimelineEntry)], zoneAt: (Int64) -> ZonedTime.Zone) -> [(heading: String, entries: [(Int, TimelineEntry)])] {
        var days: [(heading: String, entries: [(Int, TimelineEntry)])] = []
        for entry in entries {
            let milliseconds = entry.1.date.milliseconds
            let heading = ZonedTime(milliseconds: milliseconds, zone: zoneAt(milliseconds)).dateText
            if days.last?.heading == heading { days[days.count - 1].entries.append(entry) } else { days.append((heading, [entry])) }
        }
        return days
    }

    /// `08:05 CEST`: the time of day in the user's zone, named.
    static func clock(_ milliseconds: Int64, _ zone: ZonedTime.Zone) -> String {
        ZonedTime(milliseconds: milliseconds, zone: zone).time + " " + zone.name
    }

    /// `Wed 10 Jun 2026 08:05 CEST`: an instant as the user reads it, in
    /// their zone and naming it.
    static func personal(_ milliseconds: Int64, _ zone: ZonedTime.Zone) -> String {
        let local = ZonedTime(milliseconds: milliseconds, zone: zone)
        return local.dateText + " " + local.time + " " + zone.name
    }

    /// One line for a step: `Outbound flight IB3170 MAD → CDG (booking B-1042)`.
    static func summary(_ step: TripStep, in timeline: TripsTimeline) -> String {
        let booking = timeline.bookings[step.booking]
        switch step.kind {
        case .outboundFlight:
            let flight = booking.outbound!
            return "Outbound flight \(flight.code) \(flight.departureAirport) → \(flight.arrivalAirport) (booking \(booking.id))"
        case .inboundFlight:
            let flight = booking.inbound!
            return "Return flight \(flight.code) \(flight.departureAirport) → \(flight.arrivalAirport) (booking \(booking.id))"
        case .hotel:
            let hotel = booking.hotel!
            return "Hotel \(hotel.name), \(hotel.nightsText.lowercased()) (booking \(booking.id))"
        }
    }

    private static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }
}
