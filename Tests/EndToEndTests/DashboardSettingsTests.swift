import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The dashboard's `e` key on a real terminal (tmux): the focused card's
/// settings, edited as `config set` edits them, and the card drawn again
/// with the new value; a bad value refused with the file left as it was.
@Suite("Dashboard settings screen", .enabled(if: Tmux.path != nil, "needs tmux"))
struct DashboardSettingsTests {
    static let configuration = """
        {"plugins": {"checkout": {"minimumAmount": "50.00", "maximumAmount": "2000.00", "currencyCode": "USD", "locale": "en_US", "amount": "250.00"}}}

        """

    /// The dashboard on a 120 x 40 terminal, reading `configuration` from a file of its own; that file's path.
    static func dashboard(_ world: DashboardWorld) throws -> (terminal: Tmux, path: String) {
        let path = world.home + "/dashboard-config.json"
        try TestSupport.write(Array(configuration.utf8), to: path)
        var environment = world.environment
        environment["TERM"] = "xterm"
        let arguments = [TestSupport.widgetHost] + world.market.arguments + ["--now", DashboardWorld.now, "--config", path]
        let settings = Tmux.Settings(columns: 120, rows: 40, attempts: 300, pollInterval: 100_000)
        return (try Tmux(arguments, environment: environment, settings: settings), path)
    }

    /// The prompt line at the bottom of the screen, if it shows.
    static func promptLine(_ screen: String) -> String? {
        screen.split(separator: "\n").last { $0.hasPrefix("New value of") }.map { String($0).trimmingCharacters(in: .whitespaces) }
    }

    @Test("e opens Checkout's settings; a new amount is saved and the card shows it; a bad one is refused, naming the setting, the file unchanged")
    func editCheckout() throws {
        let world = try DashboardWorld()
        let (terminal, path) = try Self.dashboard(world)
        defer { terminal.kill() }
        try terminal.waitFor("Checkout's card for $250.00") { $0.contains("▶ 1 Checkout") && $0.contains("Order total: $250.00") }
        #expect(try terminal.capture().contains("e settings"), "the footer names the key")

        try terminal.send("e")
        let settings = try terminal.waitFor("the settings screen") { $0.contains("Checkout · settings") && $0.contains("b back") }
        #expect(settings.contains("amount: [250.00]"), "the current value:\n\(settings)")
        #expect(settings.contains("locale: [en_US]"), "\(settings)")
        let lines = settings.split(separator: "\n")
        let amount = try #require(lines.firstIndex { $0.contains("amount: [250.00]") && !$0.contains("minimum") && !$0.contains("maximum") })
        let number = try #require(lines[amount].firstMatch(of: /\[(\d)\] amount/)?.1, "\(lines[amount])")

        // A good value: saved, said, written.
        try terminal.send(String(number))
        try terminal.waitFor("the prompt") { Self.promptLine($0) == "New value of amount:" }
        try terminal.send("300.00")
        try terminal.press("Enter")
        try terminal.waitFor("the new value") { $0.contains("amount is now 300.00") && $0.contains("amount: [300.00]") }
        let saved = try TestSupport.readBytes(path)
        #expect(String(decoding: saved, as: UTF8.self).contains(#""amount": "300.00""#), "\(String(decoding: saved, as: UTF8.self))")
        #expect(String(decoding: saved, as: UTF8.self).contains(#""locale": "en_US""#), "the rest of the section kept")

        // A bad value: refused with the setting named; the file byte for byte.
        try terminal.send(String(number))
        try terminal.waitFor("the prompt again") { Self.promptLine($0) == "New value of amount:" }
        try terminal.send("abc")
        try terminal.press("Enter")
        let refused = try terminal.waitFor("the refusal") { $0.contains("Not saved") }
        #expect(refused.contains("amount") && refused.contains("Checkout"), "\(refused)")
        #expect(refused.contains("amount: [300.00]"), "\(refused)")
        #expect(try TestSupport.readBytes(path) == saved, "a refused value leaves the file as it was")

        // Back on the dashboard, the card was started again with the new amount.
        try terminal.send("b")
        let card = try terminal.waitFor("Checkout's card for $300.00") { $0.contains("Order total: $300.00") && $0.contains("$75.00") }
        #expect(card.contains("▶ 1 Checkout"), "\(card)")
    }

