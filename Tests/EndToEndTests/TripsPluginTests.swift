import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The My Trips widget (Plugins/TripsPlugin), driven through the real
/// `widget-host` the way the app and a person use it: bookings written with
/// `store put`, screens read with `launch --format json` and `timeline --screen-json`.
@Suite("My Trips widget")
struct TripsPluginTests {
    // MARK: - Step boundaries

    /// The Paris package, a second either side of every step's start and end.
    /// (Not the instant itself: `--now` starts a clock that then runs, so a
    /// render happens a few milliseconds after it.)
    @Test("each step boundary, a second before and after", arguments: [
        ("2026-05-02T18:29:59+02:00", "No booking"),        // the purchase: the outbound step starts
        ("2026-05-02T18:30:01+02:00", "Outbound flight"),
        ("2026-06-10T10:09:59+02:00", "Outbound flight"),   // landing: the outbound ends, the hotel starts
        ("2026-06-10T08:09:59Z", "Outbound flight"),        // the same instant, written in UTC
        ("2026-06-10T10:10:01+02:00", "Hotel"),
        ("2026-06-14T10:59:59+02:00", "Hotel"),             // check-out: the hotel ends, the return starts
        ("2026-06-14T11:00:01+02:00", "Return flight"),
        ("2026-06-14T19:54:59+02:00", "Return flight"),     // home: the last step ends
        ("2026-06-14T19:55:01+02:00", "No booking"),
    ])
    func stepBoundaries(_ now: String, _ expected: String) throws {
        let world = try TripsWorld()
        try world.put(TripsBookings.document([TripsBookings.paris]))
        let screen = try world.screen(at: now)
        #expect(screen.shown == expected, "\(screen)")
    }

    // MARK: - The views

    @Test("a flight step shows stops, code, airports and local times with offsets, and links to its booking")
    func flightView() throws {
        let world = try TripsWorld()
        let oneStop = TripsBookings.flight("AF22", stops: 1, from: "CDG", departs: "2026-07-03T10:30:00+02:00",
                                           to: "JFK", arrives: "2026-07-03T15:20:00-04:00")
        try world.put(TripsBookings.document([TripsBookings.booking("B 2077/ü", purchased: "2026-06-20T09:00:00+02:00", outbound: oneStop)]))
        let screen = try world.screen(at: "2026-07-01T00:00:00Z")
        #expect(screen.screen == "trip")
        #expect(screen.badges.first == "Outbound flight", "\(screen)")
        #expect(screen.headline == "AF22 · 1 stop", "\(screen)")
        #expect(screen.texts.contains("Departs CDG  Fri 3 Jul 2026 10:30 +02:00"), "\(screen)")
        #expect(screen.texts.contains("Arrives JFK  Fri 3 Jul 2026 15:20 -04:00"), "\(screen)")
        // The id is percent-encoded, so the link parses back to it.
        #expect(screen.links == [TripsLink(title: "Open booking B 2077/ü", target: "widget://org.widgethost.trips/booking?id=B%202077%2F%C3%BC")],
                "\(screen)")
        let target = try NavigationTarget(link: screen.links[0].target)
        #expect(target.params.first?.1 == "B 2077/ü")

