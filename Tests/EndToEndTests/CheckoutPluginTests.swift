import Foundation
import Testing
import PluginABI
@testable import WidgetHostKit
@testable import TestSupport

/// The Checkout widget, loaded in-process (CheckoutHarness): configuration,
/// amount input, the rounding rule, money and date formatting, token mode and
/// the events each step publishes.
@Suite("Checkout widget")
struct CheckoutPluginTests {
    // MARK: Configuration

    @Test("no configuration is a clear noConfiguration state and a failure event, not a crash")
    func noConfiguration() throws {
        for section: JSONValue in [[:], ["amount": "100.00"], ["logo": false, "minimumAmount": nil]] {
            let harness = try CheckoutHarness(section: section)
            let screen = try harness.screen()
            #expect(screen.codes == ["noConfiguration"], "\(section)")
            #expect(screen.fields.isEmpty)
            #expect(screen.negativeText.first?.contains("minimumAmount, maximumAmount, currencyCode and locale") == true)
            let events = try harness.events
            #expect(events.map(\.topic) == ["checkout.failure"])
            #expect(events.first?.payload["error"]?["errorCode"] == "noConfiguration")
            #expect(throws: PluginInstance.CallError.status(3)) { try harness.update("100.00") }
            #expect(harness.topics == ["checkout.failure"], "a refused update publishes nothing")
        }
    }

    static let configurationErrors: [(changes: [(String, JSONValue?)], code: String, message: String)] = [
        ([("minimumAmount", nil)], "invalidMinimum", "minimumAmount is missing"),
        ([("minimumAmount", "abc")], "invalidMinimum", "minimumAmount \"abc\" is not a valid amount"),
        ([("minimumAmount", .number("-5"))], "invalidMinimum", "it is negative"),
        ([("minimumAmount", "0")], "invalidMinimum", "more than zero"),
        ([("minimumAmount", "12.345")], "invalidMinimum", "at most 2 decimal places"),
        ([("minimumAmount", .number("1e3"))], "invalidMinimum", "exponents"),
        ([("minimumAmount", " 50")], "invalidMinimum", "spaces around it"),
        ([("minimumAmount", true)], "invalidMinimum", "must be an amount such as \"50.00\", not true"),
        ([("maximumAmount", nil)], "invalidMaximum", "maximumAmount is missing"),
        ([("maximumAmount", "lots")], "invalidMaximum", "maximumAmount \"lots\" is not a valid amount"),
        ([("maximumAmount", "10000000000000.00")], "invalidMaximum", "largest amount accepted, 9999999999999.99"),
        ([("maximumAmount", ["2000"])], "invalidMaximum", "not [\"2000\"]"),
        ([("maximumAmount", "50.00")], "invalidOrdering", "minimumAmount (50.00) must be less than maximumAmount (50.00)"),
        ([("minimumAmount", "2000.01")], "invalidOrdering", "minimumAmount (2000.01) must be less than maximumAmount (2000.00)"),
        ([("currencyCode", nil)], "invalidCurrencyCode", "currencyCode is missing: use one of AUD, CAD, GBP, NZD, USD"),
        ([("currencyCode", "EUR")], "invalidCurrencyCode", "currencyCode \"EUR\" is not supported"),
        ([("currencyCode", "usd")], "invalidCurrencyCode", "\"usd\" is not supported"),
        ([("currencyCode", 840)], "invalidCurrencyCode", "currencyCode 840 is not supported"),
        ([("locale", nil)], "invalidLocale", "locale is missing: use one of en_AU, en_CA, fr_CA, en_GB, en_NZ, en_US"),
        ([("locale", "en-US")], "invalidLocale", "locale \"en-US\" is not supported"),
        ([("locale", "de_DE")], "invalidLocale", "\"de_DE\" is not supported"),
        ([("locale", "")], "invalidLocale", "locale \"\" is not supported"),
        ([("logo", "yes")], "invalidStyle", "logo must be true or false, not \"yes\""),
        ([("heading", 1)], "invalidStyle", "heading must be true or false, not 1"),
        ([("token", "T1"), ("amount", "100.00")], "tokenWithAmount", "not both"),
    ]

