import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// Crypto keeps its last good price with its time in its own persisted state
/// (the SDK's `WidgetState`), so a restart shows it, stale and with its age,
/// until a fetch replaces it; in process and isolated alike.
@Suite("Crypto's state survives a restart")
struct CryptoRestartTests {
    static func environment(_ home: String) -> [String: String] {
        CryptoHost.environment.merging(["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config"]) { _, new in new }
    }

    static func launch(_ home: String, _ widget: String = "crypto", now: String, _ arguments: [String]) throws -> CryptoScreen {
        let run = try TestSupport.runHost(["launch", widget, "--format", "json", "--now", now] + arguments, environment: environment(home))
        return try CryptoScreen(run)
    }

    /// A network source whose every request is refused: only a kept price can be shown.
    static func offline() throws -> [String] {
        ["--set", "crypto.priceURL=" + (try LoopbackHTTPServer.closedPortURL(CryptoMarket.pricePath)), "--set", "crypto.refreshSeconds=3600"]
    }

    @Test("a restart offline shows the last price as stale with its age, not 'No price has been retrieved yet'", arguments: [[], ["--isolate"]])
    func restartShowsStalePrice(_ mode: [String]) throws {
        let home = try TestSupport.makeTemporaryDirectory("crypto-restart")
        let market = try CryptoMarket()
        let first = try Self.launch(home, now: "2026-05-01T09:30:00Z", market.arguments + ["--actions", "retrieve"] + mode)
        #expect(first.price == "$43,210.55", "\(first)")

        // The next run, an hour later, cannot reach any price source.
        let second = try Self.launch(home, now: "2026-05-01T10:30:00Z", try Self.offline() + mode)
        // An hour later by --now, less the first run's own seconds: 59 min or 1 h.
        #expect(second.texts.contains { $0.hasPrefix("Last good price $43,210.55, updated 2026-05-01 09:30:")
                && ($0.hasSuffix("(1 h ago)") || $0.hasSuffix("(59 min ago)")) }, "\(second)")
        #expect(!second.texts.contains("No price has been retrieved yet."), "\(second)")
    }

    @Test("a sample run keeps no price: a later run from the network, and Ticker through it, show none as real", arguments: [[], ["--isolate"]])
    func sampleRunKeepsNothing(_ mode: [String]) throws {
        let home = try TestSupport.makeTemporaryDirectory("crypto-sample")
        let sample = try Self.launch(home, now: "2026-05-01T09:30:00Z", ["--set", "crypto.source=sample"] + mode)
        let madeUp = try #require(sample.price, "\(sample)")
        #expect(sample.texts.contains { $0.contains("sample data") }, "\(sample)")
        for key in ["crypto.lastPrice", "crypto.recentPrices"] {
            let kept = try TestSupport.runHost(["store", "get", key], environment: Self.environment(home))
            #expect(kept.status != 0 && kept.stdout.isEmpty, "\(key): \(kept)")
        }

        let crypto = try Self.launch(home, now: "2026-05-01T09:31:00Z", try Self.offline() + mode)
        #expect(crypto.texts.contains("No price has been retrieved yet."), "\(crypto)")
        #expect(!crypto.texts.contains { $0.contains(madeUp) }, "\(crypto)")
        let ticker = try Self.launch(home, "ticker", now: "2026-05-01T09:31:00Z", try Self.offline() + mode)
        #expect(ticker.texts.contains { $0.hasPrefix("The Crypto widget has no price") }, "\(ticker)")
        #expect(!ticker.texts.contains { $0.contains(madeUp) }, "\(ticker)")
    }

    @Test("a real price is kept through a sample run, and Crypto and Ticker show it as the last market price")
    func realPriceOutlivesSampleRun() throws {
        let home = try TestSupport.makeTemporaryDirectory("crypto-real")
        let market = try CryptoMarket()
        let first = try Self.launch(home, now: "2026-05-01T09:30:00Z", market.arguments + ["--actions", "retrieve"])
        #expect(first.price == "$43,210.55", "\(first)")
        let sample = try Self.launch(home, now: "2026-05-01T10:00:00Z", ["--set", "crypto.source=sample"])
        #expect(sample.price != nil && !sample.texts.contains { $0.contains("43,210.55") }, "the samples show no real price among them: \(sample)")

        let crypto = try Self.launch(home, now: "2026-05-01T10:30:00Z", try Self.offline())
        #expect(crypto.texts.contains { $0.hasPrefix("Last good price $43,210.55, updated 2026-05-01 09:30:") }, "\(crypto)")
        let ticker = try Self.launch(home, "ticker", now: "2026-05-01T10:30:00Z", try Self.offline())
        #expect(ticker.texts.contains("$43,210.55"), "\(ticker)")
        #expect(ticker.texts.contains { $0.hasPrefix("from the Crypto widget, ") }, "a market price, not a sample: \(ticker)")
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
