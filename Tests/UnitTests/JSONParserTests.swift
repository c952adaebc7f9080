import Testing
@testable import PluginKit
@testable import WidgetHostKit
@testable import TestSupport

@Suite("JSON parser")
struct JSONParserTests {
    /// The refusal for `text`, or nil (recorded as a failure) if it parsed.
    static func refusal(_ text: String, maxDepth: Int = JSONParser.defaultMaxDepth,
                        sourceLocation: SourceLocation = #_sourceLocation) -> JSONError? {
        refusal(Array(text.utf8), maxDepth: maxDepth, sourceLocation: sourceLocation)
    }

    static func refusal(_ bytes: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth,
                        sourceLocation: SourceLocation = #_sourceLocation) -> JSONError? {
        do {
            let value = try JSONParser.parse(bytes, maxDepth: maxDepth)
            Issue.record("expected a refusal, but parsed \(value.serialized)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Valid documents

    @Test func parsesNestedDocumentOfEveryKind() throws {
        let text = """
        {
          "name": "crypto",
          "price": 100.02,
          "delta": -0.5e3,
          "flags": [true, false, null],
          "nested": {"empty": {}, "list": [], "deep": [[{"x": 0}]]}
        }
        """
        let value = try JSONParser.parse(text)
        let expected: JSONValue = .object([
            ("name", .string("crypto")),
            ("price", .number("100.02")),
            ("delta", .number("-0.5e3")),
            ("flags", .array([.bool(true), .bool(false), .null])),
            ("nested", .object([
                ("empty", .object([])),
                ("list", .array([])),
                ("deep", .array([.array([.object([("x", .number("0"))])])])),
            ])),
        ])
        #expect(value == expected)
        #expect(value["price"] == .number("100.02"))
        #expect(value["nested"]?["deep"]?.array?.count == 1)
        #expect(value["missing"] == nil)
    }

    @Test(arguments: ["0", "-0", "100.02", "-0.5e3", "1E+10", "2e-7", "12345678901234567890123456789", "0.000000000000000000001"])
    func numbersKeepTheirLiteralText(_ literal: String) throws {
        #expect(try JSONParser.parse(literal) == .number(literal))
        #expect(try JSONParser.parse("[\(literal)]") == .array([.number(literal)]))
        #expect(try JSONParser.parse(literal).serialized == literal)
    }

    @Test func topLevelScalarsAndSurroundingWhitespace() throws {
        #expect(try JSONParser.parse("true") == .bool(true))
        #expect(try JSONParser.parse("false") == .bool(false))
        #expect(try JSONParser.parse("null") == .null)
        #expect(try JSONParser.parse("\"s\"") == .string("s"))
        #expect(try JSONParser.parse(" \t\r\n 7 \n\t") == .number("7"))
        #expect(try JSONParser.parse("[ 1 , 2 ]") == .array([.number("1"), .number("2")]))
        #expect(try JSONParser.parse("{ \"a\" : 1 }") == .object([("a", .number("1"))]))
    }

    @Test func simpleEscapes() throws {
        #expect(try JSONParser.parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{08}\u{0C}\n\r\t"))
    }

    @Test func unicodeEscapesIncludingSurrogatePairs() throws {
        #expect(try JSONParser.parse(#""\u0041\u00e9\u00E9\u20AC""#) == .string("Aéé€"))
        #expect(try JSONParser.parse(#""\uD83D\uDE00""#) == .string("😀"))
        #expect(try JSONParser.parse(#""\ud834\udd1e""#) == .string("\u{1D11E}"))
        #expect(try JSONParser.parse(#""a\u0000b""#) == .string("a\u{0}b"))
        // Escapes and raw text mixed, on both sides of a pair.
        #expect(try JSONParser.parse(#""x\uD83D\uDE00y\nz""#) == .string("x😀y\nz"))
    }

    @Test func rawUTF8IsKept() throws {
        #expect(try JSONParser.parse("\"héllo wörld 😀 €\"") == .string("héllo wörld 😀 €"))
        #expect(try JSONParser.parse("{\"ключ\": \"значение\"}")["ключ"] == .string("значение"))
    }

    @Test func objectKeepsDocumentOrder() throws {
        let value = try JSONParser.parse(#"{"b":1,"a":2,"c":3}"#)
        guard case let .object(members) = value else {
            Issue.record("not an object: \(value)")
            return
        }
        #expect(members.map(\.0) == ["b", "a", "c"])
        #expect(value.serialized == #"{"b":1,"a":2,"c":3}"#)
    }

    @Test func depthExactlyAtTheLimitSucceeds() throws {
        let limit = JSONParser.defaultMaxDepth
        let arrays = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        var value = try JSONParser.parse(arrays)
        var depth = 0
        while case let .array(items) = value {
            depth += 1
            guard let first = items.first else { break }
            value = first
        }
        #expect(depth == limit)

        let objects = String(repeating: "{\"k\":", count: limit) + "1" + String(repeating: "}", count: limit)
        #expect(throws: Never.self) { try JSONParser.parse(objects) }
        #expect(throws: Never.self) { try JSONParser.parse("[[1]]", maxDepth: 2) }
        #expect(throws: Never.self) { try JSONParser.parse("1", maxDepth: 0) }
    }

    // MARK: Serialization

    @Test func serializationIsCompact() {
        let value: JSONValue = ["a": [1, "x", nil, true], "b": .object([]), "c": .array([])]
        #expect(value.serialized == #"{"a":[1,"x",null,true],"b":{},"c":[]}"#)
    }

    @Test func serializationEscapesControlCharactersAndRoundTrips() throws {
        let tricky = "quote\" backslash\\ slash/ nl\n cr\r tab\t bs\u{08} ff\u{0C} nul\u{0} one\u{01} us\u{1F} del\u{7F} é 😀 \u{2028}"
        let value: JSONValue = .object([
            (tricky, .string(tricky)),
            ("list", .array([.string("\u{1B}[0m"), .number("-0.5e3"), .bool(false), .null])),
        ])
        let text = value.serialized
        #expect(!text.utf8.contains { $0 < 0x20 }, "raw control character in \(text)")
        #expect(text.contains(#"\u0001"#))
        #expect(text.contains(#"\u001f"#))
        #expect(text.contains(#"\u0000"#))
        #expect(text.contains(#"\u001b"#))
        #expect(text.contains(#"\n"#) && text.contains(#"\r"#) && text.contains(#"\t"#))
        #expect(text.contains(#"quote\""#) && text.contains(#"backslash\\"#))
        #expect(try JSONParser.parse(text) == value)
    }

    @Test func parseSerializeParseIsStable() throws {
        let text = #"{"a": [1, 2.50, -0.5e3, {"b": "\u00e9\uD83D\uDE00\n"}], "c": null, "d": [true, false]}"#
        let first = try JSONParser.parse(text)
        let second = try JSONParser.parse(first.serialized)
        #expect(first == second)
        #expect(second.serialized == first.serialized)
        #expect(first["a"]?.array?[1] == .number("2.50"))
    }

    @Test func equalityIsStructural() {
        #expect(JSONValue.object([("a", 1), ("b", 2)]) != .object([("a", 1)]))
        #expect(JSONValue.object([("a", 1)]) != .object([("a", 2)]))
        #expect(JSONValue.object([("a", 1)]) != .object([("b", 1)]))
        #expect(JSONValue.number("1.0") != .number("1"))
        #expect(JSONValue.string("1") != .number("1"))
        #expect(JSONValue.array([.null]) != .array([]))
        #expect(JSONValue.optional(nil) == .null)
        #expect(JSONValue.optional("x") == .string("x"))
        #expect(JSONValue.string("x").string == "x")
        #expect(JSONValue.number("1").string == nil)
        #expect(JSONValue.array([]).isObject == false)
        #expect(JSONValue.object([]).isObject)
        #expect(JSONValue.array([1])["a"] == nil)
    }

    // MARK: Refusals, each with its line and column

    @Test func emptyInput() {
        let error = Self.refusal("")
        #expect(error == JSONError(message: "unexpected end of input, expected a value", line: 1, column: 1))
        #expect(Self.refusal("   ") == JSONError(message: "unexpected end of input, expected a value", line: 1, column: 4))
        #expect(Self.refusal("\n\n") == JSONError(message: "unexpected end of input, expected a value", line: 3, column: 1))
        #expect(Self.refusal([]) == JSONError(message: "unexpected end of input, expected a value", line: 1, column: 1))
    }

    @Test func trailingGarbage() {
        #expect(Self.refusal(#"{"a":1} x"#) == JSONError(message: "unexpected text after the JSON value", line: 1, column: 9))
        #expect(Self.refusal("1 2") == JSONError(message: "unexpected text after the JSON value", line: 1, column: 3))
        #expect(Self.refusal("[]\n\n  ]") == JSONError(message: "unexpected text after the JSON value", line: 3, column: 3))
        #expect(Self.refusal("truex") == JSONError(message: "unexpected text after the JSON value", line: 1, column: 5))
    }

    @Test func trailingComma() {
        #expect(Self.refusal("[1,2,]") == JSONError(message: "unexpected character ']', expected a value", line: 1, column: 6))
        #expect(Self.refusal(#"{"a":1,}"#) == JSONError(message: "expected a string key", line: 1, column: 8))
        #expect(Self.refusal("{\n  \"a\": 1,\n}") == JSONError(message: "expected a string key", line: 3, column: 1))
    }

    @Test func leadingZeros() {
        #expect(Self.refusal("01") == JSONError(message: "unexpected text after the JSON value", line: 1, column: 2))
        #expect(Self.refusal("-01") == JSONError(message: "unexpected text after the JSON value", line: 1, column: 3))
        #expect(Self.refusal("[01]") == JSONError(message: "expected ',' or ']' in an array, found '1'", line: 1, column: 3))
        #expect(Self.refusal(#"{"a": 007}"#) == JSONError(message: "expected ',' or '}' in an object, found '0'", line: 1, column: 8))
    }

    @Test func malformedNumbers() {
        #expect(Self.refusal("-") == JSONError(message: "expected a digit", line: 1, column: 2))
        #expect(Self.refusal("-x") == JSONError(message: "expected a digit", line: 1, column: 2))
        #expect(Self.refusal("1.") == JSONError(message: "expected a digit after '.'", line: 1, column: 3))
        #expect(Self.refusal("1.e5") == JSONError(message: "expected a digit after '.'", line: 1, column: 3))
        #expect(Self.refusal("1e") == JSONError(message: "expected a digit in the exponent", line: 1, column: 3))
        #expect(Self.refusal("1e+") == JSONError(message: "expected a digit in the exponent", line: 1, column: 4))
        #expect(Self.refusal(".5") == JSONError(message: "unexpected character '.', expected a value", line: 1, column: 1))
        #expect(Self.refusal("+1") == JSONError(message: "unexpected character '+', expected a value", line: 1, column: 1))
        #expect(Self.refusal("[NaN]") == JSONError(message: "unexpected character 'N', expected a value", line: 1, column: 2))
    }

    @Test func malformedLiterals() {
        #expect(Self.refusal("tru") == JSONError(message: "unexpected character 't', expected a value", line: 1, column: 1))
        #expect(Self.refusal("[nul]") == JSONError(message: "unexpected character 'n', expected a value", line: 1, column: 2))
        #expect(Self.refusal("[1, fals]") == JSONError(message: "unexpected character 'f', expected a value", line: 1, column: 5))
        #expect(Self.refusal("'a'") == JSONError(message: "unexpected character ''', expected a value", line: 1, column: 1))
    }

    @Test func missingColon() {
        #expect(Self.refusal(#"{"a" 1}"#) == JSONError(message: "expected ':' after a key, found '1'", line: 1, column: 6))
        #expect(Self.refusal(#"{"a""#) == JSONError(message: "unexpected end of input, expected ':' after a key", line: 1, column: 5))
    }

    @Test func objectAndArrayStructure() {
        #expect(Self.refusal("{1:2}") == JSONError(message: "expected a string key", line: 1, column: 2))
        #expect(Self.refusal(#"{"a":1 "b":2}"#) == JSONError(message: "expected ',' or '}' in an object, found '\"'", line: 1, column: 8))
        #expect(Self.refusal(#"{"a":1"#) == JSONError(message: "unexpected end of input, expected ',' or '}' in an object", line: 1, column: 7))
        #expect(Self.refusal("[1 2]") == JSONError(message: "expected ',' or ']' in an array, found '2'", line: 1, column: 4))
        #expect(Self.refusal("[1") == JSONError(message: "unexpected end of input, expected ',' or ']' in an array", line: 1, column: 3))
        #expect(Self.refusal("[") == JSONError(message: "unexpected end of input, expected a value", line: 1, column: 2))
        #expect(Self.refusal(#"{"a":}"#) == JSONError(message: "unexpected character '}', expected a value", line: 1, column: 6))
    }

    @Test func duplicateKeys() {
        #expect(Self.refusal(#"{"a":1,"a":2}"#) == JSONError(message: "duplicate key \"a\"", line: 1, column: 8))
        #expect(Self.refusal("{\n  \"a\": 1,\n  \"b\": {\"a\": 1},\n  \"a\": 2\n}")
            == JSONError(message: "duplicate key \"a\"", line: 4, column: 3))
        // Keys are compared after escapes are undone: "\u0061" is "a".
        #expect(Self.refusal(#"{"a":1,"\u0061":2}"#) == JSONError(message: "duplicate key \"a\"", line: 1, column: 8))
        // The same key in different objects is fine.
        #expect(throws: Never.self) { try JSONParser.parse(#"{"a":{"a":1},"b":[{"a":1},{"a":2}]}"#) }
    }

    @Test("keys that differ only in Unicode normal form are two keys, looked up by their bytes")
    func keysAreComparedByBytes() throws {
        // "\u00e9" is é as one code point; "e\u0301" is e with a combining acute.
        let value = try JSONParser.parse(#"{"\u00e9":1,"e\u0301":2}"#)
        #expect(value["\u{E9}"] == .number("1"))
        #expect(value["e\u{301}"] == .number("2"))
        #expect(value["\u{E9}"] != value["e\u{301}"])
        #expect(JSONValue.string("\u{E9}") != JSONValue.string("e\u{301}"))
        #expect(JSONValue.object([("\u{E9}", 1)]) != JSONValue.object([("e\u{301}", 1)]))
        // A true byte-for-byte repeat is still refused.
        #expect(Self.refusal(#"{"e\u0301":1,"e\u0301":2}"#)?.message.hasPrefix("duplicate key") == true)
    }

    @Test("maxDepth is capped: 10,001 asked for, 10,000 levels refused instead of overflowing the stack")
    func maxDepthIsCapped() throws {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let refusal = Self.refusal(deep, maxDepth: 10_001)
        #expect(refusal?.message == "nested deeper than \(JSONParser.maxDepthCap) levels")
        let atCap = String(repeating: "[", count: JSONParser.maxDepthCap) + String(repeating: "]", count: JSONParser.maxDepthCap)
        #expect(throws: Never.self) { try JSONParser.parse(atCap, maxDepth: .max) }
        #expect(Self.refusal("[1]", maxDepth: -5)?.message == "nested deeper than 0 levels")
    }

    @Test func unterminatedString() {
        #expect(Self.refusal("\"abc") == JSONError(message: "unterminated string", line: 1, column: 5))
        #expect(Self.refusal("[\"é") == JSONError(message: "unterminated string", line: 1, column: 4))
        #expect(Self.refusal(#""abc\"#) == JSONError(message: "unterminated escape", line: 1, column: 6))
    }

    @Test func invalidEscape() {
        #expect(Self.refusal(#""a\x""#) == JSONError(message: #"invalid escape \'x'"#, line: 1, column: 4))
        #expect(Self.refusal(#"["ok", "\a"]"#) == JSONError(message: #"invalid escape \'a'"#, line: 1, column: 10))
        #expect(Self.refusal(#""\u12""#) == JSONError(message: #"expected four hex digits after \u"#, line: 1, column: 6))
        #expect(Self.refusal(#""\u12G4""#) == JSONError(message: #"expected four hex digits after \u"#, line: 1, column: 6))
        #expect(Self.refusal(#""\U0041""#) == JSONError(message: #"invalid escape \'U'"#, line: 1, column: 3))
    }

    @Test func loneSurrogates() {
        #expect(Self.refusal(#""\uD800""#) == JSONError(message: #"unpaired surrogate \ud800"#, line: 1, column: 8))
        #expect(Self.refusal(#""\uDC00""#) == JSONError(message: #"unpaired surrogate \udc00"#, line: 1, column: 8))
        #expect(Self.refusal(#""\uD800x""#) == JSONError(message: #"unpaired surrogate \ud800"#, line: 1, column: 8))
        #expect(Self.refusal(#""\uD800\u0041""#) == JSONError(message: #"unpaired surrogate \ud800"#, line: 1, column: 14))
        #expect(Self.refusal(#""\uD800\uD800""#) == JSONError(message: #"unpaired surrogate \ud800"#, line: 1, column: 14))
        #expect(Self.refusal(#""\uD800\n""#) == JSONError(message: #"unpaired surrogate \ud800"#, line: 1, column: 8))
    }

    @Test func rawControlCharacterInAString() {
        #expect(Self.refusal("\"a\tb\"") == JSONError(message: "control character in a string", line: 1, column: 3))
        #expect(Self.refusal("[\n\"line\nbreak\"]") == JSONError(message: "control character in a string", line: 2, column: 6))
        #expect(Self.refusal([0x22, 0x00, 0x22]) == JSONError(message: "control character in a string", line: 1, column: 2))
        #expect(Self.refusal([0x22, 0x1F, 0x22]) == JSONError(message: "control character in a string", line: 1, column: 2))
        // DEL is not a control character in JSON's sense.
        #expect(throws: Never.self) { try JSONParser.parse([0x22, 0x7F, 0x22]) }
    }

    @Test func invalidUTF8() throws {
        // Outside a string: the bad byte is the unexpected character.
        #expect(Self.refusal([0xFF]) == JSONError(message: "unexpected character byte 0xff, expected a value", line: 1, column: 1))
        #expect(Self.refusal([0x5B, 0x31, 0x2C, 0xC3]) == JSONError(message: "unexpected character byte 0xc3, expected a value", line: 1, column: 4))
        // Inside strings: a stray continuation byte, a truncated sequence, an
        // encoded surrogate, an overlong encoding.
        let bad: [[UInt8]] = [[0x80], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF8, 0x88, 0x80, 0x80, 0x80]]
        for sequence in bad {
            let error = try #require(Self.refusal([0x22, 0x61] + sequence + [0x62, 0x22]))
            #expect(error.message == "invalid UTF-8 in a string", "\(sequence)")
            #expect(error.line == 1)
            // Somewhere inside the string: not before its opening quote.
            #expect(error.column >= 3, "\(sequence)")
        }
        // Invalid bytes before an escape and after the last escape.
        #expect(Self.refusal([0x22, 0xFF, 0x5C, 0x6E, 0x22])?.message == "invalid UTF-8 in a string")
        #expect(Self.refusal([0x22, 0x5C, 0x6E, 0xFF, 0x22])?.message == "invalid UTF-8 in a string")
        #expect(Self.refusal([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D])?.message == "invalid UTF-8 in a string")
    }

    @Test func invalidUTF8ColumnPointsAtTheBadByte() {
        // "a<FF>bcdef": the bad byte is the third character.
        let error = Self.refusal([0x22, 0x61, 0xFF, 0x62, 0x63, 0x64, 0x65, 0x66, 0x22])
        #expect(error?.message == "invalid UTF-8 in a string")
        #expect(error?.column == 3)
    }

    @Test func nestingDeeperThanMaxDepth() {
        let limit = JSONParser.defaultMaxDepth
        let arrays = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(Self.refusal(arrays) == JSONError(message: "nested deeper than \(limit) levels", line: 1, column: limit + 1))
        let objects = String(repeating: "{\"k\":", count: limit + 1) + "1" + String(repeating: "}", count: limit + 1)
        #expect(Self.refusal(objects) == JSONError(message: "nested deeper than \(limit) levels", line: 1, column: 5 * limit + 1))
        #expect(Self.refusal("[[[1]]]", maxDepth: 2) == JSONError(message: "nested deeper than 2 levels", line: 1, column: 3))
        #expect(Self.refusal("[{\"a\":[]}]", maxDepth: 2) == JSONError(message: "nested deeper than 2 levels", line: 1, column: 7))
        #expect(Self.refusal("[]", maxDepth: 0) == JSONError(message: "nested deeper than 0 levels", line: 1, column: 1))
        // Far deeper than any stack could take by recursion: refused, not a crash.
        let hostile = String(repeating: "[", count: 1_000_000)
        #expect(Self.refusal(hostile)?.message == "nested deeper than \(limit) levels")
    }

    @Test func columnsCountCharactersNotBytes() {
        // é is 2 bytes, € 3 and 😀 4; x is the 9th character but the 15th byte.
        #expect(Self.refusal("[\"é€😀\", x]") == JSONError(message: "unexpected character 'x', expected a value", line: 1, column: 9))
        #expect(Self.refusal("{\"ключ\": 1,\n \"ü\": tru}") == JSONError(message: "unexpected character 't', expected a value", line: 2, column: 7))
        #expect(Self.refusal("\"日本語\tx\"") == JSONError(message: "control character in a string", line: 1, column: 5))
        #expect(Self.refusal("{\"é\":1,\"é\":2}") == JSONError(message: "duplicate key \"é\"", line: 1, column: 8))
        #expect(Self.refusal("[\"😀\" \"😀\"]") == JSONError(message: "expected ',' or ']' in an array, found '\"'", line: 1, column: 6))
    }

    @Test func errorDescriptionNamesLineAndColumn() {
        let error = JSONError(message: "duplicate key \"a\"", line: 3, column: 7)
        #expect(error.description == "line 3, column 7: duplicate key \"a\"")
    }
}