        let direct = try TripsWorld()
        try direct.put(TripsBookings.document([TripsBookings.paris]))
        #expect(try direct.screen(at: "2026-06-01T00:00:00Z").headline == "IB3436 · Direct")
    }

    @Test("a hotel step shows the date, the nights, the name, the address and an image")
    func hotelView() throws {
        let world = try TripsWorld()
        try world.put(TripsBookings.document([TripsBookings.paris]))
        let screen = try world.screen(at: "2026-06-12T00:00:00Z")
        #expect(screen.badges.first == "Hotel", "\(screen)")
        #expect(screen.headline == "Hôtel du Louvre")
        #expect(screen.texts.contains("Place André Malraux, 75001 Paris, France"))
        #expect(screen.texts.contains("Wed 10 Jun 2026 · 4 nights"), "\(screen)")
        #expect(screen.texts.contains("Check-in  Wed 10 Jun 2026 15:00 +02:00"))
        #expect(screen.texts.contains("Check-out Sun 14 Jun 2026 11:00 +02:00"))
        #expect(screen.images.first?["url"]?.string == "https://images.example.com/hotels/du-louvre.jpg", "\(screen)")
        #expect(screen.links.first == TripsLink(title: "Open booking B-1042", target: "widget://org.widgethost.trips/booking?id=B-1042"))
        #expect(screen.texts.contains("Next: Return flight IB3437 CDG → MAD (booking B-1042), from Sun 14 Jun 2026 11:00 +02:00"), "\(screen)")
    }

    @Test("the no-booking view offers three searches, each a link into the app")
    func noBookingView() throws {
        let world = try TripsWorld()
        let screen = try world.screen(at: "2026-06-01T00:00:00Z")
        #expect(screen.shown == "No booking", "\(screen)")
        #expect(screen.links == TripsScreen.callsToAction, "\(screen)")
        #expect(screen.json["actions"]?.array?.compactMap { $0["kind"]?.string } == ["link", "link", "link"])
    }

    @Test("links open the app's screens, and the bus hears the change", arguments: [
        ("widget://org.widgethost.trips/search", "search", "What would you like to search for?"),
        ("widget://org.widgethost.trips/booking", "booking", "No booking was chosen."),
    ])
    func linksNavigate(_ link: String, _ screenID: String, _ text: String) throws {
        let world = try TripsWorld()
        let run = try world.run(["launch", "trips", "--once", "--format", "json", "--now", "2026-06-01T00:00:00Z",
                                 "--actions", link, "--trace-events"])
        #expect(run.status == 0, "\(run)")
        let screen = try TripsScreen(run)
        #expect(screen.screen == screenID, "\(screen)")
        #expect(screen.json["stack"]?.array?.count == 2, "\(screen)")
        #expect(screen.texts.contains(text), "\(screen)")
        // The session moves the stack itself; the bus carries the change to whoever listens.
        #expect(run.stderr.contains("\"topic\":\"nav.changed\""), "\(run)")
        #expect(!run.stderr.contains("\"topic\":\"nav.push\""), "\(run)")
    }

    // MARK: - The timeline

    @Test("timeline --json gives each entry's date and data as JSON, the same entries the screen lists")
    func timelineEntriesAsData() throws {
        let world = try TripsWorld()
        try world.put(TripsBookings.document([TripsBookings.paris]))
        let run = try world.run(["timeline", "trips", "--json", "--now", "2026-06-12T00:00:00Z", "--wait", "600"])
        #expect(run.status == 0, "\(run)")
        let json = try run.json()
        #expect(json["plugin"]?.string == "org.widgethost.trips")
        #expect(json["error"] == .null)
        #expect(json["view"] == nil, "entries, not a rendered screen")
        let entries = try #require(json["entries"]?.array)
        let screen = try world.timeline(at: "2026-06-12T00:00:00Z")
        #expect(entries.map { $0["date"]?.string ?? "" } == screen.dates, "\(run)")
        #expect(entries.map { $0["current"] } == [true, false, false])
        let hotel = try #require(entries.first?["data"])
        #expect(hotel["kind"]?.string == "hotel")
        #expect(hotel["booking"]?.string == "B-1042")
        #expect(hotel["end"]?.string == "2026-06-14T11:00:00+02:00")
        #expect(hotel["hotel"]?["name"]?.string == "Hôtel du Louvre")
        #expect(hotel["hotel"]?["check_in"]?.string == "2026-06-10T15:00:00+02:00")
        let flight = try #require(entries.dropFirst().first?["data"])
        #expect(flight["kind"]?.string == "inbound_flight")
        #expect(flight["flight"]?["code"]?.string == "IB3437")
        #expect(flight["flight"]?["arrival_airport"]?.string == "MAD")
        #expect(entries.last?["data"] == .null, "the final entry shows no booking")
    }

    @Test("timeline --json with no bookings: no entries and the reason; a widget answering no timeline query is refused")
    func timelineEntriesErrors() throws {
        let world = try TripsWorld()
        let empty = try world.run(["timeline", "trips", "--json", "--now", "2026-06-12T00:00:00Z", "--wait", "600"])
        #expect(empty.status == 0, "\(empty)")
        #expect(try empty.json()["entries"] == .array([]), "\(empty)")
        #expect(try empty.json()["error"]?.string?.contains("trips.bookings") == true, "\(empty)")
        let crypto = try world.run(["timeline", "crypto", "--json"])
        #expect(crypto.status == 1, "\(crypto)")
        #expect(crypto.stderr.contains("answers no timeline query"), "\(crypto)")
    }

    // MARK: - Sample data that stays current

    static let sample = TestSupport.packageRoot + "/Plugins/TripsPlugin/sample-bookings.json"
    static let sampleAnchor = "2026-06-11T12:00:00+02:00"

    @Test("store put --shift-dates moves every time by whole days, each in its own offset, and leaves the rest alone")
    func shiftDatesExactly() throws {
        let world = try TripsWorld()
        let put = try world.run(["store", "put", "trips.bookings", "--file", Self.sample, "--shift-dates", Self.sampleAnchor,
                                 "--now", "2030-01-01T09:00:00Z"])
        #expect(put.status == 0, "\(put)")
        let stored = try JSONParser.parse(try world.run(["store", "get", "trips.bookings"]).stdout)
        let bookings = try #require(stored["bookings"]?.array)
        // 2026-06-11 to 2030-01-01 (09:00Z is within half a day of the anchor's 10:00Z) is 1299 days.
        #expect(bookings[0]["outbound_flight"]?["departure_time"]?.string == "2029-12-31T08:05:00+02:00")
        #expect(bookings[0]["hotel"]?["check_in"]?.string == "2029-12-31T15:00:00+02:00")
        #expect(bookings[1]["outbound_flight"]?["arrival_time"]?.string == "2030-01-23T15:20:00-04:00")
        #expect(bookings[0]["hotel"]?["name"]?.string == "Hôtel du Louvre")
        #expect(bookings[2]["hotel"]?["image_url"] == .null)
        #expect(bookings[0]["outbound_flight"]?["code"]?.string == "IB3436")
    }

    @Test("the README's sample command gives a trip that is current today, with no --now")
    func sampleIsCurrentToday() throws {
        let world = try TripsWorld()
        let put = try world.run(["store", "put", "trips.bookings", "--file", Self.sample, "--shift-dates", Self.sampleAnchor])
        #expect(put.status == 0, "\(put)")
        let run = try world.run(["launch", "trips", "--once", "--format", "json", "--wait", "600"])
        let screen = try TripsScreen(run)
        #expect(run.status == 0, "\(run)")
        #expect(screen.shown == "Hotel", "the Paris hotel stay is under way: \(screen)")
    }

    @Test("store put --shift-dates refuses a bad time (usage, exit 2) and a value that is not JSON (exit 1), storing nothing")
    func shiftDatesErrors() throws {
        let world = try TripsWorld()
        let bad = try world.run(["store", "put", "trips.bookings", "--file", Self.sample, "--shift-dates", "June"])
        #expect(bad.status == 2, "\(bad)")
        #expect(bad.stderr.contains("--shift-dates takes an ISO 8601 time"), "\(bad)")
        let text = world.home + "/not.json"
        try TestSupport.write(Array("not json".utf8), to: text)
        let notJSON = try world.run(["store", "put", "trips.bookings", "--file", text, "--shift-dates", Self.sampleAnchor])
        #expect(notJSON.status == 1, "\(notJSON)")
        #expect(notJSON.stderr.contains("--shift-dates needs a JSON value"), "\(notJSON)")
        #expect(try world.run(["store", "get", "trips.bookings"]).status == 1, "nothing was stored")
    }

    @Test("timeline --screen-json: an entry at each step's start and a final no-booking entry")
    func timelineJSON() throws {
        let world = try TripsWorld()
        try world.put(TripsBookings.document([TripsBookings.paris]))
        let timeline = try world.timeline(at: "2026-06-12T00:00:00Z")
        #expect(timeline.json["plugin"]?.string == "org.widgethost.trips")
        #expect(timeline.json["screen"]?.string == "timeline")
        #expect(timeline.json["error"] == .null)
        let nowMilliseconds = try #require(timeline.json["now_ms"].flatMap { if case let .number(text) = $0 { Int64(text) } else { nil } })
        #expect(nowMilliseconds >= ISO8601.milliseconds(from: "2026-06-12T00:00:00Z")!)
        // Built during the hotel step: the outbound flight has ended and is dropped.
        #expect(timeline.dates == ["2026-06-10T10:10:00+02:00", "2026-06-14T11:00:00+02:00", "2026-06-14T19:55:00+02:00"], "\(timeline)")
        #expect(timeline.steps == ["Hotel Hôtel du Louvre, 4 nights (booking B-1042)",
                                   "Return flight IB3437 CDG → MAD (booking B-1042)", "No booking"], "\(timeline)")
        #expect(timeline.entries.map(\.isNow) == [true, false, false])
        // When a step ends is shown in the user's zone (TZ=Europe/Paris), naming it.
        #expect(timeline.entries[0].texts.contains("until Sun 14 Jun 2026 11:00 CEST"), "\(timeline)")
        #expect(timeline.entries[1].texts.contains("until Sun 14 Jun 2026 19:55 CEST"), "\(timeline)")

        let before = try world.timeline(at: "2026-05-01T00:00:00Z")
        #expect(before.dates == ["2026-05-02T18:30:00+02:00", "2026-06-10T10:10:00+02:00", "2026-06-14T11:00:00+02:00",
                                 "2026-06-14T19:55:00+02:00"], "\(before)")
        #expect(before.entries.allSatisfy { !$0.isNow }, "nothing is current before the purchase: \(before)")
    }

    @Test("timeline in text form lists the entries; a widget without a timeline is refused")
    func timelineText() throws {
        let world = try TripsWorld()
        try world.put(TripsBookings.document([TripsBookings.paris]))
        let text = try world.run(["timeline", "trips", "--now", "2026-06-01T00:00:00Z"])
        #expect(text.status == 0, "\(text)")
        for line in ["SAT 2 MAY 2026", "18:30 CEST", "(now)", "Outbound flight IB3436 MAD → CDG (booking B-1042)", "No booking"] {
            #expect(text.stdout.contains(line), "\(text)")
        }
        let crypto = try world.run(["timeline", "crypto"])
        #expect(crypto.status == 1, "\(crypto)")
        #expect(crypto.stderr.contains("declares no 'timeline' screen"), "\(crypto)")
        let nameless = try world.run(["timeline"])
        #expect(nameless.status == 2, "\(nameless)")
        let badNow = try world.run(["timeline", "trips", "--now", "tomorrow"])
        #expect(badNow.status == 2, "\(badNow)")
    }

    // MARK: - Shapes of bookings

    @Test("overlapping bookings: the running step that ends first is shown; a gap shows no booking (the sample file)")
    func overlappingSample() throws {
        let world = try TripsWorld()
        try world.put(try TestSupport.readBytes(TestSupport.packageRoot + "/Plugins/TripsPlugin/sample-bookings.json"))
        let timeline = try world.timeline(at: "2026-06-01T00:00:00Z")
        #expect(timeline.dates == ["2026-05-02T18:30:00+02:00", "2026-06-10T10:10:00+02:00", "2026-06-14T11:00:00+02:00",
                                   "2026-06-14T19:55:00+02:00", "2026-06-20T09:00:00+02:00", "2026-07-03T21:20:00+02:00",
                                   "2026-07-06T17:00:00+02:00"], "\(timeline)")
        #expect(timeline.steps == ["Outbound flight IB3436 MAD → CDG (booking B-1042)", "Hotel Hôtel du Louvre, 4 nights (booking B-1042)",
                                   "Return flight IB3437 CDG → MAD (booking B-1042)", "No booking",
                                   "Outbound flight AF22 CDG → JFK (booking B-2077)", "Hotel The Jane, 3 nights (booking B-3100)",
                                   "No booking"], "\(timeline)")
        // B-3100 is bought on 25 June while B-2077's flight is still to come:
        // the flight, ending first, stays on screen; the hotel takes over at its landing.
        let both = try world.screen(at: "2026-06-26T00:00:00Z")
        #expect(both.headline == "AF22 · 1 stop", "\(both)")
        #expect(both.texts.contains("Next: Hotel The Jane, 3 nights (booking B-3100), from Fri 3 Jul 2026 15:20 -04:00"), "\(both)")
        #expect(try world.screen(at: "2026-07-03T15:19:59-04:00").headline == "AF22 · 1 stop")
        #expect(try world.screen(at: "2026-07-03T15:20:01-04:00").headline == "The Jane")
        let gap = try world.screen(at: "2026-06-16T00:00:00Z")
        #expect(gap.shown == "No booking", "\(gap)")
        #expect(gap.texts.contains("Next: Outbound flight AF22 CDG → JFK (booking B-2077), from Sat 20 Jun 2026 09:00 +02:00"), "\(gap)")
        // Before the first entry (the first purchase is still to come), as the
        // README says: the no-booking view, with the first step as "Next".
        let before = try world.screen(at: "2026-05-01T00:00:00Z")
        #expect(before.shown == "No booking", "\(before)")
        #expect(before.texts.contains("Next: Outbound flight IB3436 MAD → CDG (booking B-1042), from Sat 2 May 2026 18:30 +02:00"), "\(before)")
    }

    @Test("one-way trips, hotels alone, flights without a hotel and day-use stays", arguments: [
        ("one-way: outbound only", TripsBookings.booking("A", purchased: "2026-05-02T18:30:00+02:00", outbound: TripsBookings.parisOutbound),
         ["Outbound flight IB3436 MAD → CDG (booking A)", "No booking"],
         ["2026-05-02T18:30:00+02:00", "2026-06-10T10:10:00+02:00"]),
        ("one-way: inbound only", TripsBookings.booking("B", purchased: "2026-05-02T18:30:00+02:00", inbound: TripsBookings.parisInbound),
         ["Return flight IB3437 CDG → MAD (booking B)", "No booking"],
         ["2026-05-02T18:30:00+02:00", "2026-06-14T19:55:00+02:00"]),
        ("hotel only", TripsBookings.booking("C", purchased: "2026-05-02T18:30:00+02:00", hotel: TripsBookings.parisHotel),
         ["Hotel Hôtel du Louvre, 4 nights (booking C)", "No booking"],
         ["2026-05-02T18:30:00+02:00", "2026-06-14T11:00:00+02:00"]),
        ("flights without a hotel", TripsBookings.booking("D", purchased: "2026-05-02T18:30:00+02:00",
                                                          outbound: TripsBookings.parisOutbound, inbound: TripsBookings.parisInbound),
         ["Outbound flight IB3436 MAD → CDG (booking D)", "Return flight IB3437 CDG → MAD (booking D)", "No booking"],
         ["2026-05-02T18:30:00+02:00", "2026-06-10T10:10:00+02:00", "2026-06-14T19:55:00+02:00"]),
        ("outbound and hotel, no return", TripsBookings.booking("E", purchased: "2026-05-02T18:30:00+02:00",
                                                                outbound: TripsBookings.parisOutbound, hotel: TripsBookings.parisHotel),
         ["Outbound flight IB3436 MAD → CDG (booking E)", "Hotel Hôtel du Louvre, 4 nights (booking E)", "No booking"],
         ["2026-05-02T18:30:00+02:00", "2026-06-10T10:10:00+02:00", "2026-06-14T11:00:00+02:00"]),
        ("day use: zero nights", TripsBookings.booking("F", purchased: "2026-05-02T18:30:00+02:00", outbound: TripsBookings.parisOutbound,
                                                       hotel: TripsBookings.hotel("Day Rooms", address: "1 Rue de Rivoli, Paris",
                                                                                  checkIn: "2026-06-10T12:00:00+02:00",
                                                                                  checkOut: "2026-06-10T18:00:00+02:00")),
         ["Outbound flight IB3436 MAD → CDG (booking F)", "Hotel Day Rooms, day use (no night) (booking F)", "No booking"],
         ["2026-05-02T18:30:00+02:00", "2026-06-10T10:10:00+02:00", "2026-06-10T18:00:00+02:00"]),
        ("return departs before check-out: the hotel ends at the departure",
         TripsBookings.booking("G", purchased: "2026-05-02T18:30:00+02:00", outbound: TripsBookings.parisOutbound, hotel: TripsBookings.parisHotel,
                               inbound: TripsBookings.flight("IB3401", from: "CDG", departs: "2026-06-14T07:00:00+02:00",
                                                             to: "MAD", arrives: "2026-06-14T09:05:00+02:00")),
         ["Outbound flight IB3436 MAD → CDG (booking G)", "Hotel Hôtel du Louvre, 4 nights (booking G)",
          "Return flight IB3401 CDG → MAD (booking G)", "No booking"],
         ["2026-05-02T18:30:00+02:00", "2026-06-10T10:10:00+02:00", "2026-06-14T07:00:00+02:00", "2026-06-14T09:05:00+02:00"]),
    ])
    func bookingShapes(_ name: String, _ booking: JSONValue, _ steps: [String], _ dates: [String]) throws {
        let world = try TripsWorld()
        try world.put(TripsBookings.document([booking]))
        let timeline = try world.timeline(at: "2026-05-01T00:00:00Z")
        #expect(timeline.steps == steps, "\(name): \(timeline)")
        #expect(timeline.dates == dates, "\(name): \(timeline)")
    }

    @Test("a day-use stay says it has no night")
    func dayUseView() throws {
        let world = try TripsWorld()
        let dayRooms = TripsBookings.hotel("Day Rooms", address: "1 Rue de Rivoli, Paris", checkIn: "2026-06-10T12:00:00+02:00",
                                           checkOut: "2026-06-10T18:00:00+02:00")
        try world.put(TripsBookings.document([TripsBookings.booking("F", purchased: "2026-05-02T18:30:00+02:00", hotel: dayRooms)]))
        let screen = try world.screen(at: "2026-06-10T13:00:00+02:00")
        #expect(screen.texts.contains("Wed 10 Jun 2026 · Day use (no night)"), "\(screen)")
        #expect(screen.images.isEmpty, "no image_url: no image placeholder: \(screen)")
    }

    // MARK: - Errors

    enum Failure: String, CaseIterable, CustomTestStringConvertible {
        case storageMissing, keyMissing, invalidUTF8, invalidJSON, notAnObject, noBookingsArray, emptyList, onlyBookingInvalid

        var testDescription: String { rawValue }

        /// Sets the store up; returns the reason the view and the log must give.
        func prepare(_ world: TripsWorld) throws -> String {
            switch self {
            case .storageMissing:
                // The container's directory is a plain file: nothing can be read from it.
                try TestSupport.makeDirectory(world.home + "/data")
                try TestSupport.makeDirectory(world.home + "/data/widget-host")
                try TestSupport.write(Array("not a directory".utf8), to: world.storeDirectory)
                return "Storage not found: the shared container could not be read"
            case .keyMissing:
                return "Data not found: the app has not written trips.bookings to the shared container"
            case .invalidUTF8:
                try world.put(Array("{\"bookings\": [\n  {\"id\": \"caf".utf8) + [0xC3, 0x28] + Array("\"}]}".utf8))
                return "Wrong encoding: invalid UTF-8 at byte 28 (line 2, column 14)"
            case .invalidJSON:
                try world.put(Array("{\"bookings\": [\n  {\"id\": \"x\",]}".utf8))
                return "Wrong encoding: invalid JSON at line 2, column 14: expected a string key"
            case .notAnObject:
                try world.put(TripsBookings.document([TripsBookings.paris])["bookings"]!)
                return "Wrong encoding: the document must be a JSON object with a \"bookings\" array"
            case .noBookingsArray:
                try world.put(["bookings": ["id": "B-1042"]])
                return "Wrong encoding: the document has no \"bookings\" array"
            case .emptyList:
                try world.put(TripsBookings.document([]))
                return "No booking available: the list of bookings is empty"
            case .onlyBookingInvalid:
                try world.put(TripsBookings.document([["id": "B-1", "purchase_date": "2026-05-02T18:30:00+02:00"]]))
                return "No booking available: the only booking could not be read; the first: bookings[0] (id \"B-1\") skipped: "
                    + "it has no outbound_flight, hotel or inbound_flight"
            }
        }
    }

    @Test("every named error renders the no-booking view, declares its reason as the error state in --format json, and logs it",
          arguments: Failure.allCases)
    func errorsShowNoBooking(_ failure: Failure) throws {
        let world = try TripsWorld()
        let reason = try failure.prepare(world)
        let screen = try world.screen(at: "2026-06-01T00:00:00Z")
        // A named error is a view, not a failed render, and the view declares it.
        #expect(screen.json["view"]?.isObject == true, "\(screen)")
        #expect(screen.json["error"]?.string?.hasPrefix(reason) == true, "\(screen)")
        #expect(screen.shown == "No booking", "\(screen)")
        #expect(screen.links == TripsScreen.callsToAction, "\(screen)")
        #expect(screen.texts.contains { $0.hasPrefix(reason) }, "expected '\(reason)' in \(screen)")
        #expect(screen.run.stderr.contains("[warning] org.widgethost.trips: no booking to show: " + reason), "\(screen)")

        let timeline = try world.timeline(at: "2026-06-01T00:00:00Z")
        #expect(timeline.steps == ["No booking"], "\(timeline)")
        #expect(timeline.entries.first?.texts.contains { $0.hasPrefix(reason) } == true, "\(timeline)")
    }

    /// A broken booking beside a good one: the good one shows, the broken
    /// one is skipped with its reason in the log.
    @Test("a booking with a missing or invalid field is skipped with a logged reason", arguments: [
        (TripsBookings.booking("", purchased: "2026-05-02T18:30:00+02:00", hotel: TripsBookings.parisHotel), "id is empty"),
        // Blank is blank in ASCII and beyond it (an em space, a no-break space): only whitespace is empty.
        (TripsBookings.booking(" \t\r\n", purchased: "2026-05-02T18:30:00+02:00", hotel: TripsBookings.parisHotel), "id is empty"),
        (TripsBookings.booking(" \u{2003}\u{A0}", purchased: "2026-05-02T18:30:00+02:00", hotel: TripsBookings.parisHotel), "id is empty"),
        (["purchase_date": "2026-05-02T18:30:00+02:00", "hotel": TripsBookings.parisHotel], "id is missing"),
        (TripsBookings.booking("X", purchased: "2026-05-02 18:30", hotel: TripsBookings.parisHotel),
         "purchase_date is \"2026-05-02 18:30\", not an ISO 8601 time with an offset"),
        (TripsBookings.booking("X", purchased: "2026-05-02T18:30:00", hotel: TripsBookings.parisHotel),
         "purchase_date is \"2026-05-02T18:30:00\", not an ISO 8601 time with an offset"),
        (TripsBookings.booking("X", purchased: "2026-05-02T18:30:00+02:00",
                               outbound: ["code": "IB1", "stops": 0, "departure_airport": "MAD", "departure_time": "2026-06-10T08:05:00+02:00",
                                          "arrival_airport": "CDG"]), "outbound_flight.arrival_time is missing"),
        (TripsBookings.booking("X", purchased: "2026-05-02T18:30:00+02:00",
                               outbound: TripsBookings.flight("IB1", stops: -1, from: "MAD", departs: "2026-06-10T08:05:00+02:00",
                                                              to: "CDG", arrives: "2026-06-10T10:10:00+02:00")),
         "outbound_flight.stops is not a whole number from 0 to 99"),
        (TripsBookings.booking("X", purchased: "2026-05-02T18:30:00+02:00",
                               inbound: TripsBookings.flight("IB1", from: "MAD", departs: "2026-06-10T08:05:00+02:00",
                                                             to: "CDG", arrives: "2026-06-10T08:05:00+02:00")),
         "inbound_flight.arrival_time is not after its departure_time"),
        (TripsBookings.booking("X", purchased: "2026-05-02T18:30:00+02:00",
                               hotel: TripsBookings.hotel("H", address: "A", checkIn: "2026-06-12T15:00:00+02:00", checkOut: "2026-06-11T11:00:00+02:00")),
         "hotel.check_out is before its check_in"),
        (TripsBookings.booking("X", purchased: "2026-05-02T18:30:00+02:00", hotel: ["name": "H", "check_in": "2026-06-12T15:00:00+02:00"]),
         "hotel.address is missing"),
        (TripsBookings.booking("X", purchased: "2026-05-02T18:30:00+02:00", hotel: "Hôtel du Louvre"), "hotel is not a JSON object"),
        (TripsBookings.booking("X", purchased: "2026-05-02T18:30:00+02:00", outbound: TripsBookings.parisInbound, inbound: TripsBookings.parisOutbound),
         "inbound_flight departs before outbound_flight lands"),
        (TripsBookings.booking("X", purchased: "2026-05-02T18:30:00+02:00", outbound: TripsBookings.parisInbound, hotel: TripsBookings.parisHotel),
         "hotel.check_out is before outbound_flight lands"),
        (TripsBookings.booking("B-1042", purchased: "2026-05-02T18:30:00+02:00", hotel: TripsBookings.parisHotel),
         "the id is used by an earlier booking"),
        ("not a booking", "the booking is not a JSON object"),
    ] as [(JSONValue, String)])
    func invalidBookingSkipped(_ broken: JSONValue, _ reason: String) throws {
        let world = try TripsWorld()
        try world.put(TripsBookings.document([TripsBookings.paris, broken]))
        let screen = try world.screen(at: "2026-06-12T00:00:00Z")
        #expect(screen.shown == "Hotel", "the good booking still shows: \(screen)")
        #expect(screen.texts.contains("1 booking could not be read; the log says why."), "\(screen)")
        #expect(screen.run.stderr.contains("[warning] org.widgethost.trips: bookings[1]"), "\(screen)")
        #expect(screen.run.stderr.contains(" skipped: " + reason), "expected '\(reason)' in the log: \(screen)")
    }

    // MARK: - Scale

    /// Large enough to show the work is not quadratic in a debug build
    /// (the benchmark measures 100,000); no timing is asserted.
    @Test("20,000 overlapping bookings adapt and render")
    func manyBookings() throws {
        let world = try TripsWorld()
        try world.put(TripsBookings.many(20_000))
        // At hour 10,000.5 hundreds of steps are running; the one ending
        // first is booking 9,951's outbound flight, landing at hour 10,001
        // (booking 9,922 is home at 10,001.25, 9,927 checks out at 10,001.5).
        let now = TripsBookings.utc(ISO8601.milliseconds(from: "2026-01-01T00:00:00Z")! + 10_000 * 3_600_000 + 1_800_000)
        // A wait far past any machine's speed: the result must not depend on load.
        let screen = try world.screen(at: now, ["--wait", "600"])
        #expect(screen.shown == "Outbound flight", "\(screen)")
        #expect(screen.headline == "WH9951 · Direct", "\(screen)")
        #expect(screen.links.first?.target == "widget://org.widgethost.trips/booking?id=S-9951", "\(screen)")

        let timeline = try world.timeline(at: now)
        #expect(timeline.entries.count == 500, "the timeline screen lists the first 500 entries")
        #expect(timeline.entries.first?.isNow == true)
        #expect(timeline.notes.contains { $0.hasPrefix("… and ") && $0.hasSuffix(" more entries") }, "\(timeline.notes)")
    }
}

