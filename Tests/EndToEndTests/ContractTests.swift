import PluginABI
import Testing
@testable import WidgetHostKit
@testable import TestSupport

private typealias Kit = IsolationTestKit

/// Contracts between plugins (contract.h): a consumer asks what a provider
/// declared it answers, through the host, the same in process and isolated;
/// and everything either side did not declare is refused.
@Suite("Contracts between plugins")
struct ContractTests {
    /// contracts.c built as provider and as consumer, in one directory.
    private static let pair = Result { () throws -> String in
        let directory = try TestSupport.makeTemporaryDirectory("contracts")
        let source = TestSupport.fixtureDirectory + "/contracts.c"
        try TestSupport.compileC(source: source, flags: ["-DPROVIDER"], output: directory + "/provider.so")
        try TestSupport.compileC(source: source, output: directory + "/consumer.so")
        return directory
    }

    private struct Session {
        let session: WidgetSession
        let log = LogRecorder()

        init(isolated: Bool) throws {
            let home = try Kit.Home()
            let search = SearchPath(directories: [.init(path: try ContractTests.pair.get(), origin: "test", explicit: true)])
            let report = Discovery(availableServices: Set(ServiceTable.all.map(\.id))).scan(search)
            #expect(report.plugins.filter { $0.status == .ok }.count == 2, "\(report.plugins.map(\.status))")
            let launcher: WidgetLauncher = isolated ? home.launcher().launcher : launchInProcess
            session = WidgetSession(runtime: home.runtime(log), plugins: report.plugins, launcher: launcher)
            try session.open(NavigationTarget(plugin: "org.example.consumer", screen: "main"))
        }

        /// What the consumer got when it asked `contract` (from its render,
        /// or with `action` "ask_thread" from a thread of its own).
        func ask(_ contract: String, action: String = "ask") throws -> JSONValue {
            try session.perform(.action(action, value: contract))
            guard case let .success(view)? = session.render()?.view, let text = view.json["text"]?.string else {
                throw TestSupport.Failure("no text rendered: \(String(describing: session.render()))")
            }
            return try JSONParser.parse(text)
        }
    }

    @Test("a declared contract is answered by its provider, started on first ask, in process and isolated", arguments: [false, true])
    func answered(isolated: Bool) throws {
        let consumer = try Session(isolated: isolated)
        let got = try consumer.ask("org.example.answer/1")
        #expect(got["found"] == .bool(true) && got["status"]?.int64 == Int64(WH_CONTRACT_OK), "\(got.serialized) \(consumer.log.recorded)")
        #expect(try JSONParser.parse(got["answer"]?.string ?? "") == ["answer": 42])
    }

    @Test("what is not declared, not provided, or not answerable is refused with its own status, the same in both modes")
    func refusals() throws {
        let cases: [(contract: String, action: String, found: Bool, status: Int64, log: String?)] = [
            ("org.example.undeclared/1", "ask", false, -100, "denied service org.example.undeclared/1"),
            ("org.example.missing/1", "ask", false, -100, "asked for contract org.example.missing/1, which no installed plugin provides"),
            ("org.example.broken/1", "ask", true, Int64(WH_CONTRACT_FAILED), "answered with something other than JSON"),
            ("org.example.self/1", "ask", true, Int64(WH_CONTRACT_BUSY), "a plugin cannot ask its own contract"),
            ("org.example.answer/1", "ask_thread", true, Int64(WH_CONTRACT_NOT_NOW), nil),
        ]
        for isolated in [false, true] {
            let consumer = try Session(isolated: isolated)
            for item in cases {
                let got = try consumer.ask(item.contract, action: item.action)
                #expect(got["found"] == .bool(item.found), "isolated \(isolated): \(got.serialized)")
                #expect(got["status"]?.int64 == item.status, "isolated \(isolated): \(got.serialized)")
                #expect(got["answer"] == "", "an error leaves nothing in out: \(got.serialized)")
                if let line = item.log {
                    #expect(consumer.log.recorded.contains { $0.contains(line) }, "isolated \(isolated): \(consumer.log.recorded)")
                }
            }
        }
    }

