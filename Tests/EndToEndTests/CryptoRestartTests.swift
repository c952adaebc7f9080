import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// Crypto keeps its last good price with its time in its own persisted state
/// (the SDK's `WidgetState`), so a restart shows it, stale and with its age,
/// until a fetch replaces it; in process and isolated alike.
@Suite("Crypto's state survives a restart")
struct CryptoRestartTests {
    static func launch(_ home: String, now: String, _ arguments: [String]) throws -> CryptoScreen {
        let environment = CryptoHost.environment.merging(["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config"]) {
            _, new in new
        }
        let run = try TestSupport.runHost(["launch", "crypto", "--format", "json", "--now", now] + arguments, environment: environment)
        return try CryptoScreen(run)
    }

    @Test("a restart offline shows the last price as stale with its age, not 'No price has been retrieved yet'", arguments: [[], ["--isolate"]])
    func restartShowsStalePrice(_ mode: [String]) throws {
        let home = try TestSupport.makeTemporaryDirectory("crypto-restart")
        let market = try CryptoMarket()
        let first = try Self.launch(home, now: "2026-05-01T09:30:00Z", market.arguments + ["--actions", "retrieve"] + mode)
        #expect(first.price == "$43,210.55", "\(first)")

        // The next run, an hour later, cannot reach any price source.
        let offline = try LoopbackHTTPServer.closedPortURL(CryptoMarket.pricePath)
        let second = try Self.launch(home, now: "2026-05-01T10:30:00Z", ["--set", "crypto.priceURL=" + offline, "--set", "crypto.refreshSeconds=3600"] + mode)
        // An hour later by --now, less the first run's own seconds: 59 min or 1 h.
        #expect(second.texts.contains { $0.hasPrefix("Last good price $43,210.55, updated 2026-05-01 09:30:")
                && ($0.hasSuffix("(1 h ago)") || $0.hasSuffix("(59 min ago)")) }, "\(second)")
        #expect(!second.texts.contains("No price has been retrieved yet."), "\(second)")
    }

    @Test("a kept state that is not a price is ignored: the widget starts afresh")
    func corruptStateIgnored() throws {
        let home = try TestSupport.makeTemporaryDirectory("crypto-restart-bad")
        let file = home + "/junk.json"
        try TestSupport.write(Array("{\"price\": \"not a number\", \"at\": 1}".utf8), to: file)
        let environment = ["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config"]
        let put = try TestSupport.runHost(["store", "put", "crypto.lastPrice", "--file", file], environment: environment)
        #expect(put.status == 0, "\(put)")
        let offline = try LoopbackHTTPServer.closedPortURL(CryptoMarket.pricePath)
        let screen = try Self.launch(home, now: "2026-05-01T10:30:00Z", ["--set", "crypto.priceURL=" + offline])
        #expect(screen.texts.contains("No price has been retrieved yet."), "\(screen)")
    }

    @Test("the price screen charts the recent prices, and a restart still has them")
    func recentPricesCharted() throws {
        let home = try TestSupport.makeTemporaryDirectory("crypto-history")
        let environment = CryptoHost.environment.merging(["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config"]) {
            _, new in new
        }
        func chart(_ market: CryptoMarket, now: String) throws -> JSONValue? {
            let run = try TestSupport.runHost(["launch", "crypto", "--format", "json", "--now", now, "--actions", "retrieve"] + market.arguments,
                                              environment: environment)
            func find(_ node: JSONValue) -> JSONValue? {
                node["kind"]?.string == "chart" ? node : (node["children"]?.array ?? []).lazy.compactMap(find).first
            }
            return try JSONParser.parse(Array(run.stdout.utf8))["view"].flatMap(find)
        }
        #expect(try chart(CryptoMarket(), now: "2026-05-01T09:30:00Z") == nil, "one price is no chart yet")
        let higher = CryptoMarket.coincapBody.replacingOccurrences(of: "43210.5512345678901234", with: "44000.25")
        let charted = try #require(try chart(CryptoMarket([CryptoMarket.pricePath: [.ok(higher)]]), now: "2026-05-01T10:30:00Z"))
        let points = charted["points"]?.array ?? []
        let values = points.compactMap { point -> Double? in
            guard case let .number(literal)? = point["value"] else { return nil }
            return Double(literal).map { ($0 * 100).rounded() / 100 }
        }
        #expect(values == [43210.55, 44000.25], "\(charted)")
        #expect(charted["title"]?.string == "Recent prices" && points.last?["label"]?.string?.count == 5, "\(charted)")
    }
}