/// The widget on a real terminal (tmux), as a person runs it, while the app
/// writes from another process.
@Suite("My Trips widget, interactive")
struct TripsInteractiveTests {
    @Test("the app's writes re-render the running widget without a restart; its links open the app's screens")
    func reloadWhileRunning() throws {
        let world = try TripsWorld()
        let terminal = try Tmux([TestSupport.widgetHost, "launch", "trips", "--now", "2026-06-12T00:00:00Z"],
                                environment: SpawnedProcess.hostEnvironment(home: world.home), settings: TripsWorld.terminal)
        defer { terminal.kill() }
        try terminal.waitFor("Data not found")

        try world.put(TripsBookings.document([TripsBookings.paris]))
        let hotel = try terminal.waitFor("Hôtel du Louvre")
        #expect(hotel.contains("(Hotel)") && hotel.contains("Wed 10 Jun 2026 · 4 nights"), "\(hotel)")

        try world.put(Array("{\"bookings\": [".utf8))
        try terminal.waitFor("Wrong encoding: invalid JSON at line 1")
        let removed = try world.run(["store", "rm", "trips.bookings"])
        #expect(removed.status == 0, "\(removed)")
        let empty = try terminal.waitFor("Data not found")
        #expect(empty.contains("[2] Search hotels →"), "\(empty)")

        // A call to action opens the app's search, pushed through the bus; b comes back.
        try terminal.send("2")
        try terminal.waitFor("on its hotel search")
        try terminal.send("b")
        try terminal.waitFor("Where to next?")

        // The booking view's link opens that booking.
        try world.put(TripsBookings.document([TripsBookings.paris]))
        try terminal.waitFor("[1] Open booking B-1042")
        try terminal.send("1")
        let booking = try terminal.waitFor("RETURN FLIGHT")
        #expect(booking.contains("Booking B-1042") && booking.contains("Bought Sat 2 May 2026 18:30 +02:00"), "\(booking)")
        try terminal.send("q")
    }

    @Test("when the next entry's date comes, the screen moves on to it by itself")
    func nextEntryOnTime() throws {
        let world = try TripsWorld()
        try world.put(TripsBookings.document([TripsBookings.paris]))
        // Twenty seconds before landing (the clock runs from the host's start, so a slow start
        // must not use up the flight's time): the outbound flight, then the hotel.
        var settings = TripsWorld.terminal
        settings.attempts = 600
        let terminal = try Tmux([TestSupport.widgetHost, "launch", "trips", "--now", "2026-06-10T10:09:40+02:00"],
                                environment: SpawnedProcess.hostEnvironment(home: world.home), settings: settings)
        defer { terminal.kill() }
        let flight = try terminal.waitFor("IB3436 · Direct")
        #expect(flight.contains("(Outbound flight)"), "\(flight)")
        let hotel = try terminal.waitFor("(Hotel)")
        #expect(hotel.contains("Hôtel du Louvre") && !hotel.contains("IB3436"), "\(hotel)")
        try terminal.send("q")
    }
}
