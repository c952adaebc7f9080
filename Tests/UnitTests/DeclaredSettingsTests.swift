import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// Settings a widget declares in its manifest: what the host accepts as a
/// declaration, and how a configured value is judged against it.
@Suite("Declared settings")
struct DeclaredSettingsTests {
    static func manifest(settings: String, id: String = "org.example.gauge") throws -> Manifest {
        try Manifest(json: try JSONParser.parse("""
        {"abi": "1.0", "id": "\(id)", "name": "Gauge", "version": "1.0.0", "screens": [{"id": "main"}], "settings": \(settings)}
        """))
    }

    static let gauge = """
        [{"key": "refreshSeconds", "type": "integer", "default": 30, "minimum": 1, "maximum": 86400, "help": "seconds between fetches"},
         {"key": "scale", "type": "number", "minimum": 0.5, "help": "how large"},
         {"key": "unit", "type": "string", "default": "C", "values": ["C", "F"], "help": "degrees"},
         {"key": "limit", "type": "decimal", "help": "an amount"},
         {"key": "compact", "type": "boolean", "default": false, "help": "one line"},
         {"key": "label", "type": "string", "help": "free text"}]
        """

    @Test("a manifest's settings are read with their type, default, allowed values, range and help")
    func declarationRead() throws {
        let settings = try #require(try Self.manifest(settings: Self.gauge).settings)
        #expect(settings.map(\.key) == ["refreshSeconds", "scale", "unit", "limit", "compact", "label"])
        #expect(settings[0].kind == .integer && settings[0].defaultValue == 30 && settings[0].minimum == 1 && settings[0].maximum == 86400)
        #expect(settings[2].values == ["C", "F"])
        #expect(settings[5].help == "free text")
        #expect(try Self.manifest(settings: "[]").settings == [])
        let none = try Manifest(json: try JSONParser.parse(#"{"abi": "1.0", "id": "a.b", "name": "N", "version": "1.0.0", "screens": [{"id": "m"}]}"#))
        #expect(none.settings == nil, "no key: nothing declared, so nothing can be checked")
        #expect(ManifestWarnings.unknownKeys(in: try Self.manifest(settings: Self.gauge).json).isEmpty)
    }

    @Test("a broken declaration keeps the plugin from loading, with a reason that names the setting", arguments: [
        (#"[{"key": "a", "type": "float", "help": "h"}]"#, "manifest setting \"a\": \"type\" must be one of string, integer, number, boolean, decimal"),
        (#"[{"key": "a", "type": "integer", "default": "ten", "help": "h"}]"#, "\"default\" must be an integer, not \"ten\""),
        (#"[{"key": "a", "type": "integer", "default": 0, "minimum": 1, "help": "h"}]"#, "\"default\" must be an integer of at least 1, not 0"),
        (#"[{"key": "a", "type": "string", "minimum": 1, "help": "h"}]"#, "\"minimum\" must be a number, and only an integer, number or decimal"),
        (#"[{"key": "a", "type": "string", "values": [], "help": "h"}]"#, "\"values\" must be a non-empty array"),
        (#"[{"key": "a", "type": "string", "values": ["x", 2], "help": "h"}]"#, "an allowed value must be a string, not 2"),
        (#"[{"key": "a", "type": "string"}]"#, "\"help\" must be one line"),
        (#"[{"key": "a", "type": "string", "help": "h"}, {"key": "a", "type": "string", "help": "h"}]"#, "declare \"a\" twice"),
        (#"[{"key": "9lives", "type": "string", "help": "h"}]"#, "\"key\" must be 1 to 64 of [A-Za-z0-9_-]"),
        (#"[{"key": "_a", "type": "string", "help": "h"}]"#, "\"key\" must be 1 to 64 of [A-Za-z0-9_-]"),
        (#"[{"key": "-a", "type": "string", "help": "h"}]"#, "\"key\" must be 1 to 64 of [A-Za-z0-9_-]"),
        (#"[{"key": "é", "type": "string", "help": "h"}]"#, "\"key\" must be 1 to 64 of [A-Za-z0-9_-]"),
        (#"[{"key": "aé", "type": "string", "help": "h"}]"#, "\"key\" must be 1 to 64 of [A-Za-z0-9_-]"),
        (#"[{"key": "", "type": "string", "help": "h"}]"#, "\"key\" must be 1 to 64 of [A-Za-z0-9_-]"),
        ("[{\"key\": \"\(String(repeating: "a", count: 65))\", \"type\": \"string\", \"help\": \"h\"}]", "\"key\" must be 1 to 64 of"),
        (#"[{"key": "a", "type": "string", "help": "two\nlines"}]"#, "\"help\" must be one line of at most 200 bytes"),
        ("[{\"key\": \"a\", \"type\": \"string\", \"help\": \"\(String(repeating: "h", count: 201))\"}]", "\"help\" must be one line"),
        (#"{"a": "string"}"#, "\"settings\" must be an array of objects"),
    ])
    func brokenDeclaration(_ settings: String, _ reason: String) throws {
        let error = #expect(throws: ManifestError.self) { try Self.manifest(settings: settings) }
        #expect(error?.description.contains(reason) == true, "\(String(describing: error))")
    }

    @Test("a configured value of the wrong type or out of range is named with its setting and its widget", arguments: [
        ("refreshSeconds", "\"fast\"", "the setting refreshSeconds of Gauge (org.example.gauge) must be an integer from 1 to 86400, not \"fast\""),
        ("refreshSeconds", "0", "must be an integer from 1 to 86400, not 0"),
        ("refreshSeconds", "1.5", "must be an integer from 1 to 86400, not 1.5"),
        ("scale", "0.25", "the setting scale of Gauge (org.example.gauge) must be a number of at least 0.5, not 0.25"),
        ("scale", "\"2\"", "must be a number of at least 0.5, not \"2\""),
        ("unit", "\"K\"", "must be one of \"C\", \"F\", not \"K\""),
        ("limit", "\"12,50\"", "must be a decimal, written like 50.00, not \"12,50\""),
        ("limit", "\"05\"", "must be a decimal"),
        ("compact", "\"yes\"", "must be true or false, not \"yes\""),
        ("label", "7", "must be a string, not 7"),
        ("refreshSecs", "5", "Gauge (org.example.gauge) has no setting 'refreshSecs' (did you mean 'refreshSeconds'?)"),
    ])
    func refusedValue(_ key: String, _ value: String, _ message: String) throws {
        let problem = SettingsCheck.problem(try Self.manifest(settings: Self.gauge), key: key, value: try JSONParser.parse(value))
        #expect(problem?.contains(message) == true, "\(problem ?? "accepted")")
    }

    @Test("values of each kind within their range pass", arguments: [
        ("refreshSeconds", "1"), ("refreshSeconds", "86400"), ("scale", "0.5"), ("scale", "1e3"), ("unit", "\"F\""),
        ("limit", "\"50.00\""), ("limit", "12.5"), ("compact", "true"), ("label", "\"\""),
    ])
    func acceptedValue(_ key: String, _ value: String) throws {
        #expect(SettingsCheck.problem(try Self.manifest(settings: Self.gauge), key: key, value: try JSONParser.parse(value)) == nil)
    }

    @Test("the command line's text becomes the setting's type: a string stays text, a decimal is kept as typed")
    func valueFromText() throws {
        let settings = try #require(try Self.manifest(settings: Self.gauge).settings)
        func value(_ key: String, _ text: String) -> JSONValue? { settings.first { $0.key == key }?.value(fromText: text) }
        #expect(value("refreshSeconds", "60") == .number("60"))
        #expect(value("refreshSeconds", "sixty") == "sixty")
        #expect(value("scale", "0.75") == .number("0.75"))
        #expect(value("limit", "50.00") == "50.00")
        #expect(value("compact", "true") == true)
        #expect(value("label", "true") == "true")
        #expect(value("label", "{\"a\": 1}") == "{\"a\": 1}", "a string setting never reads JSON")
    }

    @Test("every scanning command's check: each bad value in the configuration and --set, for widgets that declare settings")
    func configurationProblems() throws {
        let gauge = try Self.manifest(settings: Self.gauge)
        let silent = try Manifest(json: try JSONParser.parse(
            #"{"abi": "1.0", "id": "org.example.quiet", "name": "Quiet", "version": "1.0.0", "screens": [{"id": "m"}]}"#))
        var config = HostConfig(root: try JSONParser.parse(#"{"plugins": {"gauge": {"unit": "C", "scale": "big"}, "quiet": {"anything": 1}}}"#))
        try config.set("gauge.refreshSeconds=0")
        config.addressShortNames(among: [gauge, silent])
        let problems = SettingsCheck.problems(config, manifests: [gauge, silent])
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("the setting scale of Gauge (org.example.gauge) must be a number") })
        #expect(problems.contains { $0.hasPrefix("the setting refreshSeconds of Gauge (org.example.gauge) must be an integer") })
    }
}

extension DeclaredSettingsTests {
    @Test("keys of letters, digits, _ and - that start with a letter, up to 64; help up to 200 bytes on one line", arguments: [
        "A", "a", "aB9_-", String(repeating: "k", count: 64),
    ])
    func acceptedKeys(_ key: String) throws {
        let help = String(repeating: "h", count: 200)
        let manifest = try Self.manifest(settings: #"[{"key": "\#(key)", "type": "string", "help": "\#(help)"}]"#)
        #expect(manifest.settings?.first?.key == key)
    }

    @Test("allowed values are checked before a range: a listed value outside the range is allowed")
    func valuesWinOverRange() throws {
        let setting = DeclaredSetting(key: "n", kind: .integer, defaultValue: nil, values: [.number("100")], minimum: 1, maximum: 10, help: "h")
        #expect(setting.problem(with: .number("100")) == nil)
        #expect(setting.problem(with: .number("5")) == "one of 100, not 5")
    }
}
