import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The Checkout widget through the real `widget-host`: configuration from
/// --set and --config, orders put with `store put`, `--format json`, and the
/// bus events a script watches with `--trace-events`.
@Suite("Checkout widget through widget-host")
struct CheckoutLaunchTests {
    static let configuration = ["--set", "checkout.minimumAmount=50.00", "--set", "checkout.maximumAmount=2000.00",
                                "--set", "checkout.currencyCode=USD", "--set", "checkout.locale=en_US"]
    static let now = ["--now", "2026-05-01T09:30:00Z"]

    /// The checkout.* events a run traced on stderr, in order.
    static func events(_ run: TestSupport.HostRun) throws -> [(topic: String, payload: JSONValue)] {
        try run.stderr.split(separator: "\n").filter { $0.hasPrefix("event ") }.compactMap { line in
            let event = try JSONParser.parse(String(line.dropFirst("event ".count)))
            guard let topic = event["topic"]?.string, topic.hasPrefix("checkout.") else { return nil }
            return (topic, event["payload"] ?? .null)
        }
    }

    /// The screen of a `--format json` run.
    static func screen(_ run: TestSupport.HostRun) throws -> CheckoutScreen {
        let output = try JSONParser.parse(run.stdout)
        #expect(output["plugin"] == "org.widgethost.checkout")
        let screen = CheckoutScreen(root: try #require(output["view"], "\(run)"), error: output["error"]?.string)
        // A declared error state is the problem whose code the screen carries;
        // a screen without a problem declares none.
        if let error = screen.error {
            #expect(screen.codes.contains { error.hasPrefix($0 + ": ") }, "\(run)")
        } else {
            #expect(output["error"] == .null, "\(run)")
        }
        if screen.codes.isEmpty { #expect(screen.error == nil, "\(run)") }
        return screen
    }

    static func money(_ amount: String) -> JSONValue { ["amount": .string(amount), "currency": "USD"] }

    @Test("a scripted run publishes ready, changed, an invalid change with its error, and valid again")
    func scriptedEventSequence() throws {
        let run = try TestSupport.runHost(["launch", "checkout", "--trace-events", "--format", "json", "--set", "checkout.amount=200.00",
                                           "--actions", "update=250.00,update=abc,update=abc,update=300.00"] + Self.configuration + Self.now)
        #expect(run.status == 0, "\(run)")
        let message = "\"abc\" is not an amount: enter digits with at most 2 decimal places, such as 250.00"
        let expected: [(String, JSONValue)] = [
            ("checkout.ready", ["isValid": true, "amountDueToday": Self.money("50.00"), "paymentScheduleChecksum": nil]),
            ("checkout.changed", ["status": ["isValid": true, "amountDueToday": Self.money("62.50"), "paymentScheduleChecksum": nil],
                                  "sameStatus": false]),
            ("checkout.changed", ["status": ["isValid": false, "errorCode": "amountNotANumber", "message": .string(message)],
                                  "sameStatus": false]),
            ("checkout.error", ["errorCode": "amountNotANumber", "message": .string(message)]),
            ("checkout.changed", ["status": ["isValid": false, "errorCode": "amountNotANumber", "message": .string(message)],
                                  "sameStatus": true]),
            ("checkout.error", ["errorCode": "amountNotANumber", "message": .string(message)]),
            ("checkout.changed", ["status": ["isValid": true, "amountDueToday": Self.money("75.00"), "paymentScheduleChecksum": nil],
                                  "sameStatus": false]),
        ]
        let events = try Self.events(run)
        #expect(events.map(\.topic) == expected.map(\.0))
        for (event, (topic, payload)) in zip(events, expected) { #expect(event.payload == payload, "\(topic)") }
        #expect(try Self.screen(run).amounts == ["$75.00", "$75.00", "$75.00", "$75.00"])
    }

    @Test("launch --status and the JSON status field carry the status query's answer, in process and isolated",
          arguments: [false, true])
    func statusQuery(_ isolate: Bool) throws {
        let mode = isolate ? ["--isolate"] : []
        let valid = try TestSupport.runHost(["launch", "checkout", "--status", "--actions", "update=250.00"] + mode + Self.configuration + Self.now)
        #expect(valid.status == 0, "\(valid)")
        #expect(try JSONParser.parse(valid.stdout) == ["isValid": true, "amountDueToday": Self.money("62.50"), "paymentScheduleChecksum": nil])

        let invalid = try TestSupport.runHost(["launch", "checkout", "--status", "--set", "checkout.amount=abc"] + mode + Self.configuration + Self.now)
        #expect(invalid.status == 0, "\(invalid)")
        let status = try JSONParser.parse(invalid.stdout)
        #expect(status["isValid"] == false)
        #expect(status["errorCode"] == "amountNotANumber")

        let json = try TestSupport.runHost(["launch", "checkout", "--format", "json", "--actions", "update=300.00"] + mode + Self.configuration + Self.now)
        #expect(json.status == 0, "\(json)")
        #expect(try JSONParser.parse(json.stdout)["status"] == ["isValid": true, "amountDueToday": Self.money("75.00"), "paymentScheduleChecksum": nil])
        #expect(try Self.screen(json).error == nil)
        // The screen of an invalid amount declares the status's error as its own.
        let refused = try TestSupport.runHost(["launch", "checkout", "--format", "json", "--set", "checkout.amount=abc"] + mode + Self.configuration + Self.now)
        #expect(try Self.screen(refused).error?.hasPrefix("amountNotANumber: ") == true, "\(refused)")

        // A widget that answers no status: --status fails and says so; JSON carries null.
        let none = try TestSupport.runHost(["launch", "trips", "--status", "--now", "2026-06-12T09:00:00Z"] + mode)
        #expect(none.status == 1, "\(none)")
        #expect(none.stdout.isEmpty)
        #expect(none.stderr.contains("widget trips answers no status query"), "\(none)")
        let tripsJSON = try TestSupport.runHost(["launch", "trips", "--format", "json", "--now", "2026-06-12T09:00:00Z"] + mode)
        #expect(try JSONParser.parse(tripsJSON.stdout)["status"] == .null, "\(tripsJSON)")
    }

    @Test("a widget started invalid sends ready with the error code and message, then error")
    func startInvalidEventSequence() throws {
        let run = try TestSupport.runHost(["launch", "checkout", "--trace-events", "--format", "json", "--set", "checkout.token=Tok-404"]
            + Self.configuration + Self.now)
        #expect(run.status == 0, "\(run)")
        let events = try Self.events(run)
        #expect(events.map(\.topic) == ["checkout.ready", "checkout.error"])
        let message = try #require(events.first?.payload["message"]?.string)
        #expect(message.contains("Tok-404"))
        #expect(events.first?.payload == ["isValid": false, "amountDueToday": nil, "paymentScheduleChecksum": nil,
                                          "errorCode": "unknownToken", "message": .string(message)])
        #expect(events.last?.payload == ["errorCode": "unknownToken", "message": .string(message)])
    }

    @Test("token mode: the app stores the order with `store put`, the widget finds it and reports its checksum")
    func tokenModeEndToEnd() throws {
        let data = try TestSupport.makeTemporaryDirectory("checkout-data")
        let file = data + "/order.json"
        try TestSupport.write(Array(#"{"status":"completed","amount":"100.02","currency":"USD","merchantReference":"A-17"}"#.utf8), to: file)
        let environment = ["XDG_DATA_HOME": data]
        let put = try TestSupport.runHost(["store", "put", "checkout.orders.Tok-42", "--file", file], environment: environment)
        #expect(put.status == 0, "\(put)")

        let run = try TestSupport.runHost(["launch", "checkout", "--trace-events", "--format", "json", "--set", "checkout.token=Tok-42",
                                           "--actions", "update=100.03"] + Self.configuration + Self.now, environment: environment)
        #expect(run.status == 0, "\(run)")
        let screen = try Self.screen(run)
        #expect(screen.amounts == ["$25.01", "$25.01", "$25.01", "$25.00"])
        #expect(screen.allText.contains("Order reference: A-17"))
        let events = try Self.events(run)
        #expect(events.map(\.topic) == ["checkout.ready", "checkout.changed"])
        let ready = try #require(events.first?.payload["paymentScheduleChecksum"]?.string)
        let changed = try #require(events.last?.payload["status"]?["paymentScheduleChecksum"]?.string)
        #expect(events.first?.payload["amountDueToday"] == Self.money("25.01"))
        #expect(ready != changed, "a new total is a new schedule")
        #expect(screen.checksum == changed)

        let unknown = try TestSupport.runHost(["launch", "checkout", "--format", "json", "--set", "checkout.token=Tok-43"]
            + Self.configuration, environment: environment)
        #expect(try Self.screen(unknown).codes == ["unknownToken"])
    }

    @Test("configuration errors reach --format json with their codes, and the failure event names the first")
    func configurationErrorsInJSON() throws {
        let directory = try TestSupport.makeTemporaryDirectory("checkout-config")
        let config = directory + "/config.json"
        let section = #"{"plugins": {"checkout": {"minimumAmount": "2000", "maximumAmount": "50", "currencyCode": "JPY", "locale": "ja_JP"}}}"#
        try TestSupport.write(Array(section.utf8), to: config)
        let run = try TestSupport.runHost(["launch", "checkout", "--format", "json", "--trace-events", "--config", config])
        #expect(run.status == 0, "\(run)")
        let screen = try Self.screen(run)
        #expect(screen.codes == ["invalidOrdering", "invalidCurrencyCode", "invalidLocale"])
        #expect(screen.error?.hasPrefix("invalidOrdering: ") == true, "\(run)")
        let events = try Self.events(run)
        #expect(events.map(\.topic) == ["checkout.failure"])
        #expect(events.first?.payload["error"]?["errorCode"] == "invalidOrdering")

        let empty = try TestSupport.runHost(["launch", "checkout", "--format", "json", "--actions", "update=100.00"])
        #expect(empty.status == 1, "an update the widget cannot take fails the run")
        #expect(empty.stderr.contains("action 'update' failed: invalid value"), "\(empty)")
        #expect(try Self.screen(empty).codes == ["noConfiguration"])
    }

    @Test("amounts given with --set are read strictly from their literal text", arguments: [
        ("checkout.amount=abc", "amountNotANumber"), ("checkout.amount=12.345", "amountTooPrecise"),
        ("checkout.amount=1e3", "amountHasExponent"), ("checkout.amount=-5", "amountNegative"),
        ("checkout.amount=0", "amountZero"), ("checkout.amount=NaN", "amountNotANumber"),
        ("checkout.amount=", "amountMissing"), ("checkout.amount=2000.01", "amountAboveMaximum"),
        ("checkout.amount=\"50 USD\"", "amountNotANumber"), ("checkout.amount=\" 50.00\"", "amountHasSpaces"),
    ])
    func strictSetAmount(_ assignment: String, _ code: String) throws {
        let run = try TestSupport.runHost(["launch", "checkout", "--format", "json", "--set", assignment] + Self.configuration)
        #expect(run.status == 0, "\(run)")
        let screen = try Self.screen(run)
        #expect(screen.codes == [code])
        #expect(screen.error?.hasPrefix(code + ": ") == true, "the screen declares its error state: \(run)")
    }

    @Test("the plugin passes widget-host validate")
    func validates() throws {
        let run = try TestSupport.runHost(["validate", CheckoutHarness.pluginPath])
        #expect(run.status == 0, "\(run)")
        #expect(!run.stdout.contains("FAIL"))
    }
}
