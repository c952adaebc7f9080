import Foundation
import Testing
@testable import WidgetHostKit

/// The dashboard tests' world: a private home (so a private shared
/// container, state and configuration), the four shipped widgets configured
/// to show live content (Crypto against a loopback market, Checkout with an
/// order total, Trips with the Paris booking a day ahead of `now`).
struct DashboardWorld {
    let trips: TripsWorld
    let market: CryptoMarket
    var home: String { trips.home }
    /// The day before the Paris trip's outbound flight.
    static let now = "2026-06-09T08:00:00Z"

    init() throws {
        trips = try TripsWorld()
        market = try CryptoMarket()
        try trips.put(TripsBookings.document([TripsBookings.paris]))
    }

    var environment: [String: String] {
        trips.environment.merging(CryptoHost.environment) { _, new in new }.merging(["XDG_STATE_HOME": home + "/state"]) { _, new in new }
    }

    static let checkout = ["--set", "checkout.minimumAmount=50.00", "--set", "checkout.maximumAmount=2000.00", "--set", "checkout.currencyCode=USD",
                           "--set", "checkout.locale=en_US", "--set", "checkout.amount=250.00"]

    var arguments: [String] { market.arguments + Self.checkout + ["--now", Self.now] }

    func run(_ arguments: [String], _ extra: [String: String] = [:]) throws -> TestSupport.HostRun {
        try TestSupport.runHost(arguments, environment: environment.merging(extra) { _, new in new })
    }

    /// `dashboard --once --format json`, taken apart: the cards by widget id.
    func once(_ more: [String] = [], status: Int32 = 0) throws -> (run: TestSupport.HostRun, cards: [String: JSONValue]) {
        let run = try run(["dashboard", "--once", "--format", "json", "--wait", "20"] + arguments + more, ["COLUMNS": "120"])
        guard run.status == status else { throw TestSupport.Failure("expected exit \(status): \(run)") }
        let json = try JSONParser.parse(Array(run.stdout.utf8))
        let cards = json["cards"]?.array ?? []
        return (run, Dictionary(cards.map { ($0["widget"]?.string ?? "", $0) }) { first, _ in first })
    }

    /// Every text in a card's view, in order.
    static func texts(_ card: JSONValue?) -> [String] {
        func walk(_ node: JSONValue) -> [String] {
            var found = ["text", "title", "label", "detail"].compactMap { node[$0]?.string }
            for key in ["children", "rows"] { found += (node[key]?.array ?? []).flatMap(walk) }
            return found
        }
        return card?["view"].map(walk) ?? []
    }
}