    @Test("a provider that asks back the plugin waiting on it is refused (no plugin is called twice at once)", arguments: [false, true])
    func cycle(isolated: Bool) throws {
        let consumer = try Session(isolated: isolated)
        let got = try consumer.ask("org.example.cycle/1")
        #expect(got["status"]?.int64 == Int64(WH_CONTRACT_OK), "\(got.serialized)")
        #expect(try JSONParser.parse(got["answer"]?.string ?? "") == ["inner": .int(WH_CONTRACT_BUSY)])
        #expect(consumer.log.recorded.contains { $0.contains("org.example.consumer is waiting on this ask already (a cycle)") })
    }

    @Test("a contract id outside the grammar, or in the host's namespace, is refused in the manifest", arguments: [
        ("org.example.price", "has no version"), ("price/1", "with a dot"), ("org.Example.price/1", "[a-z0-9._-]"),
        ("org.example.price/0", "version number from 1"), ("widget-host.price/1", "host's namespace"),
    ])
    func badIDs(id: String, problem: String) throws {
        for field in ["provides", "requires"] {
            let json: JSONValue = ["abi": "1.0", "id": "org.example.bad", "name": "Bad", "version": "1.0.0",
                                   "screens": [["id": "main"]], "contracts": [field: [.string(id)]]]
            #expect {
                try Manifest(json: json)
            } throws: { error in
                "\(error)".contains("contracts.\(field)") && "\(error)".contains(problem)
            }
        }
    }

    @Test("Ticker shows the price Crypto fetched, through Crypto's contract, in process and isolated", arguments: [false, true])
    func tickerShowsCryptosPrice(isolated: Bool) throws {
        let market = try CryptoMarket()
        let run = try CryptoHost.run(["launch", "ticker", "--format", "json"] + market.arguments + (isolated ? ["--isolate"] : []))
        #expect(run.status == 0, "\(run)")
        let texts = try Self.texts(run.json())
        // One money and age format with Crypto's own screen: the SDK's NumberText.
        #expect(texts.contains("$43,210.55"), "\(run)")
        #expect(texts.contains { $0.hasPrefix("from the Crypto widget, ") && ($0.hasSuffix("just now") || $0.hasSuffix(" s ago")) }, "\(run)")
        #expect(market.requests(CryptoMarket.pricePath) == 1, "Crypto fetched once, for the ticker")
    }

    @Test("info names the contracts a plugin provides and requires, and its other grants")
    func info() throws {
        let crypto = try TestSupport.runHost(["info", "crypto"])
        #expect(crypto.stdout.contains("contracts:") && crypto.stdout.contains("provides: org.widgethost.crypto.price/1; requires: none"),
                "\(crypto)")
        let ticker = try TestSupport.runHost(["info", "ticker"])
        #expect(ticker.stdout.contains("provides: none; requires: org.widgethost.crypto.price/1"), "\(ticker)")
        let checkout = try TestSupport.runHost(["info", "checkout"])
        // Every grant is shown, an empty one as none.
        #expect(checkout.stdout.contains("contracts:") && checkout.stdout.contains("provides: none; requires: none"), "\(checkout)")
        #expect(checkout.stdout.contains("store groups:") && checkout.stdout.contains("checkout (read)"), "\(checkout)")
    }

    @Test("without a provider installed, Ticker shows why instead of a price")
    func tickerWithoutCrypto() throws {
        let ticker = try Kit.candidate(TestSupport.productsDirectory + "/libTickerPlugin.so")
        let home = try Kit.Home()
        let session = WidgetSession(runtime: home.runtime(LogRecorder()), plugins: [ticker])
        try session.open(NavigationTarget(plugin: "org.widgethost.ticker", screen: "ticker"))
        let screen = try #require(session.render())
        #expect(screen.error?.contains("org.widgethost.crypto.price/1: not granted") == true, "\(String(describing: screen.error))")
    }

    private static func texts(_ json: JSONValue) -> [String] {
        var found: [String] = []
        func walk(_ node: JSONValue) {
            if let text = node["text"]?.string { found.append(text) }
            for child in node["children"]?.array ?? [] { walk(child) }
        }
        walk(json["view"] ?? .null)
        return found
    }
}
