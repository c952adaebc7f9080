import Foundation
import Glibc
import Testing
@testable import WidgetHostKit

/// The My Trips tests' world: a private home (so a private shared
/// container), bookings written as the app writes them, and the widget's
/// screens read back from `launch --format json` and `timeline --screen-json`.
struct TripsWorld {
    let home: String

    init() throws { home = try TestSupport.makeTemporaryDirectory("trips") }

    var environment: [String: String] {
        // A person in Paris: the timeline shows when each step ends in their zone.
        ["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config", "TZ": "Europe/Paris"]
    }

    var storeDirectory: String { home + "/data/widget-host/shared" }

    /// The interactive tests' terminal: the widget also gets the tmux
    /// server's environment, and a wait looks 200 times, 100 ms apart.
    static let terminal = Tmux.Settings(clearsEnvironment: false, attempts: 200, pollInterval: 100_000)

    func run(_ arguments: [String], _ extra: [String: String] = [:]) throws -> TestSupport.HostRun {
        try TestSupport.runHost(arguments, environment: environment.merging(extra) { _, new in new })
    }

    /// `widget-host store put trips.bookings --file FILE`, as the app does.
    func put(_ bytes: [UInt8]) throws {
        let file = home + "/bookings-\(UInt32.random(in: 0...UInt32.max)).json"
        try TestSupport.write(bytes, to: file)
        let run = try run(["store", "put", "trips.bookings", "--file", file])
        guard run.status == 0 else { throw TestSupport.Failure("store put failed: \(run)") }
    }

    func put(_ document: JSONValue) throws { try put(Array(document.serialized.utf8)) }

    /// The widget's screen at `now`: `launch trips --once --format json`.
    func screen(at now: String, _ more: [String] = []) throws -> TripsScreen {
        let run = try run(["launch", "trips", "--once", "--format", "json", "--now", now] + more)
        guard run.status == 0 else { throw TestSupport.Failure("launch failed: \(run)") }
        return try TripsScreen(run)
    }

    /// The entries `timeline trips --screen-json` prints at `now`.
    func timeline(at now: String, _ extra: [String: String] = [:]) throws -> TripsTimelineOutput {
        let run = try run(["timeline", "trips", "--screen-json", "--now", now, "--wait", "600"], extra)
        guard run.status == 0 else { throw TestSupport.Failure("timeline failed: \(run)") }
        return try TripsTimelineOutput(run)
    }
}

/// One rendered screen of the widget, taken apart.
struct TripsScreen: LaunchScreen {
    let run: TestSupport.HostRun
    let json: JSONValue

    var links: [TripsLink] {
        nodes.filter { $0["kind"]?.string == "link" }.map { TripsLink(title: $0["title"]?.string ?? "", target: $0["target"]?.string ?? "") }
    }
    var images: [JSONValue] { nodes.filter { $0["kind"]?.string == "image" } }
    var headline: String? { nodes.first { $0["style"]?.string == "headline" }?["text"]?.string }

    /// What the widget shows: the step's badge, or "No booking".
    var shown: String {
        if let step = badges.first(where: { ["Outbound flight", "Hotel", "Return flight"].contains($0) }) { return step }
        return texts.contains("No upcoming trips") || texts.contains("Between trips") ? "No booking" : "?"
    }

    /// The no-booking view's three calls to action.
    static let callsToAction = [
        TripsLink(title: "Search flights", target: "widget://org.widgethost.trips/search?kind=flight"),
        TripsLink(title: "Search hotels", target: "widget://org.widgethost.trips/search?kind=hotel"),
        TripsLink(title: "Search flight + hotel", target: "widget://org.widgethost.trips/search?kind=package"),
    ]
}

struct TripsLink: Equatable, CustomStringConvertible {
    let title: String
    let target: String
    var description: String { "\(title) -> \(target)" }
}

/// `timeline --screen-json`: a section per day in the user's zone, headed
/// `Wed 10 Jun 2026`, holding a stack per entry that starts with its time (`10:10 CEST`).
struct TripsTimelineOutput: CustomStringConvertible {
    struct Entry: Equatable, CustomStringConvertible {
        let date: String
        let texts: [String]
        let isNow: Bool
        var description: String { "\(date)\(isNow ? " (now)" : ""): \(texts.joined(separator: " | "))" }
    }

    let run: TestSupport.HostRun
    let json: JSONValue
    let entries: [Entry]

    init(_ run: TestSupport.HostRun) throws {
        self.run = run
        json = try run.json()
        entries = ViewTree.nodes(json["view"] ?? .null).filter { $0["kind"]?.string == "section" }.flatMap { section in
            (section["children"]?.array ?? []).map { entry in
                let children = entry["children"]?.array ?? []
                let texts = children.filter { $0["kind"]?.string == "text" }.compactMap { $0["text"]?.string }
                return Entry(date: (section["header"]?.string ?? "") + " " + (texts.first ?? ""), texts: Array(texts.dropFirst()),
                             isNow: children.contains { $0["kind"]?.string == "badge" && $0["text"]?.string == "now" })
            }
        }
    }

    var description: String { entries.map(\.description).joined(separator: "\n") + "\n" + run.description }
    /// Each entry's day heading and time as ISO 8601 in the zone the screen names (`Wed 10 Jun 2026` and
    /// `10:10 CEST` as `2026-06-10T10:10:00+02:00`), so a test compares them with the bookings' own times.
    var dates: [String] { entries.map { Self.iso($0.date) } }

