import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

@Suite("Manifest")
struct ManifestTests {
    static let complete = """
    {
      "abi": "1.0",
      "id": "org.widgethost.crypto",
      "name": "Crypto prices",
      "version": "1.2.3-rc.1+build.5",
      "vendor": "Widget Host",
      "description": "Shows prices.",
      "screens": [
        {"id": "main", "title": "Prices", "actions": ["refresh", "buy"]},
        {"id": "detail_view-2"}
      ],
      "services": {"required": ["http"], "optional": ["clock", "storage"]},
      "topics": {"publish": ["price.changed"], "subscribe": ["wallet.updated"]}
    }
    """

    /// A minimal valid manifest as members, to change one field at a time.
    static func minimal(_ changes: [String: JSONValue?] = [:]) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("abi", "1.0"), ("id", "org.example.widget"), ("name", "Widget"), ("version", "1.0.0"),
            ("screens", [["id": "main"]]),
        ]
        for (key, value) in changes {
            if let index = members.firstIndex(where: { $0.0 == key }) {
                if let value { members[index].1 = value } else { members.remove(at: index) }
            } else if let value {
                members.append((key, value))
            }
        }
        return .object(members)
    }

    static func refusal(json: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        do {
            let manifest = try Manifest(json: json)
            Issue.record("expected a refusal, but accepted \(manifest.id)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error.description
        }
    }

    static func refusal(_ changes: [String: JSONValue?], sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        refusal(json: minimal(changes), sourceLocation: sourceLocation)
    }

    // MARK: Valid manifests

    @Test func completeManifestParsesIntoTheRightFields() throws {
        let manifest = try Manifest(bytes: Array(Self.complete.utf8))
        #expect(manifest.abi == ABIVersion(major: 1, minor: 0))
        #expect(manifest.id.value == "org.widgethost.crypto")
        #expect(manifest.id.shortName == "crypto")
        #expect(manifest.name == "Crypto prices")
        #expect(manifest.version == "1.2.3-rc.1+build.5")
        #expect(manifest.vendor == "Widget Host")
        #expect(manifest.description == "Shows prices.")
        #expect(manifest.screens == [
            Manifest.Screen(id: "main", title: "Prices", actions: ["refresh", "buy"]),
            // No title: the id stands in; no actions: none.
            Manifest.Screen(id: "detail_view-2", title: "detail_view-2", actions: []),
        ])
        #expect(manifest.requiredServices == ["http"])
        #expect(manifest.optionalServices == ["clock", "storage"])
        #expect(manifest.publishes == ["price.changed"])
        #expect(manifest.subscribes == ["wallet.updated"])
        #expect(manifest.json == (try JSONParser.parse(Self.complete)))
    }

    @Test func optionalFieldsDefaultToEmpty() throws {
        let manifest = try Manifest(json: Self.minimal())
        #expect(manifest.vendor == "")
        #expect(manifest.description == "")
        #expect(manifest.requiredServices.isEmpty && manifest.optionalServices.isEmpty)
        #expect(manifest.publishes.isEmpty && manifest.subscribes.isEmpty)
        #expect(manifest.screens == [Manifest.Screen(id: "main", title: "main", actions: [])])

        let nulls = try Manifest(json: Self.minimal(["vendor": .null, "description": .null, "services": ["required": nil]]))
        #expect(nulls.vendor == "" && nulls.description == "" && nulls.requiredServices.isEmpty)
        let emptyTitle = try Manifest(json: Self.minimal(["screens": [["id": "a", "title": ""]]]))
        #expect(emptyTitle.screens.first?.title == "a")
    }

    // MARK: Refusals, each with its own message

    @Test func notJSONOrNotAnObject() throws {
        let bytes = Array(#"{"abi": "1.0",}"#.utf8)
        #expect(throws: ManifestError("manifest is not valid JSON: line 1, column 15: expected a string key")) {
            try Manifest(bytes: bytes)
        }
        #expect(Self.refusal(json: ["abi", "1.0"]) == "manifest is not a JSON object")
        #expect(Self.refusal(json: .string("{}")) == "manifest is not a JSON object")
    }

    @Test func missingOrMistypedRequiredFields() {
        #expect(Self.refusal(["id": nil]) == #"manifest field "id" is missing"#)
        #expect(Self.refusal(["id": .null]) == #"manifest field "id" is missing"#)
        #expect(Self.refusal(["id": 42]) == #"manifest field "id" must be a string"#)
        #expect(Self.refusal(["abi": nil]) == #"manifest field "abi" is missing"#)
        #expect(Self.refusal(["name": nil]) == #"manifest field "name" is missing"#)
        #expect(Self.refusal(["version": nil]) == #"manifest field "version" is missing"#)
        #expect(Self.refusal(["vendor": true]) == #"manifest field "vendor" must be a string"#)
    }

    @Test func emptyName() {
        #expect(Self.refusal(["name": ""]) == #"manifest field "name" is empty"#)
    }

    @Test func overlongFields() {
        #expect(Self.refusal(["name": .string(String(repeating: "n", count: 129))]) == #"manifest field "name" is longer than 128 bytes"#)
        // Bytes, not characters: 65 two-byte characters are 130 bytes.
        #expect(Self.refusal(["name": .string(String(repeating: "é", count: 65))]) == #"manifest field "name" is longer than 128 bytes"#)
        #expect(Self.refusal(["description": .string(String(repeating: "d", count: 4097))]) == #"manifest field "description" is longer than 4096 bytes"#)
        #expect(Self.refusal(["vendor": .string(String(repeating: "v", count: 1025))]) == #"manifest field "vendor" is longer than 1024 bytes"#)
        #expect(throws: Never.self) { try Manifest(json: Self.minimal(["name": .string(String(repeating: "n", count: 128))])) }
    }

    @Test func idWithIllegalCharacters() {
        #expect(Self.refusal(["id": "Org.example.widget"])
            == #"manifest id "Org.example.widget" has an illegal character 'O'; ids use [a-z0-9_-] and dots"#)
        #expect(Self.refusal(["id": "org.example/widget"])
            == #"manifest id "org.example/widget" has an illegal character '/'; ids use [a-z0-9_-] and dots"#)
        #expect(Self.refusal(["id": "org.exämple.widget"])
            == #"manifest id "org.exämple.widget" has an illegal character '\u{00E4}'; ids use [a-z0-9_-] and dots"#)
        #expect(Self.refusal(["id": "org.example widget"])?.contains("illegal character ' '") == true)
    }

    @Test func idWithOneSegment() {
        #expect(Self.refusal(["id": "widget"])
            == #"manifest id "widget" must be reverse-DNS with at least two dot-separated segments, such as org.example.widget"#)
    }

    @Test func idTooLongOrTooShort() {
        #expect(Self.refusal(["id": "ab"]) == #"manifest id "ab" must be 3 to 128 bytes long"#)
        #expect(Self.refusal(["id": ""]) == #"manifest field "id" is empty"#)
        let long = "org." + String(repeating: "a", count: 125)
        #expect(long.utf8.count == 129)
        #expect(Self.refusal(["id": .string(long)]) == #"manifest id "\#(long)" must be 3 to 128 bytes long"#)
        #expect(throws: Never.self) { try PluginID(String(long.dropLast())) }
        #expect(throws: Never.self) { try PluginID("a.b") }
    }

    @Test func idSegmentsMustStartWithALetterOrDigit() {
        #expect(Self.refusal(["id": "org.-example.widget"])
            == #"manifest id "org.-example.widget" has a segment "-example" that does not start with a letter or digit"#)
        #expect(Self.refusal(["id": "_org.example"])
            == #"manifest id "_org.example" has a segment "_org" that does not start with a letter or digit"#)
        #expect(Self.refusal(["id": "org..widget"])
            == #"manifest id "org..widget" has a segment "" that does not start with a letter or digit"#)
        #expect(Self.refusal(["id": "org.example."])
            == #"manifest id "org.example." has a segment "" that does not start with a letter or digit"#)
        #expect(throws: Never.self) { try PluginID("9lives.x-y_z.0") }
    }

    @Test func versionMustBeSemantic() {
        for bad in ["1.0", "01.0.0", "1.02.0", "1.0.0-", "1.0.0+", "v1.0.0", "1.0.0.0", "1..0", "", "1.0.x", "١.٠.٠"] {
            let message = Self.refusal(["version": .string(bad)])
            if bad.isEmpty {
                #expect(message == #"manifest field "version" is empty"#)
            } else {
                #expect(message == #"manifest field "version" is "\#(bad)", expected a semantic version such as "1.2.0""#)
            }
        }
    }

    /// The byte scanners that check ids and versions, against their grammars
    /// written as regular expressions (semver.org's own for versions), on
    /// edge cases and random strings over the characters that matter.
    @Test func idAndVersionCheckersMatchTheirGrammars() throws {
        let id = try NSRegularExpression(pattern: #"^[a-z0-9][a-z0-9_-]*(\.[a-z0-9][a-z0-9_-]*)+$"#)
        let identifier = #"(?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)"#
        let version = try NSRegularExpression(pattern: #"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)"#
            + #"(?:-\#(identifier)(?:\.\#(identifier))*)?(?:\+[0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*)?$"#)
        func matches(_ pattern: NSRegularExpression, _ text: String) -> Bool {
            pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("az09._-+Z\u{E9}\u{301}/ ")
        let random = (0..<4000).map { _ in String((0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }) }
        let edges = ["a.b", "ab", "a..b", ".ab", "ab.", "a._b", "a.-b", "a_.b-", "9.0", "org.example.widget", "1.0.0", "0.0.0", "01.0.0",
                     "1.0.0-rc.1+build.5", "1.0.0-0", "1.0.0-00", "1.0.0-0a", "1.0.0+00", "1.0.0-", "1.0.0+", "1.0.0-a..b", "1.0.0+a+b",
                     "1.0.0-a-b", "1.0.0-\u{E9}", "1.0.0.\u{301}", "1.0.0+\u{301}", String(repeating: "a.", count: 64) + "a"]
        for text in edges + random {
            #expect(((try? PluginID(text)) != nil) == (matches(id, text) && (3...128).contains(text.utf8.count)), "id \(text.debugDescription)")
            #expect(SemanticVersion.isValid(text) == matches(version, text), "version \(text.debugDescription)")
        }
    }

    @Test func abiMustBeMajorDotMinor() {
        for bad in ["1", "1.0.0", "1.", ".0", "one.zero", "-1.0", ""] {
            let message = Self.refusal(["abi": .string(bad)])
            if bad.isEmpty {
                #expect(message == #"manifest field "abi" is empty"#)
            } else {
                #expect(message == #"manifest field "abi" is "\#(bad)", expected MAJOR.MINOR such as "1.0""#)
            }
        }
        #expect(Self.refusal(["abi": 1]) == #"manifest field "abi" must be a string"#)
    }

    @Test func abiAcceptsOnlyDigits() {
        // UInt32("+1") is 1, so "+1.0" slips through as ABI 1.0.
        #expect(ABIVersion("+1.0") == nil)
        #expect(ABIVersion("1.+0") == nil)
    }

    @Test func screensMustBeANonEmptyArray() {
        let message = #"manifest field "screens" must be a non-empty array"#
        #expect(Self.refusal(["screens": .array([])]) == message)
        #expect(Self.refusal(["screens": nil]) == message)
        #expect(Self.refusal(["screens": ["id": "main"]]) == message)
    }

    @Test func duplicateScreenID() {
        #expect(Self.refusal(["screens": [["id": "main"], ["id": "other"], ["id": "main", "title": "Again"]]])
            == #"manifest lists screen "main" twice"#)
    }

    @Test func badScreenID() {
        #expect(Self.refusal(["screens": [["id": "Main"]]]) == #"manifest screen id "Main" must be 1 to 64 of [a-z0-9_-]"#)
        #expect(Self.refusal(["screens": [["id": "a.b"]]]) == #"manifest screen id "a.b" must be 1 to 64 of [a-z0-9_-]"#)
        #expect(Self.refusal(["screens": [["id": "ü"]]]) == #"manifest screen id "ü" must be 1 to 64 of [a-z0-9_-]"#)
        #expect(Self.refusal(["screens": [["id": ""]]]) == #"screen field "id" is empty"#)
        #expect(Self.refusal(["screens": [["title": "No id"]]]) == #"screen field "id" is missing"#)
        #expect(Self.refusal(["screens": ["main"]]) == #"screen field "id" is missing"#)
        #expect(Self.refusal(["screens": [["id": .string(String(repeating: "s", count: 65))]]]) == #"screen field "id" is longer than 64 bytes"#)
        #expect(throws: Never.self) { try Manifest(json: Self.minimal(["screens": [["id": .string(String(repeating: "s", count: 64))]]])) }
        #expect(ScreenID.isValid("a-b_0"))
        #expect(!ScreenID.isValid(""))
    }

    @Test func screenActionsMustBeStrings() {
        let message = #"screen field "actions" must be an array of strings"#
        #expect(Self.refusal(["screens": [["id": "main", "actions": [1]]]]) == message)
        #expect(Self.refusal(["screens": [["id": "main", "actions": ["ok", nil]]]]) == message)
        #expect(Self.refusal(["screens": [["id": "main", "actions": "refresh"]]]) == message)
        #expect(Self.refusal(["screens": [["id": "main", "title": 3]]]) == #"screen field "title" must be a string"#)
    }

    @Test func servicesAndTopicsMustBeArraysOfStrings() {
        #expect(Self.refusal(["services": ["required": "http"]]) == #"services field "required" must be an array of strings"#)
        #expect(Self.refusal(["services": ["optional": [true]]]) == #"services field "optional" must be an array of strings"#)
        #expect(Self.refusal(["topics": ["publish": [["a": 1]]]]) == #"topics field "publish" must be an array of strings"#)
        #expect(Self.refusal(["topics": ["subscribe": 1]]) == #"topics field "subscribe" must be an array of strings"#)
    }

    @Test("topic grants outside the pattern grammar are refused with the reason")
    func topicsOutsideTheGrammar() {
        #expect(Self.refusal(["topics": ["publish": ["#.x"], "subscribe": ["#.x"]]])
                == "manifest topics.publish: '#' may only be the last segment of a pattern")
        #expect(Self.refusal(["topics": ["subscribe": ["nav..push"]]])
                == "manifest topics.subscribe: pattern 'nav..push' has an empty segment")
        #expect(Self.refusal(["topics": ["subscribe": ["a.b c"]]])?.hasPrefix("manifest topics.subscribe: pattern 'a.b c' has a segment") == true)
        #expect(throws: Never.self) { try Manifest(json: Self.minimal(["topics": ["publish": ["a.*"], "subscribe": ["nav.#", "#"]]])) }
    }

    @Test func servicesAndTopicsMustBeObjects() {
        // A plugin that writes its requirements as a bare array gets no
        // required services at all, so a missing service goes unnoticed.
        #expect(Self.refusal(["services": ["http"]]) == #"manifest field "services" must be an object"#)
        #expect(Self.refusal(["topics": "price.changed"]) == #"manifest field "topics" must be an object"#)
    }

    // MARK: ABI compatibility

    @Test func abiCompatibility() {
        let host = ABIVersion.host
        #expect(host == ABIVersion(major: 1, minor: 0))
        #expect(host.description == "1.0")
        #expect(ABIVersion(major: host.major, minor: host.minor).incompatibility == nil)
        // Same major, older (or equal) minor: the host still speaks it.
        #expect(ABIVersion(major: host.major, minor: 0).incompatibility == nil)
        #expect(ABIVersion(major: host.major, minor: host.minor + 1).incompatibility
            == "built for ABI \(host.major).\(host.minor + 1), newer than this host's ABI \(host)")
        #expect(ABIVersion(major: host.major + 1, minor: 0).incompatibility
            == "built for ABI \(host.major + 1).0, but this host speaks ABI \(host) and major versions must match")
        #expect(ABIVersion(major: host.major - 1, minor: 9).incompatibility
            == "built for ABI \(host.major - 1).9, but this host speaks ABI \(host) and major versions must match")
    }

    @Test func abiParsesFromText() {
        #expect(ABIVersion("1.0") == ABIVersion(major: 1, minor: 0))
        #expect(ABIVersion("2.13") == ABIVersion(major: 2, minor: 13))
        #expect(ABIVersion("4294967296.0") == nil)
        #expect(ABIVersion("1.4294967296") == nil)
        #expect(ABIVersion("4294967295.0") == ABIVersion(major: 4_294_967_295, minor: 0))
        #expect(ABIVersion("0.4294967295") == ABIVersion(major: 0, minor: 4_294_967_295))
        // Leading zeros read as the number, as UInt32("01") did.
        #expect(ABIVersion("01.0") == ABIVersion(major: 1, minor: 0))
        #expect(ABIVersion("1.00") == ABIVersion(major: 1, minor: 0))
        #expect(ABIVersion("-1.0") == nil)
        #expect(ABIVersion(" 1.0") == nil)
        for bad in ["", ".", "1", "1.", ".1", "1..0", "1.0.", "1.0.0", "1,0", "１.0"] {
            #expect(ABIVersion(bad) == nil, "\(bad)")
        }
    }

    @Test func manifestCarriesItsABIEvenWhenIncompatible() throws {
        let manifest = try Manifest(json: Self.minimal(["abi": "2.0"]))
        #expect(manifest.abi == ABIVersion(major: 2, minor: 0))
        #expect(manifest.abi.incompatibility != nil)
    }

    // MARK: Plugin ids and versions

    @Test func pluginIDShortName() throws {
        #expect(try PluginID("org.widgethost.crypto").shortName == "crypto")
        #expect(try PluginID("a.b").shortName == "b")
        #expect(try PluginID("com.example.my-widget_2").shortName == "my-widget_2")
        #expect(try PluginID("org.widgethost.crypto").description == "org.widgethost.crypto")
    }

    @Test(arguments: ["0.0.0", "1.0.0", "10.20.30", "1.0.0-rc.1+build.5", "1.0.0-alpha", "1.0.0+20130313144700",
                      "1.0.0-0.3.7", "1.0.0-x.7.z.92", "2.0.0-rc-1"])
    func validSemanticVersions(_ version: String) {
        #expect(SemanticVersion.isValid(version))
    }

    @Test(arguments: ["1.0", "01.0.0", "1.01.0", "1.0.01", "1.0.0-", "1.0.0+", "1.0.0-rc.1+", "1", "1.0.0.0", "a.b.c",
                      "-1.0.0", "1.0.-1", " 1.0.0", "1.0.0 ", "", "+1.0.0"])
    func invalidSemanticVersions(_ version: String) {
        #expect(!SemanticVersion.isValid(version))
    }

    @Test(arguments: ["1.0.0-+build", "1.0.0-rc..1", "1.0.0-rc!", "1.0.0+build..5", "1.0.0-01", "1.0.0-ü"])
    func invalidPrereleaseAndBuildIdentifiers(_ version: String) {
        // semver.org: identifiers are non-empty [0-9A-Za-z-], and numeric
        // prerelease identifiers have no leading zeros.
        #expect(!SemanticVersion.isValid(version))
    }
}
