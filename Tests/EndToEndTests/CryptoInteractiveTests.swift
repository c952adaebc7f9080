import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The Crypto widget as a person uses it: `widget-host launch crypto` on a
/// real terminal (tmux), against fake price APIs on 127.0.0.1.
@Suite("Crypto widget, interactive", .enabled(if: Tmux.path != nil, "needs tmux"))
struct CryptoInteractiveTests {
    @Test("the screen updates when a price arrives and when it refreshes, with no key pressed; keys navigate and quit")
    func interactive() throws {
        // Only the first price at first, repeated by every refresh, so that no slow look at the
        // screen can miss it; the next price is scripted once the first has been seen.
        let market = try CryptoMarket([CryptoMarket.pricePath: [.ok(CryptoMarket.coincapBody)]])
        // The first answer is held back until the test has seen the screen waiting for it.
        market.close(CryptoMarket.pricePath)
        let home = try TestSupport.makeTemporaryDirectory("crypto-tty")
        var environment = CryptoHost.environment
        environment.merge(["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config", "TERM": "xterm"]) { _, new in new }
        let arguments = market.arguments(refreshSeconds: 1)
        let terminal = try Tmux([TestSupport.widgetHost, "launch", "crypto"] + arguments, environment: environment)
        defer { terminal.kill() }

        // Loading, with no price yet.
        let waiting = try terminal.waitFor("the loading price screen") { $0.contains("Fetching the price") }
        #expect(!waiting.contains("$"), "\(waiting)")

        // The answer goes; the screen shows it without a key.
        market.open(CryptoMarket.pricePath)
        let first = try terminal.waitFor("the first price") { $0.contains("$43,210.55") }
        #expect(first.contains("[1] ▶ Retrieve") && first.contains("[2] See Exchanges"), "\(first)")
        market.script(CryptoMarket.pricePath, [.ok(#"{"data":{"priceUsd":"44000.10"}}"#)])

        // The automatic refresh brings the next price, again without a key.
        try terminal.waitFor("the refreshed price") { $0.contains("$44,000.10") }
        #expect(market.requests(CryptoMarket.pricePath) >= 2)

        // See Exchanges: the three exchanges with their prices.
        try terminal.send("2")
        try terminal.waitFor("the exchanges with prices") { screen in
            ["$43,215.01", "$43,205.10", "$43,230.55", "Widest spread"].allSatisfy(screen.contains)
        }
        // While the exchanges are shown they refresh, and the hidden price does not.
        let exchangeRequests = { market.requests(CryptoMarket.coinbasePath) }
        try terminal.waitFor("two exchange refreshes") { _ in exchangeRequests() >= 3 }
        let priceRequests = market.requests(CryptoMarket.pricePath)
        let target = exchangeRequests() + 2
        try terminal.waitFor("two more exchange refreshes") { _ in exchangeRequests() >= target }
        #expect(market.requests(CryptoMarket.pricePath) == priceRequests)

        // Kraken, the second row, in detail; then back twice to the price.
        try terminal.send("2")
        let detail = try terminal.waitFor("Kraken's details") { $0.contains("Against Coinbase ($43,215.01): -$9.91 (-0.02%)") }
        #expect(detail.contains("$43,205.10"), "\(detail)")
        try terminal.send("b")
        try terminal.waitFor("the exchanges again") { $0.contains("Widest spread") }
        try terminal.send("b")
        try terminal.waitFor("the price again") { $0.contains("$44,000.10") && $0.contains("See Exchanges") }

        try terminal.send("q")
        try terminal.waitFor("the program to exit") { _ in try terminal.exited() }
    }

    @Test("on a terminal with no network the widget shows 'Price unavailable' and a working Retry")
    func interactiveOffline() throws {
        let closed = try LoopbackHTTPServer.closedPortURL("/price")
        let home = try TestSupport.makeTemporaryDirectory("crypto-tty")
        var environment = CryptoHost.environment
        environment.merge(["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config", "TERM": "xterm"]) { _, new in new }
        let terminal = try Tmux([TestSupport.widgetHost, "launch", "crypto", "--set", "crypto.priceURL=" + closed], environment: environment)
        defer { terminal.kill() }
        let offline = try terminal.waitFor("the unavailable state") { $0.contains("Price unavailable") }
        #expect(offline.contains("could not connect") && offline.contains("[1] ▶ Retry"), "\(offline)")
        try terminal.send("1")
        try terminal.waitFor("the same state after Retry") { $0.contains("Price unavailable") && $0.contains("[1] ▶ Retry") }
        try terminal.send("q")
        try terminal.waitFor("the program to exit") { _ in try terminal.exited() }
    }
}
