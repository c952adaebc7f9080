import Testing
import PluginKit
@testable import WidgetHostKit
@testable import TestSupport

/// Money typed and shown as the configured locale writes it, and the SDK's
/// translations chosen from the person's locale variables.
@Suite("Locale and translations")
struct LocaleTests {
    // MARK: Translations.preferences

    @Test("the language comes from LC_ALL, else LC_MESSAGES, else LANG; C, POSIX and empty values ask for none", arguments: [
        (["LANG": "fr_CA.UTF-8"], ["fr_CA", "fr"]),
        (["LANG": "en_US.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8"], ["fr_FR", "fr"]),
        (["LANG": "fr_CA.UTF-8", "LC_MESSAGES": "de_DE", "LC_ALL": "en_GB.UTF-8"], ["en_GB", "en"]),
        (["LC_ALL": "", "LANG": "fr_CA.UTF-8"], ["fr_CA", "fr"]),
        (["LANG": "de_DE@euro"], ["de_DE", "de"]),
        (["LANG": "fr"], ["fr"]),
        (["LANG": "C.UTF-8"], []),
        (["LANG": "POSIX", "LC_MESSAGES": "C"], []),
        ([:], []),
    ])
    func preferences(_ environment: [String: String], _ expected: [String]) {
        #expect(Translations.preferences(environment: environment) == expected)
    }

    @Test("a table is chosen by the most specific language that has one; English when none does or a text is missing")
    func choice() {
        let tables = ["fr": ["Hello {0}": "Bonjour {0}", "Bye": "Salut"], "fr_CA": ["Bye": "Bye-bye"]]
        let canadian = Translations(tables, preferences: ["fr_CA", "fr"])
        #expect(canadian.language == "fr_CA")
        #expect(canadian("Bye") == "Bye-bye")
        #expect(canadian("Hello {0}", "Ana") == "Hello Ana", "the regional table lacks it: English, not the other table")
        let french = Translations(tables, preferences: Translations.preferences(environment: ["LANG": "fr_BE.UTF-8"]))
        #expect(french.language == "fr")
        #expect(french("Hello {0}", "Ana") == "Bonjour Ana")
        #expect(french("Untranslated") == "Untranslated")
        let german = Translations(tables, preferences: Translations.preferences(environment: ["LANG": "de_DE.UTF-8"]))
        #expect(german.language == nil)
        #expect(german("Hello {0}", "Ana") == "Hello Ana")
    }

    // MARK: Checkout under fr_CA

    @Test("under fr_CA a typed 12,50 is an amount, shown back as fr_CA writes money; under en_US it is refused")
    func frenchInput() throws {
        let french = try CheckoutHarness([("locale", "fr_CA"), ("currencyCode", "CAD")])
        for typed in ["1234,50", "1234.50"] {
            try french.update(typed)
            let screen = try french.screen()
            #expect(screen.isValid, "\(typed): \(screen.allText)")
            #expect(screen.amounts == ["308,63\u{00A0}$", "308,63\u{00A0}$", "308,63\u{00A0}$", "308,61\u{00A0}$"], "\(typed)")
            #expect(screen.allText.contains("Total de la commande\u{00A0}: 1\u{00A0}234,50\u{00A0}$"), "\(screen.allText)")
            #expect(screen.fields.first?.value == typed, "the field shows what was typed")
        }
        // The status a script reads keeps the machine format.
        let events = try french.events
        #expect(events.last?.payload["status"]?["amountDueToday"]?["amount"] == "308.63", "\(events)")
        for refused in ["1 234,50", "1,234.50", "12,5,0", ",50"] {
            try? french.update(refused)
            #expect(try french.screen().codes == ["amountNotANumber"], "\(refused)")
        }
        try? french.update("abc")
        #expect(try french.screen().negativeText == ["«\u{00A0}abc\u{00A0}» n'est pas un montant\u{00A0}: entrez des chiffres avec au plus 2 décimales, "
                                                   + "par exemple 250,00"])

        let english = try CheckoutHarness([("locale", "en_US")])
        try? english.update("1234,50")
        #expect(try english.screen().codes == ["amountNotANumber"])
        #expect(try english.screen().negativeText.first?.hasPrefix("\"1234,50\" is not an amount") == true)
    }

    @Test("the shopper's text follows LANG where the configured locale has no language of its own, in process and isolated",
          arguments: [false, true])
    func frenchFromLang(_ isolate: Bool) throws {
        let arguments = ["launch", "checkout", "--format", "json"] + (isolate ? ["--isolate"] : []) + CheckoutLaunchTests.configuration
            + ["--set", "checkout.amount=1234.50"]
        let french = try TestSupport.runHost(arguments, environment: ["LANG": "fr_CA.UTF-8"])
        let screen = try CheckoutLaunchTests.screen(french)
        #expect(screen.headline == "ou 4 versements sans intérêts de $308.63", "money stays en_US: \(french)")
        #expect(screen.allText.contains("Total de la commande\u{00A0}: $1,234.50"), "\(screen.allText)")
        let override = try TestSupport.runHost(arguments, environment: ["LANG": "fr_CA.UTF-8", "LC_ALL": "C"])
        #expect(try CheckoutLaunchTests.screen(override).headline == "or 4 interest-free payments of $308.63", "\(override)")
        let german = try TestSupport.runHost(arguments, environment: ["LANG": "de_DE.UTF-8"])
        #expect(try CheckoutLaunchTests.screen(german).headline == "or 4 interest-free payments of $308.63", "no German table: English")
    }
}
