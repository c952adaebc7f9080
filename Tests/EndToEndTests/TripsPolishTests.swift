import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// My Trips as a person reads it: day headings and times in their own zone,
/// no contradiction between trips, the hotel's photo only when there is one,
/// and its review score.
@Suite("My Trips, polished")
struct TripsPolishTests {
    /// Lands at 05:30 in Paris on Thursday 11 June: 23:30 the evening before in New York, 12:30 in Tokyo.
    static let lateFlight = TripsBookings.booking("N-1", purchased: "2026-06-01T12:00:00+02:00",
                                                  outbound: TripsBookings.flight("AF1", from: "CDG", departs: "2026-06-11T03:00:00+02:00",
                                                                                 to: "ORY", arrives: "2026-06-11T05:30:00+02:00"))

    @Test("the timeline's day headings and times are the user's: New York near midnight, Tokyo, Paris", arguments: [
        ("America/New_York", ["Mon 1 Jun 2026", "Wed 10 Jun 2026"], ["Mon 1 Jun 2026 06:00 EDT", "Wed 10 Jun 2026 23:30 EDT"]),
        ("Asia/Tokyo", ["Mon 1 Jun 2026", "Thu 11 Jun 2026"], ["Mon 1 Jun 2026 19:00 JST", "Thu 11 Jun 2026 12:30 JST"]),
        ("Europe/Paris", ["Mon 1 Jun 2026", "Thu 11 Jun 2026"], ["Mon 1 Jun 2026 12:00 CEST", "Thu 11 Jun 2026 05:30 CEST"]),
    ])
    func dayHeadingsInTheUsersZone(_ zone: String, _ headings: [String], _ entries: [String]) throws {
        let world = try TripsWorld()
        try world.put(TripsBookings.document([Self.lateFlight]))
        let timeline = try world.timeline(at: "2026-05-20T00:00:00Z", ["TZ": zone])
        let sections = ViewTree.nodes(timeline.json["view"] ?? .null).filter { $0["kind"]?.string == "section" }
        #expect(sections.map { $0["header"]?.string ?? "" } == headings, "\(timeline)")
        #expect(timeline.entries.map(\.date) == entries, "\(timeline)")
        #expect(timeline.steps == ["Outbound flight AF1 CDG → ORY (booking N-1)", "No booking"], "\(timeline)")
        // No raw ISO time is left on the screen: those are for `timeline --json`.
        #expect(!timeline.run.stdout.contains("T05:30:00"), "\(timeline)")
    }

    @Test("two entries on one day in the user's zone share one heading")
    func oneHeadingPerDay() throws {
        let world = try TripsWorld()
        try world.put(TripsBookings.document([TripsBookings.paris]))
        let timeline = try world.timeline(at: "2026-06-12T00:00:00Z")
        let sections = ViewTree.nodes(timeline.json["view"] ?? .null).filter { $0["kind"]?.string == "section" }
        // The hotel began on the 10th; the hotel's end and the return flight's landing are both on Sunday the 14th.
        #expect(sections.map { $0["header"]?.string ?? "" } == ["Wed 10 Jun 2026", "Sun 14 Jun 2026"], "\(timeline)")
        #expect(timeline.entries.map(\.date) == ["Wed 10 Jun 2026 10:10 CEST", "Sun 14 Jun 2026 11:00 CEST", "Sun 14 Jun 2026 19:55 CEST"])
    }

    @Test("between trips the card says so, above what comes next, never 'No upcoming trips'")
    func betweenTrips() throws {
        let world = try TripsWorld()
        try world.put(try TestSupport.readBytes(TestSupport.packageRoot + "/Plugins/TripsPlugin/sample-bookings.json"))
        let gap = try world.screen(at: "2026-06-16T00:00:00Z")
        #expect(gap.headline == "Between trips", "\(gap)")
        #expect(!gap.texts.contains("No upcoming trips"), "\(gap)")
        #expect(gap.texts.contains { $0.hasPrefix("Next: Outbound flight AF22") }, "\(gap)")
        // With nothing ahead it is still "No upcoming trips".
        let after = try world.screen(at: "2026-08-01T00:00:00Z")
        #expect(after.headline == "No upcoming trips", "\(after)")
    }

    @Test("a hotel's review score is shown over its photo; a hotel without a photo shows the score and no placeholder")
    func hotelPhotoAndScore() throws {
        let world = try TripsWorld()
        try world.put(try TestSupport.readBytes(TestSupport.packageRoot + "/Plugins/TripsPlugin/sample-bookings.json"))
        let louvre = try world.screen(at: "2026-06-12T00:00:00Z")
        #expect(louvre.images.count == 1, "\(louvre)")
        #expect(louvre.badges.contains("★ 8.7/10"), "\(louvre)")
        let overlay = try #require(louvre.nodes.first { $0["kind"]?.string == "overlay" }, "\(louvre)")
        #expect(overlay["children"]?.array?.map { $0["kind"]?.string ?? "" } == ["image", "badge"])
        let jane = try world.screen(at: "2026-07-04T12:00:00Z")
        #expect(jane.headline == "The Jane", "\(jane)")
        #expect(jane.images.isEmpty, "no image_url, no placeholder: \(jane)")
        #expect(jane.badges.contains("★ 9.1/10"), "\(jane)")
    }

    @Test("a review score outside 0 to 10, or not a number, skips the booking and says why")
    func badReviewScore() throws {
        let world = try TripsWorld()
        var hotel = TripsBookings.parisHotel
        if case var .object(fields) = hotel { fields.append(("review_score", .number("11"))); hotel = .object(fields) }
        try world.put(TripsBookings.document([TripsBookings.booking("S", purchased: "2026-05-02T18:30:00+02:00", hotel: hotel)]))
        let run = try world.run(["launch", "trips", "--once", "--format", "json", "--now", "2026-06-12T00:00:00Z"])
        #expect(run.stdout.contains("review_score is not a number from 0 to 10") || run.stderr.contains("review_score is not a number from 0 to 10"),
                "\(run)")
    }

    @Test("the hotel, rendered in the terminal at 40 columns: the score sits beside the photo's caption, every line in the box")
    func hotelInTheTerminal() throws {
        let world = try TripsWorld()
        try world.put(try TestSupport.readBytes(TestSupport.packageRoot + "/Plugins/TripsPlugin/sample-bookings.json"))
        let run = try world.run(["launch", "trips", "--once", "--now", "2026-07-04T12:00:00Z"], ["COLUMNS": "40"])
        let lines = run.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("│") }
        #expect(!lines.isEmpty, "\(run)")
        #expect(lines.allSatisfy { DisplayWidth.of($0) == 40 && $0.hasSuffix("│") }, "\(run)")
        #expect(lines.contains { $0.contains("(★ 9.1/10)") }, "\(run)")
        #expect(!run.stdout.contains("[image:"), "\(run)")
    }
}
