import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The Crypto widget (Plugins/CryptoPlugin), driven through the real
/// `widget-host` against fake price APIs on 127.0.0.1 (CryptoMarket). Every
/// run's proxy points at a closed loopback port, so nothing leaves the machine.
@Suite("Crypto widget")
struct CryptoPluginTests {
    typealias Reply = LoopbackHTTPServer.Reply

    // MARK: - Prices from every response shape

    @Test("the price screen reads each API's own shape, with priceFormat auto (the default) and named", arguments: [
        (CryptoMarket.coincapBody, "coincap", "$43,210.55"),
        (CryptoMarket.coinbaseBody, "coinbase", "$43,215.01"),
        (CryptoMarket.krakenBody, "kraken", "$43,205.10"),
        (CryptoMarket.binanceBody, "binance", "$43,230.55"),
    ])
    func eachShape(_ body: String, _ format: String, _ expected: String) throws {
        let market = try CryptoMarket([CryptoMarket.pricePath: [.ok(body)]])
        for formatArguments in [[], ["--set", "crypto.priceFormat=\(format)"]] {
            let screen = try CryptoHost.screen(market.arguments + formatArguments + ["--actions", "retrieve"])
            #expect(screen.price == expected, "\(screen)")
            #expect(screen.unavailable == nil, "\(screen)")
            #expect(screen.texts.contains { $0.hasPrefix("Updated \(CryptoScreen.day) 09:") }, "\(screen)")
        }
    }

