import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The concern behind swiftlang/swift#90127: the same Swift module statically
/// linked into several images confuses the runtime's type lookups. Each
/// shipped plugin compiles the SDK into its own module, so loading all three
/// into ONE process must be safe. Each run below loads Crypto, Checkout and
/// My Trips into one `widget-host` process (in process, not isolated),
/// renders each, runs actions in each after the others are loaded, and
/// checks that every screen is right and nothing crashed.
///
/// The suite's name contains "PluginCorpus" so that CI's rerun against the
/// release products (`--filter PluginCorpus` with WIDGET_HOST_PRODUCTS=.build/release)
/// runs it too.
@Suite("Plugin corpus: all three Swift plugins in one process")
struct PluginCorpusAllPluginsTests {
    static let checkout = ["--set", "checkout.currencyCode=USD", "--set", "checkout.locale=en_US",
                           "--set", "checkout.minimumAmount=50", "--set", "checkout.maximumAmount=2000",
                           "--set", "checkout.amount=200.00"]
    static let now = ["--now", "2026-06-12T09:00:00Z"]

    /// A private home with the sample bookings in the shared container, and
    /// the Crypto tests' network fence (only 127.0.0.1 is reachable).
    static func environment() throws -> [String: String] {
        let home = try ViewsFixture.privateHome("all-plugins")
        var environment = CryptoHost.environment
        environment.merge(home) { _, new in new }
        let put = try TestSupport.runHost(["store", "put", "trips.bookings", "--file", TestSupport.packageRoot + "/Plugins/TripsPlugin/sample-bookings.json"],
                                          environment: environment)
        guard put.status == 0 else { throw TestSupport.Failure("store put failed: \(put)") }
        return environment
    }

    static func run(_ arguments: [String], market: CryptoMarket, environment: [String: String]) throws -> TestSupport.HostRun {
        let run = try TestSupport.runHost(arguments + market.arguments + checkout + now, environment: environment)
        #expect(run.termination == .exited(0), "\(run)")
        #expect(!run.stderr.contains("Fatal error") && !run.stderr.contains("fatal error"), "\(run)")
        return run
    }

    static func json(_ run: TestSupport.HostRun) throws -> JSONValue {
        try run.json()
    }

    static func texts(_ json: JSONValue) -> [String] { LaunchTests.texts(json) }

    @Test("each Swift plugin carries the SDK in a module of its own, and none refers to a shared PluginKit module",
          arguments: [("libCryptoPlugin.so", "CryptoPlugin"), ("libCheckoutPlugin.so", "CheckoutPlugin"), ("libTripsPlugin.so", "TripsPlugin")])
    func sdkInEachPluginsOwnModule(_ file: String, _ module: String) throws {
        let bytes = try TestSupport.readBytes(TestSupport.productsDirectory + "/" + file)
        func contains(_ text: String) -> Bool {
            let needle = Array(text.utf8)
            guard let first = needle.first else { return true }
            var index = bytes.startIndex
            while let found = bytes[index...].firstIndex(of: first) {
                if bytes[found...].starts(with: needle) { return true }
                index = found + 1
            }
            return false
        }
        // Swift mangles a declaration with its module's name, length first: the
        // SDK's exportWidget lives in the plugin's module...
        #expect(contains("\(module.count)\(module)12exportWidget"), "\(file) has no \(module).exportWidget")
        // ...and no symbol, defined or imported, belongs to a module called PluginKit.
        #expect(!contains("9PluginKit"), "\(file) refers to a PluginKit module")
    }

    @Test("crypto, then checkout, then trips in one process; back twice renders crypto again")
    func cryptoFirst() throws {
        let market = try CryptoMarket()
        let environment = try Self.environment()

        // All three loaded (retrieve starts Crypto: a screen never rendered is never loaded), the last one shown.
        let forward = try Self.run(["launch", "crypto", "--format", "json", "--actions", "retrieve,widget://checkout,widget://trips"],
                                   market: market, environment: environment)
        let trips = try Self.json(forward)
        #expect(trips["plugin"] == "org.widgethost.trips" && trips["error"] == .null, "\(forward)")
        #expect(LaunchTests.stack(trips) == ["org.widgethost.crypto/price", "org.widgethost.checkout/checkout", "org.widgethost.trips/trip"])
        #expect(Self.texts(trips).contains("Hôtel du Louvre"), "\(forward)")
        let fetched = market.requests(CryptoMarket.pricePath)
        #expect(fetched >= 1, "Crypto was not loaded")

        // And back down to the first, each instance still alive and right.
        let back = try Self.run(["launch", "crypto", "--format", "json", "--actions", "widget://checkout,update=250.00,widget://trips,back,back"],
                                market: market, environment: environment)
        let crypto = try Self.json(back)
        #expect(crypto["plugin"] == "org.widgethost.crypto" && crypto["error"] == .null, "\(back)")
        #expect(LaunchTests.stack(crypto) == ["org.widgethost.crypto/price"])
        #expect(Self.texts(crypto).contains("$43,210.55"), "\(back)")
        #expect(market.requests(CryptoMarket.pricePath) > fetched, "Crypto was not loaded in the second run")
    }

    @Test("trips, then crypto's exchanges, then checkout with an update, in one process")
    func tripsFirst() throws {
        let market = try CryptoMarket()
        let environment = try Self.environment()
        let run = try Self.run(["launch", "trips", "--once", "--actions", "widget://crypto,exchanges,back,widget://checkout,update=250.00"],
                               market: market, environment: environment)
        let shown = RenderedBox.contents(run.stdout)
        #expect(run.stdout.hasPrefix("┌─ Checkout "), "\(run)")
        #expect(shown.contains("or 4 interest-free payments of $62.50"), "\(run)")
        #expect(shown.contains("Order total: $250.00"), "\(run)")
        // Crypto's exchanges were fetched in this same process.
        #expect(market.requests(CryptoMarket.krakenPath) >= 1 && market.requests(CryptoMarket.binancePath) >= 1)
    }

    @Test("checkout, then trips' booking page, then crypto's exchange details, and back to checkout, in one process")
    func checkoutFirst() throws {
        let market = try CryptoMarket()
        let environment = try Self.environment()
        let forward = try Self.run(["launch", "checkout", "--format", "json", "--actions",
                                    "update=100.02,widget://trips/booking?id=B-1042,widget://crypto/exchange?id=kraken"],
                                   market: market, environment: environment)
        let kraken = try Self.json(forward)
        #expect(kraken["plugin"] == "org.widgethost.crypto" && kraken["screen"] == "exchange", "\(forward)")
        #expect(Self.texts(kraken).contains("$43,205.10"), "\(forward)")
        #expect(LaunchTests.stack(kraken) == ["org.widgethost.checkout/checkout", "org.widgethost.trips/booking", "org.widgethost.crypto/exchange"])

        let back = try Self.run(["launch", "checkout", "--format", "json", "--actions",
                                 "update=100.02,widget://trips/booking?id=B-1042,widget://crypto/exchange?id=kraken,back,back"],
                                market: market, environment: environment)
        let checkout = try Self.json(back)
        #expect(checkout["plugin"] == "org.widgethost.checkout" && checkout["error"] == .null, "\(back)")
        #expect(Self.texts(checkout).contains("or 4 interest-free payments of $25.01"), "\(back)")
    }
}