    @Test("each configuration error has its own code and message", arguments: configurationErrors.indices)
    func configurationError(_ index: Int) throws {
        let (changes, code, message) = Self.configurationErrors[index]
        let harness = try CheckoutHarness(changes)
        let screen = try harness.screen()
        #expect(screen.codes == [code])
        #expect(screen.negativeText.contains { $0.contains(message) }, "\(screen.negativeText)")
        #expect(screen.allText.contains("Checkout is not configured"))
        let events = try harness.events
        #expect(events.map(\.topic) == ["checkout.failure"])
        #expect(events.first?.payload["error"]?["errorCode"] == .string(code))
        #expect(throws: PluginInstance.CallError.status(3)) { try harness.update("100.00") }
    }

    @Test("every configuration problem is listed, in the original SDK's order")
    func everyConfigurationProblem() throws {
        let harness = try CheckoutHarness([("locale", "xx"), ("currencyCode", "EUR"), ("maximumAmount", "-1"),
                                           ("minimumAmount", "abc"), ("heading", "no")])
        #expect(try harness.screen().codes == ["invalidMinimum", "invalidMaximum", "invalidCurrencyCode", "invalidLocale", "invalidStyle"])
        #expect(try harness.events.first?.payload["error"]?["errorCode"] == "invalidMinimum")
    }

    @Test("limits may be JSON numbers or strings, and unknown keys are only a warning")
    func limitsAsNumbers() throws {
        let harness = try CheckoutHarness([("minimumAmount", .number("50")), ("maximumAmount", .number("2000.00")),
                                           ("amount", .number("100.02")), ("currency", "USD")])
        let screen = try harness.screen()
        #expect(screen.amounts == ["$25.01", "$25.01", "$25.01", "$24.99"])
        #expect(harness.logs.recorded.contains { $0.contains("unknown configuration key \"currency\"") })
    }

    // MARK: Amount input

    static let badAmounts: [(input: String, code: String)] = [
        ("", "amountMissing"),
        ("abc", "amountNotANumber"), ("NaN", "amountNotANumber"), ("Infinity", "amountNotANumber"),
        ("50 USD", "amountNotANumber"), ("$50", "amountNotANumber"), ("+5", "amountNotANumber"),
        ("1,000.00", "amountNotANumber"), ("05", "amountNotANumber"), (".5", "amountNotANumber"),
        ("5.", "amountNotANumber"), ("0x10", "amountNotANumber"), ("١٢٣", "amountNotANumber"), ("1.2.3", "amountNotANumber"),
        ("-", "amountNotANumber"), ("1e", "amountNotANumber"),
        ("1e3", "amountHasExponent"), ("1E3", "amountHasExponent"), ("2.5e-2", "amountHasExponent"),
        ("-5", "amountNegative"), ("-0", "amountNegative"), ("-100.00", "amountNegative"),
        ("0", "amountZero"), ("0.0", "amountZero"), ("0.00", "amountZero"),
        ("12.345", "amountTooPrecise"), ("100.000", "amountTooPrecise"),
        (" 100.00", "amountHasSpaces"), ("100.00 ", "amountHasSpaces"), ("\t100", "amountHasSpaces"),
        ("100\n", "amountHasSpaces"), ("\u{00A0}100", "amountHasSpaces"), (" ", "amountHasSpaces"),
        ("10000000000000.00", "amountTooLarge"), ("99999999999999999999999999", "amountTooLarge"),
        ("49.99", "amountBelowMinimum"), ("0.01", "amountBelowMinimum"),
        ("2000.01", "amountAboveMaximum"), ("9999999999999.99", "amountAboveMaximum"),
    ]

