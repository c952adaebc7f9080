import Foundation
import Glibc
import Testing
@testable import WidgetHostKit

/// The My Trips tests' world: a private home (so a private shared
/// container), bookings written as the app writes them, and the widget's
/// screens read back from `launch --format json` and `timeline --json`.
struct TripsWorld {
    let home: String

    init() throws { home = try TestSupport.makeTemporaryDirectory("trips") }

    var environment: [String: String] {
        ["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config"]
    }

    var storeDirectory: String { home + "/data/widget-host/shared" }

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

    /// The entries `timeline trips --json` prints at `now`.
    func timeline(at now: String) throws -> TripsTimelineOutput {
        let run = try run(["timeline", "trips", "--json", "--now", now])
        guard run.status == 0 else { throw TestSupport.Failure("timeline failed: \(run)") }
        return try TripsTimelineOutput(run)
    }
}

/// One rendered screen of the widget, taken apart.
struct TripsScreen: CustomStringConvertible {
    let run: TestSupport.HostRun
    let json: JSONValue

    init(_ run: TestSupport.HostRun) throws {
        self.run = run
        do { json = try JSONParser.parse(run.stdout) } catch { throw TestSupport.Failure("not JSON: \(error)\n\(run)") }
    }

    var description: String { run.description }
    var screen: String? { json["screen"]?.string }
    var nodes: [JSONValue] { TripsViewTree.nodes(json["view"] ?? .null) }
    var texts: [String] { nodes.filter { $0["kind"]?.string == "text" }.compactMap { $0["text"]?.string } }
    var badges: [String] { nodes.filter { $0["kind"]?.string == "badge" }.compactMap { $0["text"]?.string } }
    var links: [TripsLink] {
        nodes.filter { $0["kind"]?.string == "link" }.map { TripsLink(title: $0["title"]?.string ?? "", target: $0["target"]?.string ?? "") }
    }
    var images: [JSONValue] { nodes.filter { $0["kind"]?.string == "image" } }
    var headline: String? { nodes.first { $0["style"]?.string == "headline" }?["text"]?.string }

    /// What the widget shows: the step's badge, or "No booking".
    var shown: String {
        if let step = badges.first(where: { ["Outbound flight", "Hotel", "Return flight"].contains($0) }) { return step }
        return texts.contains("No upcoming trips") ? "No booking" : "?"
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

/// `timeline --json`: one section per entry, headed by the entry's date.
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
        do { json = try JSONParser.parse(run.stdout) } catch { throw TestSupport.Failure("not JSON: \(error)\n\(run)") }
        entries = TripsViewTree.nodes(json["view"] ?? .null).filter { $0["kind"]?.string == "section" }.map { section in
            let children = section["children"]?.array ?? []
            return Entry(date: section["header"]?.string ?? "",
                         texts: children.filter { $0["kind"]?.string == "text" }.compactMap { $0["text"]?.string },
                         isNow: children.contains { $0["kind"]?.string == "badge" && $0["text"]?.string == "now" })
        }
    }

    var description: String { entries.map(\.description).joined(separator: "\n") + "\n" + run.description }
    var dates: [String] { entries.map(\.date) }
    /// Each entry's first line: the step's summary, or "No booking".
    var steps: [String] { entries.map { $0.texts.first ?? "" } }
    /// The captions outside the entries.
    var notes: [String] {
        (json["view"]?["children"]?.array ?? []).filter { $0["kind"]?.string == "text" }.compactMap { $0["text"]?.string }
    }
}

enum TripsViewTree {
    /// Every node of a view, depth first, in reading order.
    static func nodes(_ node: JSONValue) -> [JSONValue] {
        [node] + (node["children"]?.array ?? []).flatMap(nodes)
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
                + "\"hotel\":{\"name\":\"Hotel \(i)\",\"address\":\"\(i) Main Street\",\"check_in\":\"\(utc(t + 51 * hour))\",\"check_out\":\"\(utc(t + 74 * hour + hour / 2))\"},"
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

/// A program on a terminal of its own: tmux with a private server (its
/// socket in a temporary directory, removed with it), read with
/// capture-pane and typed into with send-keys. Waits poll the screen a
/// bounded number of times instead of sleeping a fixed time.
final class TripsTerminal {
    private let tmux: String
    private let socket: String
    private static let session = "trips"

    /// Starts `arguments` (an absolute program and its words) with
    /// `environment` on an 80x30 terminal.
    init(_ arguments: [String], environment: [String: String]) throws {
        guard let tmux = Self.find("tmux") else {
            throw TestSupport.Failure("tmux is not installed (apt-get install tmux); the interactive tests need it")
        }
        self.tmux = tmux
        socket = try TestSupport.makeTemporaryDirectory("tmux") + "/socket"
        let command = (["env"] + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + arguments)
            .map(Self.shellQuoted).joined(separator: " ")
        try tmuxCommand(["new-session", "-d", "-x", "80", "-y", "30", "-s", Self.session, command])
    }

    deinit { stop() }

    /// Ends the session and its private tmux server.
    func stop() {
        _ = try? ChildProcess.run([tmux, "-S", socket, "kill-server"], timeout: 10)
    }

    func screen() -> String {
        guard let result = try? ChildProcess.run([tmux, "-S", socket, "capture-pane", "-p", "-t", Self.session], timeout: 10),
              result.termination == .exited(0) else { return "" }
        return String(decoding: result.standardOutput, as: UTF8.self)
    }

    func type(_ keys: String) throws {
        try tmuxCommand(["send-keys", "-t", Self.session, "-l", keys])
    }

    /// The screen once it satisfies `condition`; throws with the last
    /// screen if it never does within `attempts` looks 100 ms apart.
    @discardableResult
    func waitFor(_ what: String, attempts: Int = 200, _ condition: (String) -> Bool) throws -> String {
        var last = ""
        for _ in 0..<attempts {
            last = screen()
            if condition(last) { return last }
            usleep(100_000)
        }
        throw TestSupport.Failure("the screen never showed \(what); it shows:\n\(last)")
    }

    @discardableResult
    func waitFor(_ text: String, attempts: Int = 200) throws -> String {
        try waitFor("'\(text)'", attempts: attempts) { $0.contains(text) }
    }

    private func tmuxCommand(_ words: [String]) throws {
        let result = try ChildProcess.run([tmux, "-S", socket] + words, timeout: 20)
        guard result.termination == .exited(0) else {
            throw TestSupport.Failure("tmux \(words.joined(separator: " ")): \(result.termination) "
                + String(decoding: result.standardError, as: UTF8.self))
        }
    }

    private static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }

    private static func shellQuoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