    @Test("after a saved edit of Crypto's settings, the focus is still on Crypto's card, and Enter opens Crypto")
    func focusKeptAfterSave() throws {
        let world = try DashboardWorld()
        let (terminal, _) = try Self.dashboard(world)
        defer { terminal.kill() }
        try terminal.waitFor("the cards") { $0.contains("▶ 1 Checkout") && $0.contains("BTC $43,210.55") }
        try terminal.send("2")
        try terminal.waitFor("▶ 2 Crypto")
        try terminal.send("e")
        let settings = try terminal.waitFor("Crypto's settings") { $0.contains("Crypto · settings") && $0.contains("b back") }
        let number = try #require(settings.firstMatch(of: /\[(\d)\] refreshSeconds/)?.1, "\(settings)")
        try terminal.send(String(number))
        try terminal.waitFor("the prompt") { Self.promptLine($0) == "New value of refreshSeconds:" }
        try terminal.send("60")
        try terminal.press("Enter")
        try terminal.waitFor("the saved value") { $0.contains("refreshSeconds: [60]") }
        try terminal.send("b")
        let back = try terminal.waitFor("the cards again") { $0.contains("configuration reloaded") && $0.contains("BTC $") }
        #expect(back.contains("▶ 2 Crypto") && !back.contains("▶ 1 Checkout"), "\(back)")
        try terminal.press("Enter")
        try terminal.waitFor("Crypto full screen") { $0.contains("Bitcoin") && $0.contains("b back") && !$0.contains("PAYMENT SCHEDULE") }
    }
}

/// The settings screen's model, without a terminal: what it lists, and an
/// edit checked and written as `config set` does.
@Suite("Settings screen")
struct SettingsScreenTests {
    static func checkout(_ text: String) throws -> SettingsScreen {
        let candidate = Discovery(availableServices: HostRuntime(storeDirectory: "/nonexistent").serviceIDs).inspect(path: CheckoutHarness.pluginPath)
        let manifest = try #require(candidate.manifest, "\(candidate.status)")
        let path = try TestSupport.makeTemporaryDirectory("settings-screen") + "/config.json"
        try TestSupport.write(Array(text.utf8), to: path)
        return SettingsScreen(manifest: manifest, manifests: [manifest], path: path)
    }

    @Test("every declared setting is a field holding the file's value, its default as the placeholder, its help below")
    func listing() throws {
        let screen = try Self.checkout(DashboardSettingsTests.configuration)
        let fields = ViewTree.nodes(screen.view().json).filter { $0["kind"] == "field" }
        #expect(fields.map { $0["action"]?.string ?? "" } == ["minimumAmount", "maximumAmount", "currencyCode", "locale", "amount", "token", "logo", "heading",
                                                                  "logoURL"])
        #expect(fields[4]["value"] == "250.00" && fields[5]["value"] == "", "\(fields)")
        #expect(fields[6]["placeholder"] == "default true", "\(fields[6])")
        #expect(screen.view().actions.count == 9)
    }

    @Test("a good value is written and the rest kept; a bad one or an undeclared key is refused, naming it, the file byte for byte", arguments: [
        ("amount", "abc", "the setting amount of Checkout (org.widgethost.checkout) must be"),
        ("locale", "xx_YY", "the setting locale of Checkout"),
        ("amout", "5", "has no setting 'amout' (did you mean 'amount'?)"),
    ])
    func edits(_ key: String, _ bad: String, _ refusal: String) throws {
        let screen = try Self.checkout(DashboardSettingsTests.configuration)
        #expect(try screen.set("amount", text: "300.00") == "amount is now 300.00")
        let saved = try TestSupport.readBytes(screen.path)
        let file = try ConfigFile.open(screen.path)
        #expect(file.root["plugins"]?["checkout"]?["amount"] == "300.00" && file.root["plugins"]?["checkout"]?["locale"] == "en_US")
        #expect(throws: UsageError.self) { try screen.set(key, text: bad) }
        do { _ = try screen.set(key, text: bad) } catch { #expect("\(error)".contains(refusal), "\(error)") }
        #expect(try TestSupport.readBytes(screen.path) == saved)
    }

    @Test("a malformed file is shown as such and refuses edits, left as it is")
    func malformed() throws {
        let screen = try Self.checkout("{\"plugins\": ")
        #expect(ViewTree.nodes(screen.view().json).contains { $0["text"]?.string?.contains("fix the file") == true })
        #expect(throws: ConfigError.self) { try screen.set("amount", text: "300.00") }
        #expect(try TestSupport.readBytes(screen.path) == Array("{\"plugins\": ".utf8))
    }
}