    @Test("prices are exact decimals, rounded half away from zero to the cent and grouped", arguments: [
        (#""43210.545""#, "$43,210.55"),       // banker's rounding would give .54
        (#""43210.005""#, "$43,210.01"),       // a Double holds 43210.00499…, which rounds to .00
        (#""1234567.891""#, "$1,234,567.89"),
        (#""0.5""#, "$0.50"),
        (#""4.32105e4""#, "$43,210.50"),
        ("43210.5", "$43,210.50"),             // a bare JSON number, read from its literal
        (#""43210.5512345678901234567890""#, "$43,210.55"),
    ])
    func decimalPrices(_ literal: String, _ expected: String) throws {
        let market = try CryptoMarket([CryptoMarket.pricePath: [.ok(#"{"data":{"priceUsd":\#(literal)}}"#)]])
        let screen = try CryptoHost.screen(market.arguments + ["--actions", "retrieve"])
        #expect(screen.price == expected, "\(screen)")
    }

    @Test("bodies framed by length, by chunks, or by closing the connection all read the same")
    func framings() throws {
        for framing in [LoopbackHTTPServer.Framing.contentLength, .chunked, .untilClose] {
            let reply = Reply.response(status: 200, body: Array(CryptoMarket.coincapBody.utf8), framing: framing)
            let market = try CryptoMarket([CryptoMarket.pricePath: [reply]])
            let screen = try CryptoHost.screen(market.arguments + ["--actions", "retrieve"])
            #expect(screen.price == "$43,210.55", "\(framing): \(screen)")
        }
    }

    @Test("a slow answer inside the timeout arrives later, and the scripted run waits for it")
    func slowButInTime() throws {
        let slow = Reply.response(status: 200, body: Array(CryptoMarket.coincapBody.utf8), delay: 1)
        let market = try CryptoMarket([CryptoMarket.pricePath: [slow]])
        let screen = try CryptoHost.screen(market.arguments + ["--set", "crypto.timeoutSeconds=20", "--once"])
        #expect(screen.price == "$43,210.55", "\(screen)")
        #expect(!screen.isLoading)
    }

    // MARK: - Errors are states

    struct Failure: CustomTestStringConvertible, Sendable {
        let name: String
        let reply: Reply
        var settings: [String] = []
        /// The codes the state may carry (one, except where the host's own mapping varies).
        let codes: Set<String>
        let reason: String

        /// A short timeout can cut the request off before the server has read
        /// it, on a loaded machine, so the server may count it or not.
        var serverMayMissRequest: Bool { settings.contains { $0.hasPrefix("timeoutSeconds=") } }

        var testDescription: String { name }
    }

    static let failures: [Failure] = [
        Failure(name: "timeout", reply: .response(status: 200, body: Array(CryptoMarket.coincapBody.utf8), delay: 10),
                settings: ["timeoutSeconds=0.5"], codes: ["timeout"], reason: "no answer within 500 ms"),
        Failure(name: "accepted, never answered", reply: .close(delay: 10), settings: ["timeoutSeconds=0.5"],
                codes: ["timeout"], reason: "no answer within 500 ms"),
        Failure(name: "HTTP 503", reply: .response(status: 503, body: "upstream down"), codes: ["httpStatus"],
                reason: "the server answered HTTP 503"),
        Failure(name: "HTTP 404 with the API's error", reply: .response(status: 404, body: #"{"errors":[{"id":"not_found","message":"Invalid currency"}]}"#),
                codes: ["httpStatus"], reason: "the server answered HTTP 404: Invalid currency"),
        Failure(name: "HTTP 451 from Binance's restriction",
                reply: .response(status: 451, body: #"{"code":0,"msg":"Service unavailable from a restricted location"}"#),
                codes: ["httpStatus"], reason: "the server answered HTTP 451: Service unavailable from a restricted location"),
        Failure(name: "oversized, by length", reply: .ok(String(repeating: " ", count: 5000) + CryptoMarket.coincapBody),
                settings: ["maxResponseBytes=1024"], codes: ["tooLarge"], reason: "the response is larger than 1024 bytes"),
        Failure(name: "oversized, chunked",
                reply: .response(status: 200, body: Array((String(repeating: " ", count: 5000) + CryptoMarket.coincapBody).utf8), framing: .chunked),
                settings: ["maxResponseBytes=1024"], codes: ["tooLarge"], reason: "the response is larger than 1024 bytes"),
        Failure(name: "malformed JSON", reply: .ok(#"{"data": {"priceUsd": "43210.55""#), codes: ["malformedJSON"],
                reason: "the response is not valid JSON (line 1, column"),
        Failure(name: "an HTML page", reply: .ok("<html>rate limited</html>", contentType: "text/html"), codes: ["malformedJSON"],
                reason: "the response is not valid JSON"),
        Failure(name: "invalid UTF-8", reply: .response(status: 200, body: Array(#"{"data":{"priceUsd":""#.utf8) + [0xFF, 0xFE] + Array(#""}}"#.utf8)),
                codes: ["malformedJSON"], reason: "the response is not valid JSON"),
        Failure(name: "missing field", reply: .ok(#"{"data":{"id":"bitcoin"}}"#), settings: ["priceFormat=coincap"],
                codes: ["missingField"], reason: "the response has no data.priceUsd"),
        Failure(name: "missing field, any shape", reply: .ok(#"{"status":"ok"}"#), codes: ["missingField"],
                reason: "the response has no price field"),
        Failure(name: "another API's shape", reply: .ok(CryptoMarket.binanceBody), settings: ["priceFormat=coincap"],
                codes: ["missingField"], reason: "the response has no data.priceUsd"),
        Failure(name: "not a number", reply: .ok(#"{"data":{"priceUsd":"12abc"}}"#), codes: ["notNumeric"],
                reason: #"data.priceUsd is not a number: "12abc""#),
        Failure(name: "empty string", reply: .ok(#"{"data":{"priceUsd":""}}"#), codes: ["notNumeric"],
                reason: #"data.priceUsd is not a number: """#),
        Failure(name: "null", reply: .ok(#"{"data":{"priceUsd":null}}"#), codes: ["notNumeric"],
                reason: #"data.priceUsd is not a number: "null""#),
        Failure(name: "grouped digits", reply: .ok(#"{"data":{"priceUsd":"43,210.55"}}"#), codes: ["notNumeric"],
                reason: #"data.priceUsd is not a number: "43,210.55""#),
        Failure(name: "NaN", reply: .ok(#"{"data":{"priceUsd":"NaN"}}"#), codes: ["notNumeric"],
                reason: #"data.priceUsd is not a number: "NaN""#),
        Failure(name: "negative", reply: .ok(#"{"data":{"priceUsd":"-43210.55"}}"#), codes: ["notPositive"],
                reason: #"data.priceUsd is not a positive price: "-43210.55""#),
        Failure(name: "zero", reply: .ok(#"{"data":{"amount":"0.00"}}"#), codes: ["notPositive"],
                reason: #"data.amount is not a positive price: "0.00""#),
        Failure(name: "an error inside a 200", reply: .ok(#"{"error":["EQuery:Unknown asset pair"]}"#), codes: ["exchangeError"],
                reason: "the exchange reported an error: EQuery:Unknown asset pair"),
        Failure(name: "cut short", reply: .truncated(status: 200, declaredLength: 500, body: Array(CryptoMarket.coincapBody.prefix(20).utf8)),
                codes: ["connectionFailed"], reason: "the connection broke off"),
        // A close before any response: the host reports it as unreachable or as a failed connection.
        Failure(name: "disconnect", reply: .close(), codes: ["connectionFailed", "unreachable"], reason: ""),
    ]

    @Test("each failure is a 'Price unavailable' state with its reason and a retry, never a crash", arguments: failures)
    func failureStates(_ failure: Failure) throws {
        let market = try CryptoMarket([CryptoMarket.pricePath: [failure.reply]])
        let settings = failure.settings.flatMap { ["--set", "crypto." + $0] }
        let screen = try CryptoHost.screen(market.arguments + settings + ["--actions", "retrieve"])
        let state = try #require(screen.unavailable, "\(screen)")
        #expect(failure.codes.contains(state.code), "\(screen)")
        #expect(state.reason.hasPrefix(failure.reason), "\(state.reason)")
        #expect(screen.price == nil)
        #expect(screen.texts.contains("No price has been retrieved yet."), "\(screen)")
        #expect(screen.actions.first == CryptoScreen.Action(title: "Retry", action: "retrieve", value: nil), "\(screen.actions)")
        // The screen declares its error state, so a script need not search the view.
        #expect(screen.error == "Price unavailable: \(state.reason)", "\(screen)")
        #expect(!screen.isLoading)
        // Not swallowed: the failure is logged too.
        #expect(screen.run.stderr.contains("price unavailable from \(market.url(CryptoMarket.pricePath))"), "\(screen)")
        #expect((failure.serverMayMissRequest ? 0...1 : 1...1).contains(market.requests(CryptoMarket.pricePath)))
    }

    @Test("a failure keeps the last good price with its age")
    func lastGoodPrice() throws {
        let market = try CryptoMarket([CryptoMarket.pricePath: [.ok(CryptoMarket.coincapBody), .response(status: 503, body: "down")]])
        let screen = try CryptoHost.screen(market.arguments + ["--actions", "retrieve,retrieve"])
        #expect(screen.unavailable?.code == "httpStatus", "\(screen)")
        #expect(screen.price == nil)
        let kept = try #require(screen.texts.first { $0.hasPrefix("Last good price") }, "\(screen)")
        #expect(kept.hasPrefix("Last good price $43,210.55, updated \(CryptoScreen.day) 09:"), "\(kept)")
        #expect(kept.hasSuffix("(just now)") || kept.hasSuffix(" s ago)"), "\(kept)")
        #expect(market.requests(CryptoMarket.pricePath) == 2)
    }

    @Test("Retry after a failure fetches again, and a good answer clears the state")
    func retryRecovers() throws {
        let market = try CryptoMarket([CryptoMarket.pricePath: [.response(status: 503, body: "down"), .ok(#"{"data":{"priceUsd":"44000.10"}}"#)]])
        let failed = try CryptoHost.screen(market.arguments + ["--actions", "retrieve"])
        #expect(failed.actions.first == CryptoScreen.Action(title: "Retry", action: "retrieve", value: nil), "\(failed)")
        market.script(CryptoMarket.pricePath, [.response(status: 503, body: "down"), .ok(#"{"data":{"priceUsd":"44000.10"}}"#)])
        let recovered = try CryptoHost.screen(market.arguments + ["--actions", "retrieve,retrieve"])
        #expect(recovered.unavailable == nil, "\(recovered)")
        #expect(recovered.price == "$44,000.10", "\(recovered)")
        #expect(recovered.actions.first?.title == "Retrieve")
        #expect(market.requests(CryptoMarket.pricePath) == 3)
    }

    @Test("a host its manifest does not grant is shown as denied, not as a network failure, in process and isolated")
    func deniedHost() throws {
        for mode in [[], ["--isolate"]] {
            let screen = try CryptoHost.screen(["--set", "crypto.priceURL=http://undeclared.invalid/price", "--actions", "retrieve"] + mode)
            #expect(screen.unavailable?.code == "denied", "\(mode): \(screen)")
            #expect(screen.unavailable?.reason == "denied: the widget's manifest does not grant undeclared.invalid, so the host did not connect",
                    "\(mode): \(screen)")
        }
    }

    @Test("with no network the widget still renders, in the 'Price unavailable' state")
    func noNetwork() throws {
        // An endpoint on which nothing listens, as the lead's no-network case.
        let closed = try LoopbackHTTPServer.closedPortURL("/v2/assets/bitcoin")
        let screen = try CryptoHost.screen(["--set", "crypto.priceURL=\(closed)", "--actions", "retrieve"])
        #expect(screen.unavailable?.code == "unreachable", "\(screen)")
        // The host names the cause (http/2), in process and isolated: a port nobody listens on refuses.
        for mode in [[], ["--isolate"]] {
            let named = try CryptoHost.screen(["--set", "crypto.priceURL=\(closed)", "--actions", "retrieve"] + mode)
            #expect(named.unavailable?.reason == "could not connect to the server: connection refused", "\(mode): \(named)")
        }

        // The real default endpoints, on a machine whose every outside connection is refused.
        let fresh = try CryptoHost.screen(["--once"])
        #expect(fresh.screen == "price")
        #expect(fresh.unavailable?.code == "unreachable", "\(fresh)")
        #expect(fresh.texts.contains("BTC in US dollars, from api.coinbase.com"), "\(fresh)")
        #expect(fresh.actions.map(\.action) == ["retrieve", "exchanges"])

        let exchanges = try CryptoHost.screen(["--screen", "exchanges", "--once"])
        #expect(exchanges.rows.map(\.code) == ["unreachable", "unreachable", "unreachable"], "\(exchanges)")
        #expect(exchanges.texts.contains("A spread needs prices from at least two exchanges."), "\(exchanges)")
        #expect(exchanges.error == "No exchange price is available", "\(exchanges)")
    }

    @Test("a URL the http service refuses is a badURL state, not a request")
    func badURL() throws {
        let screen = try CryptoHost.screen(["--set", "crypto.priceURL=ftp://127.0.0.1/price", "--actions", "retrieve"])
        #expect(screen.unavailable?.code == "badURL", "\(screen)")
        #expect(screen.unavailable?.reason == "not an http or https URL: ftp://127.0.0.1/price")
    }

    // MARK: - Configuration

    @Test("bad configuration is a 'Price unavailable' state naming the key, and nothing is fetched", arguments: [
        ("refreshSeconds=abc", "refreshSeconds must be a number from 1 to 86400"),
        ("refreshSeconds=0", "refreshSeconds must be a number from 1 to 86400"),
        ("refreshSeconds=2.5", "refreshSeconds must be a number from 1 to 86400"),
        ("timeoutSeconds=0.01", "timeoutSeconds must be a number from 0.1 to 60 seconds"),
        ("timeoutSeconds=61", "timeoutSeconds must be a number from 0.1 to 60 seconds"),
        ("maxResponseBytes=-1", "maxResponseBytes must be a number from 256 to 16777216"),
        ("priceFormat=yahoo", "priceFormat must be one of coincap, coinbase, kraken, binance, auto"),
        ("coinbaseURL=5", "coinbaseURL must be a non-empty string"),
        ("priceURL=\"\"", "priceURL must be a non-empty string"),
        ("source=mock", "source must be network or sample, not \"mock\""),
    ])
    func badConfiguration(_ setting: String, _ message: String) throws {
        let market = try CryptoMarket()
        for screenName in ["price", "exchanges"] {
            let screen = try CryptoHost.screen(market.arguments + ["--set", "crypto." + setting, "--screen", screenName, "--once"])
            if screenName == "price" {
                #expect(screen.unavailable?.code == "configuration", "\(screen)")
                #expect(screen.unavailable?.reason.hasPrefix("configuration: " + message) == true, "\(screen)")
                #expect(screen.texts.contains("Fix the widget's configuration and launch it again."))
            } else {
                #expect(screen.rows.map(\.code) == ["configuration", "configuration", "configuration"], "\(screen)")
            }
        }
        #expect(market.server.requests.isEmpty, "\(market.server.requests)")
    }

    @Test("a configuration file sets the endpoints and the refresh interval; unknown keys are logged")
    func configurationFile() throws {
        let market = try CryptoMarket([CryptoMarket.pricePath: [.ok(CryptoMarket.coinbaseBody)]])
        let directory = try TestSupport.makeTemporaryDirectory("crypto-config")
        let config: JSONValue = ["plugins": ["crypto": [
            "priceURL": .string(market.url(CryptoMarket.pricePath)), "priceFormat": "coinbase", "refreshSeconds": 45, "refreshSecs": 5,
        ]]]
        try TestSupport.write(Array(config.serialized.utf8), to: directory + "/config.json")
        let screen = try CryptoHost.screen(["--config", directory + "/config.json", "--actions", "retrieve"])
        #expect(screen.price == "$43,215.01", "\(screen)")
        #expect(screen.texts.contains("Refreshes every 45 s while shown"), "\(screen)")
        #expect(screen.run.stderr.contains(#"ignoring unknown configuration key "refreshSecs""#), "\(screen)")
    }

    // MARK: - Exchanges and navigation

    @Test("launch --actions retrieve,exchanges --format json: each exchange's price and spread, through a bus push")
    func exchanges() throws {
        let market = try CryptoMarket()
        let screen = try CryptoHost.screen(market.arguments + ["--trace-events", "--actions", "retrieve,exchanges"])
        #expect(screen.screen == "exchanges")
        #expect(screen.stack == ["price", "exchanges"])
        #expect(screen.rows == [
            // Against the average of the other two: 43215.01 - 43217.825, 43205.10 - 43222.78, 43230.55 - 43210.055.
            CryptoScreen.Row(id: "coinbase", title: "Coinbase", detail: "$43,215.01  -$2.82 (-0.01%) vs others", badge: "BTC-USD"),
            CryptoScreen.Row(id: "kraken", title: "Kraken", detail: "$43,205.10  -$17.68 (-0.04%) vs others", badge: "XBT/USD"),
            CryptoScreen.Row(id: "binance", title: "Binance", detail: "$43,230.55  +$20.50 (+0.05%) vs others", badge: "BTC/USDT"),
        ], "\(screen)")
        #expect(screen.texts.contains("Widest spread $25.45 (0.06%): Binance highest, Kraken lowest"), "\(screen)")
        #expect(screen.actions.map(\.description) == ["Coinbase -> exchange=coinbase", "Kraken -> exchange=kraken",
                                                      "Binance -> exchange=binance", "Refresh -> refresh"])
        // Each exchange was asked once, at its own ticker; the market price once, by Retrieve.
        for path in [CryptoMarket.pricePath, CryptoMarket.coinbasePath, CryptoMarket.krakenPath, CryptoMarket.binancePath] {
            #expect(market.requests(path) == 1, "\(path)")
        }
        #expect(market.server.requests.contains { $0.target == CryptoMarket.krakenPath + "?pair=XBTUSD" })
        // The host opened the first screen by a direct call (only its change is heard); the widget's push went over the bus.
        let navigation = screen.events.filter { $0.topic.hasPrefix("nav.") }
        #expect(navigation.map(\.topic) == ["nav.changed", "nav.push", "nav.changed"], "\(screen.run.stderr)")
        #expect(navigation.dropFirst(1).first?.payload["screen"]?.string == "exchanges")
    }

    @Test("Back returns to the price, which is still shown and not fetched again")
    func back() throws {
        let market = try CryptoMarket()
        let screen = try CryptoHost.screen(market.arguments + ["--trace-events", "--actions", "retrieve,exchanges,back"])
        #expect(screen.screen == "price")
        #expect(screen.stack == ["price"])
        #expect(screen.price == "$43,210.55", "\(screen)")
        #expect(market.requests(CryptoMarket.pricePath) == 1)
        // Back is the host's own move: a direct call, heard on the bus only as the change back to the price.
        let navigation = screen.events.filter { $0.topic.hasPrefix("nav.") }
        #expect(!navigation.contains { $0.topic == "nav.pop" }, "\(screen.run.stderr)")
        #expect(navigation.last?.topic == "nav.changed" && navigation.last?.payload["screen"]?.string == "price", "\(screen.run.stderr)")
    }

    @Test("selecting an exchange opens its details: price, spread against each other exchange, and source")
    func exchangeDetail() throws {
        let market = try CryptoMarket()
        let screen = try CryptoHost.screen(market.arguments + ["--actions", "exchanges,exchange=kraken"])
        #expect(screen.screen == "exchange")
        #expect(screen.params == ["id": "kraken"])
        #expect(screen.stack == ["price", "exchanges", "exchange"])
        #expect(screen.texts.first == "Kraken")
        #expect(screen.price == "$43,205.10", "\(screen)")
        #expect(screen.texts.contains("Against Coinbase ($43,215.01): -$9.91 (-0.02%)"), "\(screen)")
        #expect(screen.texts.contains("Against Binance ($43,230.55): -$25.45 (-0.06%)"), "\(screen)")
        #expect(screen.texts.contains("Against the others' average: -$17.68 (-0.04%)"), "\(screen)")
        #expect(screen.texts.contains(market.url(CryptoMarket.krakenPath + "?pair=XBTUSD")), "\(screen)")
        #expect(screen.actions == [CryptoScreen.Action(title: "Refresh", action: "refresh", value: "kraken")])
        // Its Refresh asks Kraken alone.
        let refreshed = try CryptoHost.screen(market.arguments + ["--actions", "exchanges,exchange=kraken,refresh=kraken"])
        #expect(refreshed.price == "$43,205.10")
        #expect(market.requests(CryptoMarket.krakenPath) == 3 && market.requests(CryptoMarket.coinbasePath) == 2)
    }

    /// The detail screen's spread needs the other exchanges' prices; it
    /// started their fetches, so a scripted run must wait for all of them.
    @Test("50 runs of the exchange detail screen against an instant server all show three prices")
    func exchangeDetailWaitsForEveryFetch() throws {
        let market = try CryptoMarket()
        for run in 1...50 {
            let screen = try CryptoHost.screen(market.arguments + ["--screen", "exchange?id=kraken", "--once"])
            #expect(screen.price == "$43,205.10", "run \(run): \(screen)")
            #expect(screen.texts.contains("Against Coinbase ($43,215.01): -$9.91 (-0.02%)"), "run \(run): \(screen)")
            #expect(screen.texts.contains("Against Binance ($43,230.55): -$25.45 (-0.06%)"), "run \(run): \(screen)")
        }
    }

    @Test("an unknown exchange: the action is refused, and a link to one, or to none, shows an error state")
    func unknownExchange() throws {
        let market = try CryptoMarket()
        let refused = try CryptoHost.screen(market.arguments + ["--actions", "exchanges,exchange=bitstamp"], status: 1)
        #expect(refused.screen == "exchanges")
        #expect(refused.run.stderr.contains("invalid value"), "\(refused)")
        let refusedRefresh = try CryptoHost.screen(market.arguments + ["--actions", "exchanges,refresh=bitstamp"], status: 1)
        #expect(refusedRefresh.run.stderr.contains("action 'refresh' failed: invalid value"), "\(refusedRefresh)")

        let before = market.server.requests.count
        let linked = try CryptoHost.screen(market.arguments + ["--actions", "widget://crypto/exchange?id=bitstamp"])
        #expect(linked.screen == "exchange")
        #expect(linked.params == ["id": "bitstamp"])
        #expect(linked.texts.contains(#"There is no exchange "bitstamp"."#), "\(linked)")
        #expect(linked.error == #"There is no exchange "bitstamp"."#, "\(linked)")
        #expect(linked.actions.map(\.action) == ["widget://org.widgethost.crypto/exchanges"])
        #expect(market.server.requests.count == before, "an unknown exchange is not fetched")

        let bare = try CryptoHost.screen(market.arguments + ["--screen", "exchange", "--once"])
        #expect(bare.texts.contains("No exchange was chosen."), "\(bare)")
        #expect(bare.error == "No exchange was chosen.", "\(bare)")
        #expect(bare.actions.map(\.action) == ["widget://org.widgethost.crypto/exchanges"])
    }

    @Test("one exchange failing leaves the others and their spread against each other", arguments: [
        (CryptoMarket.binancePath, Reply.response(status: 451, body: #"{"code":0,"msg":"Service unavailable from a restricted location"}"#), "httpStatus"),
        (CryptoMarket.krakenPath, Reply.ok(#"{"error":["EGeneral:Too many requests"]}"#), "exchangeError"),
        (CryptoMarket.coinbasePath, Reply.ok(#"{"data":{"amount":"-1","base":"BTC","currency":"USD"}}"#), "notPositive"),
    ])
    func oneExchangeFails(_ path: String, _ reply: Reply, _ code: String) throws {
        let market = try CryptoMarket([path: [reply]])
        let screen = try CryptoHost.screen(market.arguments + ["--actions", "exchanges"])
        let failed = try #require(screen.rows.first { $0.code == code }, "\(screen)")
        #expect(failed.detail?.hasPrefix("Price unavailable: ") == true, "\(failed)")
        let others = screen.rows.filter { $0.id != failed.id }
        #expect(others.count == 2)
        for row in others {
            // Each compares with the one other price left: a spread, not "no other price".
            #expect(row.detail?.hasSuffix(" vs others") == true, "\(row)")
        }
        #expect(screen.actions.last == CryptoScreen.Action(title: "Retry", action: "refresh", value: nil))
    }

    @Test("Kraken's result is read under whatever pair key the ticker returns")
    func krakenPairKey() throws {
        let body = #"{"error":[],"result":{"XBTUSDT":{"c":["43199.90000","0.1"]}}}"#
        let market = try CryptoMarket([CryptoMarket.krakenPath: [.ok(body)]])
        let screen = try CryptoHost.screen(market.arguments + ["--actions", "exchanges"])
        #expect(screen.row("kraken")?.detail?.hasPrefix("$43,199.90  ") == true, "\(screen)")
        let empty = try CryptoMarket([CryptoMarket.krakenPath: [.ok(#"{"error":[],"result":{}}"#)]])
        let missing = try CryptoHost.screen(empty.arguments + ["--actions", "exchanges"])
        #expect(missing.row("kraken")?.detail == "Price unavailable: the response has no result.XXBTZUSD", "\(missing)")
    }

    // MARK: - The contract

    @Test("validate passes every check, with the real default endpoints refused")
    func validate() throws {
        let run = try CryptoHost.run(["validate", TestSupport.productsDirectory + "/libCryptoPlugin.so"])
        #expect(run.status == 0, "\(run)")
        #expect(!run.stdout.contains("FAIL"), "\(run)")
    }
}