    @Test("a bad amount is an invalid status with its own code, shown back as typed", arguments: badAmounts)
    func badAmount(_ input: String, _ code: String) throws {
        let harness = try CheckoutHarness([("amount", "100.00")])
        #expect(try harness.screen().isValid)
        try harness.update(input)
        let screen = try harness.screen()
        #expect(screen.codes == [code])
        #expect(screen.rows.isEmpty, "no schedule for an invalid amount")
        #expect(screen.negativeText.count == 1)
        #expect(screen.fields.map(\.action) == ["update"], "the field stays, to correct the amount")
        if !input.contains(where: { $0.isNewline || $0 == "\t" }) { #expect(screen.fields.first?.value == input) }
        let events = try harness.events
        #expect(events.map(\.topic) == ["checkout.ready", "checkout.changed", "checkout.error"])
        #expect(events[1].payload["status"]?["errorCode"] == .string(code))
        #expect(events[1].payload["status"]?["isValid"] == false)
        #expect(events[2].payload["errorCode"] == .string(code))
        #expect(events[2].payload["message"] == events[1].payload["status"]?["message"])
    }

    @Test("out-of-range amounts read like the original, with the limits formatted for the locale")
    func rangeMessages() throws {
        let cases: [([(String, JSONValue?)], String)] = [
            ([], "Pay in 4 is available for orders between $50 – $2,000"),
            ([("minimumAmount", "49.99"), ("maximumAmount", "1500.50")], "Pay in 4 is available for orders between $49.99 – $1,500.50"),
            ([("currencyCode", "GBP"), ("locale", "en_GB")], "Pay in 4 is available for orders between £50 – £2,000"),
            ([("currencyCode", "CAD"), ("locale", "fr_CA")],
             "Le paiement en 4 versements est offert pour les commandes entre 50\u{00A0}$ et 2\u{00A0}000\u{00A0}$"),
        ]
        for (changes, message) in cases {
            for amount in ["10.00", "5000.00"] {
                let harness = try CheckoutHarness(changes + [("amount", .string(amount))])
                #expect(try harness.screen().negativeText == [message])
            }
        }
    }

    @Test("the configured amount may be a JSON number, kept to its literal text")
    func configuredAmountKinds() throws {
        let cases: [(JSONValue, String)] = [(.number("1e3"), "amountHasExponent"), (.number("-5"), "amountNegative"),
                                            (.number("12.345"), "amountTooPrecise"), (true, "amountNotANumber"),
                                            (["250"], "amountNotANumber"), (.number("0"), "amountZero")]
        for (value, code) in cases {
            let harness = try CheckoutHarness([("amount", value)])
            #expect(try harness.screen().codes == [code], "\(value)")
            let events = try harness.events
            #expect(events.map(\.topic) == ["checkout.ready", "checkout.error"])
            #expect(events.first?.payload["isValid"] == false)
            #expect(events.first?.payload["errorCode"] == .string(code))
            #expect(events.last?.payload["errorCode"] == .string(code))
            #expect(events.last?.payload["message"] == events.first?.payload["message"])
        }
        let number = try CheckoutHarness([("amount", .number("250.00"))])
        #expect(try number.screen().amounts == ["$62.50", "$62.50", "$62.50", "$62.50"])
    }

    @Test("with no amount yet, tokenless mode waits for one")
    func noAmountYet() throws {
        let harness = try CheckoutHarness()
        let screen = try harness.screen()
        #expect(screen.codes == ["amountMissing"])
        #expect(screen.fields.first?.value == "")
        try harness.update("200")
        #expect(try harness.screen().amounts == ["$50.00", "$50.00", "$50.00", "$50.00"])
    }

    @Test("update without a value, another action and another screen are refused")
    func refusedCalls() throws {
        let harness = try CheckoutHarness([("amount", "100.00")])
        #expect(throws: PluginInstance.CallError.status(3)) { try harness.update(nil) }
        #expect(throws: PluginInstance.CallError.status(2)) { try harness.instance.handle(action: "pay", value: "1") }
        #expect(throws: PluginInstance.CallError.status(1)) { _ = try harness.instance.render(screen: "summary") }
        #expect(try harness.screen().isValid)
        #expect(harness.topics == ["checkout.ready"])
    }

    // MARK: The rounding rule

    /// The widget's schedule for `total`, with limits wide enough for any amount.
    static func schedule(_ total: String, currency: String = "USD") throws -> CheckoutScreen {
        let harness = try CheckoutHarness([("minimumAmount", "0.01"), ("maximumAmount", "9999999999999.99"),
                                           ("currencyCode", .string(currency)), ("amount", .string(total))])
        return try harness.screen()
    }

    @Test("rounding edges: three instalments of total/4 rounded half-up, the last the remainder", arguments: [
        ("0.04", ["$0.01", "$0.01", "$0.01", "$0.01"]),
        ("0.05", ["$0.01", "$0.01", "$0.01", "$0.02"]),
        ("0.07", ["$0.02", "$0.02", "$0.02", "$0.01"]),
        ("100.00", ["$25.00", "$25.00", "$25.00", "$25.00"]),
        ("100.01", ["$25.00", "$25.00", "$25.00", "$25.01"]),
        ("100.02", ["$25.01", "$25.01", "$25.01", "$24.99"]),
        ("100.03", ["$25.01", "$25.01", "$25.01", "$25.00"]),
        ("9999999999999.99", ["$2,500,000,000,000.00", "$2,500,000,000,000.00", "$2,500,000,000,000.00", "$2,499,999,999,999.99"]),
    ])
    func roundingEdge(_ total: String, _ expected: [String]) throws {
        let screen = try Self.schedule(total)
        #expect(screen.amounts == expected)
        #expect(screen.allText.contains("Due today: \(expected[0])"))
    }

    @Test("totals that cannot make four payments of at least a cent say so", arguments: ["0.01", "0.02", "0.03", "0.06"])
    func cannotSplit(_ total: String) throws {
        let screen = try Self.schedule(total)
        #expect(screen.codes == ["amountCannotSplit"])
        #expect(screen.negativeText == ["An order of $\(total) cannot be split into 4 payments of at least $0.01"])
    }

    @Test("the configured minimum and maximum are both allowed, one cent outside is not")
    func limitsAreInclusive() throws {
        let harness = try CheckoutHarness([("amount", "50.00")])
        #expect(try harness.screen().amounts == ["$12.50", "$12.50", "$12.50", "$12.50"])
        try harness.update("2000.00")
        #expect(try harness.screen().amounts == ["$500.00", "$500.00", "$500.00", "$500.00"])
        try harness.update("2000.01")
        #expect(try harness.screen().codes == ["amountAboveMaximum"])
        try harness.update("49.99")
        #expect(try harness.screen().codes == ["amountBelowMinimum"])

        let widest = try CheckoutHarness([("minimumAmount", "0.04"), ("maximumAmount", "9999999999999.99"), ("amount", "0.04")])
        #expect(try widest.screen().amounts == ["$0.01", "$0.01", "$0.01", "$0.01"])
        try widest.update("9999999999999.99")
        #expect(try widest.screen().amounts.last == "$2,499,999,999,999.99")
        try widest.update("10000000000000.00")
        #expect(try widest.screen().codes == ["amountTooLarge"])
    }

    @Test("over many totals the rule matches Foundation's Decimal rounding and the instalments add up")
    func roundingAgainstDecimal() throws {
        let harness = try CheckoutHarness([("minimumAmount", "0.04"), ("maximumAmount", "9999999999999.99")])
        var seed: UInt64 = 0x5EED
        var totals = (7...40).map { Int64($0) }   // every remainder mod 4, at the small end
        for _ in 0..<150 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            totals.append(Int64(seed >> 33) % 100_000_000 + 7)
        }
        for cents in totals where cents != 6 {
            let text = "\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)"
            try harness.update(text)
            let amounts = try harness.screen().amounts.map { try #require(Decimal(string: $0.replacingOccurrences(of: "$", with: "")
                .replacingOccurrences(of: ",", with: ""))) }
            try #require(amounts.count == 4, "\(text)")
            var quarter = try #require(Decimal(string: text)) / 4
            var rounded = Decimal()
            NSDecimalRound(&rounded, &quarter, 2, .plain)
            #expect(amounts[0] == rounded && amounts[1] == rounded && amounts[2] == rounded, "\(text)")
            #expect(amounts.reduce(0, +) == Decimal(string: text), "\(text)")
        }
    }

    // MARK: Dates

    @Test("instalments are due today and every 14 days, on UTC days, written for the locale")
    func dates() throws {
        let cases: [(now: String, locale: String, currency: String, dates: [String])] = [
            ("2026-05-01T09:30:00Z", "en_US", "USD", ["May 1, 2026", "May 15, 2026", "May 29, 2026", "June 12, 2026"]),
            ("2026-05-01T09:30:00Z", "en_CA", "CAD", ["May 1, 2026", "May 15, 2026", "May 29, 2026", "June 12, 2026"]),
            ("2026-05-01T09:30:00Z", "en_GB", "GBP", ["1 May 2026", "15 May 2026", "29 May 2026", "12 June 2026"]),
            ("2026-05-01T09:30:00Z", "en_AU", "AUD", ["1 May 2026", "15 May 2026", "29 May 2026", "12 June 2026"]),
            ("2026-05-01T09:30:00Z", "en_NZ", "NZD", ["1 May 2026", "15 May 2026", "29 May 2026", "12 June 2026"]),
            ("2026-05-01T09:30:00Z", "fr_CA", "CAD", ["1 mai 2026", "15 mai 2026", "29 mai 2026", "12 juin 2026"]),
            // Across a year end and a leap day.
            ("2026-12-20T12:00:00Z", "en_US", "USD", ["December 20, 2026", "January 3, 2027", "January 17, 2027", "January 31, 2027"]),
            ("2028-02-15T12:00:00Z", "fr_CA", "CAD", ["15 février 2028", "29 février 2028", "14 mars 2028", "28 mars 2028"]),
            // 23:30 in Chicago is already the next day in UTC, whatever the machine's zone.
            ("2026-05-01T23:30:00-05:00", "en_US", "USD", ["May 2, 2026", "May 16, 2026", "May 30, 2026", "June 13, 2026"]),
            ("1969-12-31T18:00:00Z", "en_US", "USD", ["December 31, 1969", "January 14, 1970", "January 28, 1970", "February 11, 1970"]),
        ]
        for (now, locale, currency, dates) in cases {
            let harness = try CheckoutHarness([("locale", .string(locale)), ("currencyCode", .string(currency)), ("amount", "200.00")], now: now)
            let screen = try harness.screen()
            #expect(screen.dates == dates, "\(now) \(locale)")
            #expect(screen.rows.map(\.badge) == [locale == "fr_CA" ? "aujourd'hui" : "today", nil, nil, nil])
        }
    }

    // MARK: Money and text

    @Test("money is formatted for the configured locale", arguments: [
        ("en_US", "USD", "$1,234.50", "or 4 interest-free payments of $308.63"),
        ("en_CA", "CAD", "$1,234.50", "or 4 interest-free payments of $308.63"),
        ("en_AU", "AUD", "$1,234.50", "or 4 interest-free payments of $308.63"),
        ("en_NZ", "NZD", "$1,234.50", "or 4 interest-free payments of $308.63"),
        ("en_GB", "GBP", "£1,234.50", "or 4 payments of £308.63"),
        ("fr_CA", "CAD", "1\u{00A0}234,50\u{00A0}$", "ou 4 versements sans intérêts de 308,63\u{00A0}$"),
        ("en_US", "AUD", "A$1,234.50", "or 4 interest-free payments of A$308.63"),
        ("en_US", "GBP", "£1,234.50", "or 4 payments of £308.63"),
        ("en_AU", "USD", "US$1,234.50", "or 4 interest-free payments of US$308.63"),
        ("en_GB", "NZD", "NZ$1,234.50", "or 4 interest-free payments of NZ$308.63"),
        ("en_NZ", "CAD", "CA$1,234.50", "or 4 interest-free payments of CA$308.63"),
        ("fr_CA", "USD", "1\u{00A0}234,50\u{00A0}$\u{00A0}US", "ou 4 versements sans intérêts de 308,63\u{00A0}$\u{00A0}US"),
        ("fr_CA", "GBP", "1\u{00A0}234,50\u{00A0}£", "ou 4 versements de 308,63\u{00A0}£"),
    ])
    func money(_ locale: String, _ currency: String, _ total: String, _ breakdown: String) throws {
        let harness = try CheckoutHarness([("locale", .string(locale)), ("currencyCode", .string(currency)), ("amount", "1234.50")])
        let screen = try harness.screen()
        #expect(screen.headline == breakdown)
        let totalLine = locale == "fr_CA" ? "Total de la commande\u{00A0}: \(total)" : "Order total: \(total)"
        #expect(screen.allText.contains(totalLine), "\(screen.allText)")
    }

    @Test("grouping and cents at the edges of the formats")
    func moneyEdges() throws {
        let cases: [(String, String, String)] = [
            ("en_US", "3999.96", "$999.99"), ("en_US", "999.99", "$250.00"), ("en_US", "4000.00", "$1,000.00"), ("en_US", "4000000.04", "$1,000,000.01"),
            ("fr_CA", "4000000.04", "1\u{00A0}000\u{00A0}000,01\u{00A0}$"), ("fr_CA", "0.40", "0,10\u{00A0}$"),
            ("en_GB", "123456789.00", "£30,864,197.25"),
        ]
        for (locale, total, first) in cases {
            let currency = locale == "fr_CA" ? "CAD" : locale == "en_GB" ? "GBP" : "USD"
            let harness = try CheckoutHarness([("minimumAmount", "0.04"), ("maximumAmount", "9999999999999.99"),
                                               ("locale", .string(locale)), ("currencyCode", .string(currency)), ("amount", .string(total))])
            let amounts = try harness.screen().amounts
            #expect(amounts.first == first, "\(locale) \(total): \(amounts)")
        }
    }

    @Test("logo and heading default to on, and config or screen params turn them off")
    func style() throws {
        let defaults = try CheckoutHarness([("amount", "200.00")])
        var screen = try defaults.screen()
        #expect(screen.images == ["Pay in 4"])
        #expect(screen.headline == "or 4 interest-free payments of $50.00")
        screen = try defaults.screen(params: ["logo": "false", "heading": "false"])
        #expect(screen.images.isEmpty && screen.headline == nil && screen.isValid)

        let configured = try CheckoutHarness([("amount", "200.00"), ("logo", false), ("heading", false)])
        screen = try configured.screen()
        #expect(screen.images.isEmpty && screen.headline == nil && screen.isValid)
        screen = try configured.screen(params: ["logo": "true"])
        #expect(screen.images == ["Pay in 4"] && screen.headline == nil)

        screen = try defaults.screen(params: ["heading": "sometimes"])
        #expect(screen.codes == ["invalidStyle"], "a bad param is shown, not guessed at")
        #expect(screen.rows.count == 4, "the schedule itself is still there")
    }

    @Test("the logo is Afterpay's picture by default; logoURL in the configuration names another")
    func logoPicture() throws {
        let afterpay = "https://static.afterpay.com/integration/product-page/logo-afterpay-colour.png"
        #expect(try CheckoutHarness([("amount", "200.00")]).screen().imageURLs == [afterpay])
        let local = "http://127.0.0.1:8000/logo.png"
        #expect(try CheckoutHarness([("amount", "200.00"), ("logoURL", .string(local))]).screen().imageURLs == [local])
    }

    // MARK: Token mode

    static let order = #"{"status": "completed", "amount": "200.00", "currency": "USD", "merchantReference": "order-1001"}"#

    @Test("a token names a completed checkout in the shared container; its schedule has a checksum")
    func tokenMode() throws {
        let harness = try CheckoutHarness([("token", "TOK_1-a")], orders: [("checkout.orders.TOK_1-a", Self.order)])
        let screen = try harness.screen()
        #expect(screen.amounts == ["$50.00", "$50.00", "$50.00", "$50.00"])
        #expect(screen.allText.contains("Order reference: order-1001"))
        #expect(screen.fields.first?.value == "200.00")
        let checksum = try #require(screen.checksum)
        #expect(checksum.count == 64 && checksum.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        let ready = try #require(try harness.events.first)
        #expect(ready.topic == "checkout.ready")
        #expect(ready.payload == ["isValid": true, "amountDueToday": ["amount": "50.00", "currency": "USD"],
                                  "paymentScheduleChecksum": .string(checksum)])
    }

    @Test("a numeric token, as --set reads one, is looked up by its literal text")
    func numericToken() throws {
        let harness = try CheckoutHarness([("token", .number("12345"))], orders: [("checkout.orders.12345", Self.order)])
        #expect(try harness.screen().amounts == ["$50.00", "$50.00", "$50.00", "$50.00"])
    }

    @Test("the checksum is the SHA-256 of the schedule's canonical text (checked with sha256sum)")
    func checksumIsSHA256() throws {
        let harness = try CheckoutHarness([("token", "T")], orders: [("checkout.orders.T", #"{"status":"completed","amount":"100.02","currency":"USD"}"#)])
        let checksum = try #require(try harness.screen().checksum)
        let canonical = "checkout-schedule/1\ncurrency=USD\ntotal=100.02\n1=2026-05-01,25.01\n2=2026-05-15,25.01\n"
            + "3=2026-05-29,25.01\n4=2026-06-12,24.99\n"
        let file = try TestSupport.makeTemporaryDirectory("checksum") + "/schedule.txt"
        try TestSupport.write(Array(canonical.utf8), to: file)
        let run = try ChildProcess.run(["/usr/bin/sha256sum", file], timeout: 30)
        #expect(run.termination == .exited(0))
        #expect(String(decoding: run.standardOutput, as: UTF8.self).hasPrefix(checksum + " "))
    }

    @Test("the checksum is the same for the same schedule and changes with amount, date and currency")
    func checksumFollowsSchedule() throws {
        func checksum(_ amount: String, currency: String = "USD", now: String = CheckoutHarness.defaultNow) throws -> String {
            let order = #"{"status":"completed","amount":"\#(amount)","currency":"\#(currency)"}"#
            let harness = try CheckoutHarness([("token", "T"), ("currencyCode", .string(currency))], now: now,
                                              orders: [("checkout.orders.T", order)])
            return try #require(try harness.screen().checksum)
        }
        let base = try checksum("200.00")
        #expect(try checksum("200.00") == base)
        #expect(try checksum("200.00", now: "2026-05-01T20:00:00Z") == base, "same day, same schedule")
        #expect(try checksum("200.01") != base)
        #expect(try checksum("200.00", now: "2026-05-02T09:30:00Z") != base)
        #expect(try checksum("200.00", currency: "CAD") != base)
    }

    @Test("updating in token mode recomputes the schedule and its checksum")
    func tokenUpdate() throws {
        let harness = try CheckoutHarness([("token", "T")], orders: [("checkout.orders.T", Self.order)])
        let first = try #require(try harness.screen().checksum)
        try harness.update("250.00")
        let second = try #require(try harness.screen().checksum)
        #expect(second != first)
        try harness.update("200.00")
        #expect(try harness.screen().checksum == first)
        let events = try harness.events
        #expect(events.map(\.topic) == ["checkout.ready", "checkout.changed", "checkout.changed"])
        #expect(events[1].payload["status"]?["paymentScheduleChecksum"] == .string(second))
        #expect(events[2].payload["status"]?["paymentScheduleChecksum"] == .string(first))
    }

    @Test("an order over the limit is an invalid status that an update can fix")
    func tokenOrderOutOfRange() throws {
        let order = #"{"status":"completed","amount":"2500.00","currency":"USD"}"#
        let harness = try CheckoutHarness([("token", "T")], orders: [("checkout.orders.T", order)])
        #expect(try harness.screen().codes == ["amountAboveMaximum"])
        try harness.update("1999.99")
        #expect(try harness.screen().amounts == ["$500.00", "$500.00", "$500.00", "$499.99"])
    }

    static let badTokens: [(token: JSONValue, orders: [(String, String)], code: String, message: String)] = [
        ("NOPE", [], "unknownToken", "No checkout is stored for token \"NOPE\""),
        ("a b", [], "malformedToken", "The checkout token \"a b\" is malformed"),
        ("a.b", [("checkout.orders.a.b", order)], "malformedToken", "malformed"),
        ("../x", [], "malformedToken", "malformed"),
        ("", [], "malformedToken", "malformed"),
        (.string(String(repeating: "t", count: 65)), [], "malformedToken", "malformed"),
        (.number("1.5"), [], "malformedToken", "The checkout token 1.5 is malformed"),
        (true, [], "malformedToken", "The checkout token true is malformed"),
        ("T", [("checkout.orders.T", "not json")], "invalidOrder", "not JSON"),
        ("T", [("checkout.orders.T", "[1]")], "invalidOrder", "must be a JSON object"),
        ("T", [("checkout.orders.T", #"{"amount":"1","currency":"USD"}"#)], "invalidOrder", "status is missing"),
        ("T", [("checkout.orders.T", #"{"status":"completed","currency":"USD"}"#)], "invalidOrder", "amount is missing"),
        ("T", [("checkout.orders.T", #"{"status":"completed","amount":"200.00"}"#)], "invalidOrder", "currency is missing"),
        ("T", [("checkout.orders.T", #"{"status":"completed","amount":"abc","currency":"USD"}"#)], "invalidOrder", "amount \"abc\" is not valid"),
        ("T", [("checkout.orders.T", #"{"status":"completed","amount":2e2,"currency":"USD"}"#)], "invalidOrder", "exponents"),
        ("T", [("checkout.orders.T", #"{"status":"completed","amount":"200.00","currency":"EUR"}"#)], "invalidOrder", "currency \"EUR\""),
        ("T", [("checkout.orders.T", #"{"status":"completed","amount":"200.00","currency":"USD","tip":"5"}"#)], "invalidOrder", "unknown key \"tip\""),
        ("T", [("checkout.orders.T", #"{"status":"completed","amount":"200.00","currency":"USD","token":"U"}"#)], "invalidOrder", "token \"U\" is not \"T\""),
        ("T", [("checkout.orders.T", #"{"status":"completed","amount":"200.00","currency":"USD","merchantReference":""}"#)],
                "invalidOrder", "merchantReference"),
        ("T", [("checkout.orders.T", #"{"status":true,"amount":"200.00","currency":"USD"}"#)], "invalidOrder", "status must be a string"),
        ("T", [("checkout.orders.T", #"{"status":"pending","amount":"200.00","currency":"USD"}"#)],
                "orderNotCompleted", "Checkout \"T\" is \"pending\", not completed"),
        ("T", [("checkout.orders.T", #"{"status":"completed","amount":"200.00","currency":"AUD"}"#)],
                "currencyMismatch", "is in AUD, but the widget is configured for USD"),
    ]

    @Test("a token that cannot be used is an invalid state with its own code", arguments: badTokens.indices)
    func badToken(_ index: Int) throws {
        let (token, orders, code, message) = Self.badTokens[index]
        let harness = try CheckoutHarness([("token", token)], orders: orders)
        let screen = try harness.screen()
        #expect(screen.codes == [code])
        #expect(screen.negativeText.contains { $0.contains(message) }, "\(screen.negativeText)")
        #expect(screen.rows.isEmpty && screen.fields.isEmpty)
        // Started invalid: ready carries the code and message, and error follows.
        let events = try harness.events
        #expect(events.map(\.topic) == ["checkout.ready", "checkout.error"])
        #expect(events.first?.payload["isValid"] == false)
        #expect(events.first?.payload["errorCode"] == .string(code))
        #expect(events.first?.payload["message"]?.string?.contains(message) == true)
        #expect(events.last?.payload == ["errorCode": .string(code), "message": events.first?.payload["message"] ?? .null])
        #expect(throws: PluginInstance.CallError.status(3)) { try harness.update("100.00") }
        #expect(harness.topics == ["checkout.ready", "checkout.error"], "a refused update announces nothing")
    }

    @Test("a tokenless schedule has no checksum")
    func tokenlessHasNoChecksum() throws {
        let harness = try CheckoutHarness([("amount", "200.00")])
        #expect(try harness.screen().checksum == nil)
        #expect(try harness.events.first?.payload["paymentScheduleChecksum"] == .null)
    }

    // MARK: Events

    @Test("events: ready once, changed on every accepted update (sameStatus when nothing changed), error with each invalid one")
    func eventSequence() throws {
        let harness = try CheckoutHarness([("amount", "200.00")])
        for value in ["250.00", "250.00", "abc", "abc", "-5", "300.00"] { try harness.update(value) }
        let events = try harness.events
        let summary = events.map { event -> String in
            let status = event.payload["status"] ?? event.payload
            let same = event.payload["sameStatus"].map { $0 == true ? " same" : "" } ?? ""
            return event.topic + " " + (status["errorCode"]?.string ?? status["amountDueToday"]?["amount"]?.string ?? "-") + same
        }
        #expect(summary == ["checkout.ready 50.00",
                            "checkout.changed 62.50",
                            "checkout.changed 62.50 same",
                            "checkout.changed amountNotANumber", "checkout.error amountNotANumber",
                            "checkout.changed amountNotANumber same", "checkout.error amountNotANumber",
                            "checkout.changed amountNegative", "checkout.error amountNegative",
                            "checkout.changed 75.00"])
        #expect(events[1].payload == ["status": ["isValid": true, "amountDueToday": ["amount": "62.50", "currency": "USD"],
                                                 "paymentScheduleChecksum": nil], "sameStatus": false])
    }

    @Test("an update that leaves the status unchanged still sends changed, with sameStatus true")
    func changedOnUnchangedStatus() throws {
        let harness = try CheckoutHarness([("amount", "200.00")])
        try harness.update("200.00")
        try harness.update("200")
        let events = try harness.events
        #expect(events.map(\.topic) == ["checkout.ready", "checkout.changed", "checkout.changed"])
        let status: JSONValue = ["isValid": true, "amountDueToday": ["amount": "50.00", "currency": "USD"], "paymentScheduleChecksum": nil]
        #expect(events[1].payload == ["status": status, "sameStatus": true])
        #expect(events[2].payload == ["status": status, "sameStatus": true])
    }

    // MARK: The status query

    @Test("the status query answers what getStatus did, as the state changes")
    func statusQuery() throws {
        let harness = try CheckoutHarness([("amount", "200.00")])
        func status() throws -> JSONValue { try JSONParser.parse(try harness.instance.query("status")) }
        #expect(try status() == ["isValid": true, "amountDueToday": ["amount": "50.00", "currency": "USD"], "paymentScheduleChecksum": nil])
        try harness.update("abc")
        #expect(try status()["isValid"] == false)
        #expect(try status()["errorCode"] == "amountNotANumber")
        #expect(try status()["message"] == (try harness.events.last?.payload["message"]))
        let topics = harness.topics
        _ = try status()
        #expect(harness.topics == topics, "a query announces nothing")
        #expect(throws: PluginInstance.CallError.status(WH_UNKNOWN_QUERY.rawValue)) { _ = try harness.instance.query("balance") }
    }

    @Test("an invalid start answers the status query with its code")
    func statusQueryWhenStartedInvalid() throws {
        let harness = try CheckoutHarness([("token", "NOPE")])
        let status = try JSONParser.parse(try harness.instance.query("status"))
        #expect(status["isValid"] == false)
        #expect(status["errorCode"] == "unknownToken")
    }

}