    static func iso(_ shown: String) -> String {
        let parts = shown.split(separator: " ").map(String.init)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let offsets = ["CEST": "+02:00", "CET": "+01:00", "UTC": "+00:00", "EDT": "-04:00", "EST": "-05:00", "JST": "+09:00"]
        guard parts.count == 6, let month = months.firstIndex(of: parts[2]), let day = Int(parts[1]), let offset = offsets[parts[5]] else {
            return "unreadable: \(shown)"
        }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts[3])-\(two(month + 1))-\(two(day))T\(parts[4]):00" + offset
    }
    /// Each entry's first line: the step's summary, or "No booking".
    var steps: [String] { entries.map { $0.texts.first ?? "" } }
    /// The captions outside the entries.
    var notes: [String] {
        (json["view"]?["children"]?.array ?? []).filter { $0["kind"]?.string == "text" }.compactMap { $0["text"]?.string }
    }
}

/// Bookings documents, written as the app writes them.
enum TripsBookings {
    static func flight(_ code: String, stops: Int = 0, from: String, departs: String, to: String, arrives: String) -> JSONValue {
        ["code": .string(code), "stops": .number(String(stops)), "departure_airport": .string(from), "departure_time": .string(departs),
         "arrival_airport": .string(to), "arrival_time": .string(arrives)]
    }

    static func hotel(_ name: String, address: String, checkIn: String, checkOut: String, image: String? = nil) -> JSONValue {
        ["name": .string(name), "address": .string(address), "check_in": .string(checkIn), "check_out": .string(checkOut),
         "image_url": .optional(image)]
    }

    static func booking(_ id: String, purchased: String, outbound: JSONValue? = nil, hotel: JSONValue? = nil, inbound: JSONValue? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [("id", .string(id)), ("purchase_date", .string(purchased))]
        if let outbound { members.append(("outbound_flight", outbound)) }
        if let hotel { members.append(("hotel", hotel)) }
        if let inbound { members.append(("inbound_flight", inbound)) }
        return .object(members)
    }

    static func document(_ bookings: [JSONValue]) -> JSONValue { ["bookings": .array(bookings)] }

    /// Madrid–Paris, a flight and a hotel: bought 2026-05-02 18:30, lands
    /// 2026-06-10 10:10, checks out 2026-06-14 11:00, home 19:55 (all +02:00).
    static let parisOutbound = flight("IB3436", from: "MAD", departs: "2026-06-10T08:05:00+02:00", to: "CDG", arrives: "2026-06-10T10:10:00+02:00")
    static let parisHotel = hotel("Hôtel du Louvre", address: "Place André Malraux, 75001 Paris, France",
                                  checkIn: "2026-06-10T15:00:00+02:00", checkOut: "2026-06-14T11:00:00+02:00",
                                  image: "https://images.example.com/hotels/du-louvre.jpg")
    static let parisInbound = flight("IB3437", from: "CDG", departs: "2026-06-14T17:45:00+02:00", to: "MAD", arrives: "2026-06-14T19:55:00+02:00")
    static let paris = booking("B-1042", purchased: "2026-05-02T18:30:00+02:00", outbound: parisOutbound, hotel: parisHotel, inbound: parisInbound)

    /// `count` packages, booking i bought i hours after 2026-01-01T00:00Z:
    /// it lands 50 hours after that, checks out at hour 74.5 and is home at
    /// hour 79.25, so many trips overlap and no two steps end together.
    static func many(_ count: Int) -> [UInt8] {
        let hour: Int64 = 3_600_000
        let base = ISO8601.milliseconds(from: "2026-01-01T00:00:00Z")!
        var out = "{\"bookings\":["
        for i in 0..<count {
            let t = base + Int64(i) * hour
            if i > 0 { out += "," }
            out += "{\"id\":\"S-\(i)\",\"purchase_date\":\"\(utc(t))\","
                + "\"outbound_flight\":{\"code\":\"WH\(i)\",\"stops\":0,\"departure_airport\":\"AAA\",\"departure_time\":\"\(utc(t + 48 * hour))\","
                + "\"arrival_airport\":\"BBB\",\"arrival_time\":\"\(utc(t + 50 * hour))\"},"
                + "\"hotel\":{\"name\":\"Hotel \(i)\",\"address\":\"\(i) Main Street\","
                        + "\"check_in\":\"\(utc(t + 51 * hour))\",\"check_out\":\"\(utc(t + 74 * hour + hour / 2))\"},"
                + "\"inbound_flight\":{\"code\":\"WH\(i)R\",\"stops\":1,\"departure_airport\":\"BBB\",\"departure_time\":\"\(utc(t + 77 * hour))\","
                + "\"arrival_airport\":\"AAA\",\"arrival_time\":\"\(utc(t + 79 * hour + hour / 4))\"}}"
        }
        return Array((out + "]}").utf8)
    }

    /// `2026-01-01T05:00:00Z` for milliseconds since 1970.
    static func utc(_ milliseconds: Int64) -> String {
        let seconds = milliseconds / 1000
        let days = Int(seconds / 86_400)
        let rest = Int(seconds % 86_400)
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60))Z"
    }
}
