import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// `widget-host dashboard --once`: every card rendered once, for scripts.
@Suite("Dashboard, once")
struct DashboardOnceTests {
    @Test("JSON: the four shipped widgets, medium, by name, each with its live glanceable content, fresh, no error")
    func fourWidgets() throws {
        let world = try DashboardWorld()
        let started = Clock.now
        let (_, cards) = try world.once()
        // Rendered during this run: no older than the run itself (whole seconds, rounded up).
        let runSeconds = Int64((Clock.now - started).rounded(.up))
        #expect(cards.keys.sorted() == ["org.widgethost.checkout", "org.widgethost.crypto", "org.widgethost.ticker", "org.widgethost.trips"])
        for card in cards.values {
            #expect(card["size"]?.string == "medium")
            #expect(card["stale"] == .bool(false) && card["error"] == .null && card["cut"] == .bool(false), "\(card)")
            #expect((0...runSeconds).contains(card["age"]?.int64 ?? -1), "\(card)")
        }
        #expect(cards.values.sorted { ($0["number"]?.int64 ?? 0) < ($1["number"]?.int64 ?? 0) }.map { $0["name"]?.string ?? "" }
            == ["Checkout", "Crypto", "My Trips", "Ticker"])
        #expect(cards["org.widgethost.checkout"]?["position"] == ["column": 0, "row": 0, "columns": 2, "rows": 1])
        #expect(cards["org.widgethost.crypto"]?["position"] == ["column": 2, "row": 0, "columns": 2, "rows": 1])
        let checkout = DashboardWorld.texts(cards["org.widgethost.checkout"])
        #expect(checkout.filter { $0 == "$62.50" }.count == 4, "\(checkout)")
        #expect(checkout.contains("today") && checkout.contains("Order total: $250.00"), "\(checkout)")
        #expect(DashboardWorld.texts(cards["org.widgethost.crypto"]).contains("BTC $43,210.55"))
        #expect(DashboardWorld.texts(cards["org.widgethost.ticker"]).contains { $0.hasPrefix("BTC $43,210.55") }, "Ticker writes money as Crypto does")
        let trips = DashboardWorld.texts(cards["org.widgethost.trips"])
        #expect(trips.contains("Next: outbound flight IB3436 MAD → CDG") && trips.contains("in 22 h 05 min"), "\(trips)")
    }

    @Test("Checkout's card abbreviates each due date's month as its locale does, not by its first letters", arguments: [
        ("en_US", ["Jun 23", "Jul 7", "Jul 21"]), ("en_GB", ["23 Jun", "7 Jul", "21 Jul"]), ("fr_CA", ["23 juin", "7 juil.", "21 juil."]),
    ])
    func checkoutCardDates(locale: String, dates: [String]) throws {
        let world = try DashboardWorld()
        let (_, cards) = try world.once(["--set", "checkout.locale=" + locale])
        let checkout = DashboardWorld.texts(cards["org.widgethost.checkout"])
        #expect(dates.allSatisfy(checkout.contains), "\(checkout)")
    }

    @Test("every widget isolated, with --now: each card renders its live content, Trips its next step by the clock --now sets")
    func everyWidgetIsolated() throws {
        let world = try DashboardWorld()
        let (_, cards) = try world.once(["--isolate"])
        for card in cards.values { #expect(card["stale"] == .bool(false) && card["error"] == .null, "\(card)") }
        let trips = DashboardWorld.texts(cards["org.widgethost.trips"])
        #expect(trips.contains("Next: outbound flight IB3436 MAD → CDG") && trips.contains("in 22 h 05 min"), "\(trips)")
        #expect(DashboardWorld.texts(cards["org.widgethost.ticker"]).contains { $0.hasPrefix("BTC $43,210.55") })
    }

    @Test("large cards: each shipped widget designs one, with more than its medium card says")
    func largeCards() throws {
        let world = try DashboardWorld()
        let config = world.home + "/large.json"
        let cards = ["checkout", "crypto", "trips", "ticker"].map { #"{"widget": "\#($0)", "size": "large"}"# }
        try TestSupport.write(Array(#"{"dashboard": {"cards": [\#(cards.joined(separator: ", "))]}}"#.utf8), to: config)
        let (_, found) = try world.once(["--config", config])
        for card in found.values {
            #expect(card["size"]?.string == "large" && card["cut"] == .bool(false) && card["error"] == .null, "\(card)")
            #expect(card["position"]?["rows"]?.int64 == 2, "\(card)")
        }
        let checkout = DashboardWorld.texts(found["org.widgethost.checkout"])
        #expect(checkout.contains("Order total: $250.00"), "\(checkout)")
        #expect(checkout.filter { $0.hasSuffix(", 2026") }.count == 3 && !checkout.contains { $0.hasPrefix("Jun ") }, "dates in full: \(checkout)")
        let crypto = found["org.widgethost.crypto"]?.serialized ?? ""
        #expect(crypto.contains(#""header":"Exchanges""#) && crypto.contains("Coinbase: not fetched yet"), "\(crypto)")
        let trips = found["org.widgethost.trips"]?.serialized ?? ""
        #expect(trips.contains(#""header":"Then""#), "the steps after the next: \(trips)")
        #expect(DashboardWorld.texts(found["org.widgethost.ticker"]).contains("Bitcoin"), "the full view's title")
    }

    @Test("text: the grid once, two medium cards a row at 120 columns, no line past the edge; --columns 1 stacks them")
    func text() throws {
        let world = try DashboardWorld()
        let run = try world.run(["dashboard", "--once", "--wait", "20"] + world.arguments, ["COLUMNS": "120"])
        #expect(run.status == 0, "\(run)")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 2 * CardGrid.cellHeight, "\(run.stdout)")
        #expect(lines.allSatisfy { DisplayWidth.of(String($0)) <= 120 })
        #expect(lines[0].contains("1 Checkout") && lines[0].contains("2 Crypto"), "\(lines[0])")
        let stacked = try world.run(["dashboard", "--once", "--columns", "1", "--wait", "20"] + world.arguments, ["COLUMNS": "120"])
        #expect(stacked.stdout.split(separator: "\n").count == 4 * CardGrid.cellHeight, "\(stacked)")
    }

    @Test("text below 24 columns: launch's 'too narrow' message, once, whatever the number of cards")
    func tooNarrow() throws {
        let world = try DashboardWorld()
        let run = try world.run(["dashboard", "--once", "--wait", "20"] + world.arguments, ["COLUMNS": "20"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "Too narrow: 20\ncolumns; needs at\nleast 24.\n", "\(run.stdout)")
        let launch = try world.run(["launch", "crypto", "--once", "--wait", "20"] + world.arguments, ["COLUMNS": "20"])
        #expect(launch.stdout == run.stdout, "\(launch)")
    }

    @Test("a widget that is not installed is a visible card saying so, and the exit status says a card could not render")
    func missingWidget() throws {
        let world = try DashboardWorld()
        let config = world.home + "/dashboard.json"
        try TestSupport.write(Array(#"{"dashboard": {"cards": ["trips", {"widget": "weather", "size": "small"}]}}"#.utf8), to: config)
        let (run, cards) = try world.once(["--config", config], status: 1)
        let missing = try #require(cards["weather"])
        #expect(missing["size"]?.string == "small" && missing["view"] == .null)
        #expect(missing["error"]?.string?.contains("not installed: no plugin named 'weather'") == true, "\(missing)")
        #expect(run.stderr.contains("card 2 (weather) could not render"), "\(run.stderr)")
        #expect(cards["org.widgethost.trips"]?["error"] == .null)
    }

    @Test("a plugin that designs no card gets its first screen, marked cut; one that fails shows its error in its card")
    func oldPluginAndFailure() throws {
        let world = try DashboardWorld()
        let directory = try IsolationTestKit.hostileDirectory("dashboard-crash", defines: ["-DCRASH_IN_RENDER"])
        let (run, cards) = try world.once(["--plugin-dir", directory, "--wait", "20"], status: 1)
        let hello = try #require(cards.values.first { $0["name"]?.string == "Hello" }, "\(cards.keys)")
        #expect(hello["cut"] == .bool(true) && hello["error"] == .null && hello["view"] != .null, "\(hello)")
        let hostile = try #require(cards.values.first { ($0["widget"]?.string ?? "").contains("hostile") }, "\(cards.keys)")
        #expect(hostile["error"]?.string?.contains("SIGSEGV") == true, "\(hostile)")
        #expect(hostile["notice"]?.string?.hasPrefix("crashed, restarting in") == true, "\(hostile)")
        #expect(run.stderr.contains("could not render"), "\(run.stderr)")
        #expect(cards["org.widgethost.trips"]?["error"] == .null)
    }

    @Test("the last good content is kept across runs: a widget that now crashes shows it, marked stale with its age, and its error")
    func staleCache() throws {
        let world = try DashboardWorld()
        let directory = try IsolationTestKit.hostileDirectory("dashboard-stale", defines: [])
        let calm = try world.once(["--plugin-dir", directory])
        let first = try #require(calm.cards.values.first { ($0["widget"]?.string ?? "").contains("hostile") }, "\(calm.cards.keys)")
        #expect(DashboardWorld.texts(first) == ["Hostile: calm, version 1"] && first["stale"] == .bool(false))
        // The same plugin, rebuilt to crash: its card keeps what it showed.
        try TestSupport.compileC(source: TestSupport.fixtureDirectory + "/hostile.c", flags: ["-pthread", "-DCRASH_IN_RENDER"],
                                 output: directory + "/hostile.so")
        let (_, cards) = try world.once(["--plugin-dir", directory, "--wait", "20"], status: 1)
        let crashed = try #require(cards.values.first { ($0["widget"]?.string ?? "").contains("hostile") })
        #expect(DashboardWorld.texts(crashed) == ["Hostile: calm, version 1"], "\(crashed)")
        #expect(crashed["stale"] == .bool(true) && crashed["age"]?.int64 != nil && crashed["error"]?.string?.contains("SIGSEGV") == true, "\(crashed)")
    }

    @Test("a mistake in the configuration's dashboard is an error naming its line, column and the closest key")
    func configurationError() throws {
        let world = try DashboardWorld()
        let config = world.home + "/broken.json"
        try TestSupport.write(Array("{\n  \"dashboard\": {\n    \"colums\": 2\n  }\n}\n".utf8), to: config)
        let run = try world.run(["dashboard", "--once", "--config", config] + world.arguments)
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("line 3, column 5: dashboard has an unknown key 'colums' (did you mean 'columns'?)"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }
}
