import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The sample configuration the README's quick start names: on a fresh
/// machine, offline, every shipped widget shows something sensible.
@Suite("First run with the sample configuration")
struct FirstRunTests {
    static let sampleConfig = TestSupport.packageRoot + "/Examples/sample-config.json"

    /// A fresh home whose proxy is a loopback listener, so any fetch at all is seen.
    struct Offline {
        let home: String
        let proxy: LoopbackHTTPServer
        /// A private home whose only way out is the refusing proxy.
        var environment: [String: String] {
            let proxy = proxy.url("")
            return SpawnedProcess.hostEnvironment(home: home, [
                "XDG_STATE_HOME": home + "/state", "http_proxy": proxy, "https_proxy": proxy, "HTTP_PROXY": proxy, "HTTPS_PROXY": proxy,
                "NO_COLOR": "1",
            ])
        }

        init() throws {
            home = try TestSupport.makeTemporaryDirectory("first-run")
            proxy = try LoopbackHTTPServer(always: .close())
        }

        func once(_ more: [String]) throws -> (run: TestSupport.HostRun, cards: [String: JSONValue]) {
            let run = try TestSupport.runHost(["dashboard", "--once", "--format", "json", "--wait", "20"] + more,
                                              environment: environment.merging(["COLUMNS": "120"]) { _, new in new })
            let cards = try JSONParser.parse(Array(run.stdout.utf8))["cards"]?.array ?? []
            return (run, Dictionary(cards.map { ($0["widget"]?.string ?? "", $0) }) { first, _ in first })
        }
    }

    @Test("every shipped widget renders without an error; Crypto and Ticker show a price labelled as sample data, and nothing is fetched")
    func sampleConfiguration() throws {
        let offline = try Offline()
        let (run, cards) = try offline.once(["--config", Self.sampleConfig])
        #expect(run.status == 0, "\(run)")
        #expect(!run.stderr.contains("setting"), "the sample configuration is warned about: \(run.stderr)")
        #expect(cards.count == 4, "\(run)")
        for (id, card) in cards {
            #expect(card["error"] == .null && card["stale"] == .bool(false), "\(id): \(card)")
        }
        let crypto = DashboardWorld.texts(cards["org.widgethost.crypto"])
        #expect(crypto.contains { $0.hasPrefix("BTC $6") } && crypto.contains("BTC in US dollars, from sample data, not a market price"), "\(crypto)")
        #expect(crypto.contains("sample price") && !crypto.contains("just now"), "a sample price has no age: \(crypto)")
        let ticker = DashboardWorld.texts(cards["org.widgethost.ticker"])
        #expect(ticker.contains { $0.hasPrefix("sample data from the Crypto widget") }, "\(ticker)")
        let checkout = DashboardWorld.texts(cards["org.widgethost.checkout"])
        #expect(checkout.contains("Order total: $120.00") && checkout.filter { $0 == "$30.00" }.count == 4, "\(checkout)")
        #expect(offline.proxy.requests.isEmpty, "a sample price was fetched: \(offline.proxy.requests)")
    }

    @Test("the sample source asks for no automatic refresh (its prices never change); the network source keeps its interval")
    func sampleSourceDoesNotRefresh() throws {
        let sample = try CryptoHost.screen(["--set", "crypto.source=sample"])
        #expect(sample.texts.contains("Sample prices do not change: refreshed only when asked"), "\(sample)")
        #expect(!sample.texts.contains { $0.hasPrefix("Refreshes every") }, "\(sample)")
        let market = try CryptoMarket()
        let network = try CryptoHost.screen(market.arguments(refreshSeconds: 30))
        #expect(network.texts.contains("Refreshes every 30 s while shown"), "\(network)")
    }

    @Test("the control: without the sample source, the same run goes to the network for its price")
    func networkControl() throws {
        let offline = try Offline()
        _ = try offline.once(["--config", Self.sampleConfig, "--set", "crypto.source=network", "--wait", "20"])
        #expect(!offline.proxy.requests.isEmpty, "the listener saw no fetch, so the sample test above proves nothing")
    }

    @Test("a card cached from an earlier run stands in only while the widget loads: --once waits for the fresh view")
    func staleCacheIsReplaced() throws {
        let offline = try Offline()
        let (failed, before) = try offline.once(["--config", Self.sampleConfig, "--set", "crypto.source=network", "--wait", "20"])
        #expect(before["org.widgethost.crypto"]?["error"]?.string?.hasPrefix("Price unavailable") == true, "\(failed)")
        let (run, after) = try offline.once(["--config", Self.sampleConfig])
        let crypto = try #require(after["org.widgethost.crypto"], "\(run)")
        #expect(crypto["stale"] == .bool(false) && crypto["error"] == .null, "\(crypto)")
        #expect(DashboardWorld.texts(crypto).contains { $0.hasPrefix("BTC $6") }, "\(crypto)")
    }
}
