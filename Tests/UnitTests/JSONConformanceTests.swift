import Testing
@testable import PluginKit
@testable import TestSupport

/// Cases from Nicolas Seriot's JSONTestSuite (named as there): every `y_`
/// document parses, every `n_` one is refused. They pin what the parser
/// accepts and refuses while its insides are tuned for speed; the large
/// object cases cross the point where duplicate keys are found by a set
/// rather than by comparing with each earlier key.
@Suite("JSON conformance (JSONTestSuite cases)")
struct JSONConformanceTests {
    static let accepted: [(String, Document)] = [
        ("y_array_arraysWithSpaces", "[[]   ]"), ("y_array_empty-string", "[\"\"]"), ("y_array_heterogeneous", "[null, 1, \"1\", {}]"),
        ("y_number_negative_zero", "[-0]"), ("y_number_real_capital_e_neg_exp", "[1E-2]"), ("y_number_simple_real", "[123.456789]"),
        ("y_object_duplicated_key_and_value", "{\"a\":\"b\",\"b\":\"b\"}"), ("y_object_empty_key", "{\"\":0}"),
        ("y_object_escaped_null_in_key", "{\"foo\\u0000bar\": 42}"), ("y_string_1_2_3_bytes_UTF-8_sequences", "[\"\\u0060\\u012a\\u12AB\"]"),
        ("y_string_accepted_surrogate_pair", "[\"\\uD801\\udc37\"]"), ("y_string_allowed_escapes", "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"]"),
        ("y_string_last_surrogates_1_and_2", "[\"\\uDBFF\\uDFFF\"]"), ("y_string_nonCharacterInUTF-8_U+FFFF", [0x5B, 0x22, 0xEF, 0xBF, 0xBF, 0x22, 0x5D]),
        ("y_string_utf8", "[\"€𝄞\"]"), ("y_string_unicode_U+10FFFE_nonchar", [0x5B, 0x22, 0xF4, 0x8F, 0xBF, 0xBE, 0x22, 0x5D]),
        ("y_string_u+2028_line_sep", [0x5B, 0x22, 0xE2, 0x80, 0xA8, 0x22, 0x5D]), ("y_structure_lonely_string", "\"asd\""),
        ("y_structure_whitespace_array", " [] "), ("y_string_with_del_character", [0x5B, 0x22, 0x61, 0x7F, 0x61, 0x22, 0x5D]),
        ("large object, distinct keys", Document(text: "{" + (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}")),
    ]

    static let refused: [(String, Document)] = [
        ("n_array_1_true_without_comma", "[1 true]"), ("n_array_extra_comma", "[\"\",]"), ("n_array_unclosed", "[\"\""),
        ("n_number_-01", "[-01]"), ("n_number_.2e-3", "[.2e-3]"), ("n_number_0.e1", "[0.e1]"), ("n_number_+1", "[+1]"),
        ("n_number_NaN", "[NaN]"), ("n_number_infinity", "[Infinity]"), ("n_number_hex_1_digit", "[0x1]"),
        ("n_object_trailing_comma", "{\"id\":0,}"), ("n_object_non_string_key", "{1:1}"), ("n_object_single_quote", "{'a':0}"),
        ("n_object_missing_value", "{\"a\":"), ("n_string_single_quote", "['single quote']"), ("n_string_escape_x", "[\"\\x00\"]"),
        ("n_string_invalid_utf8_after_escape", [0x5B, 0x22, 0x5C, 0xE5, 0x22, 0x5D]), ("n_string_unescaped_tab", [0x5B, 0x22, 0x09, 0x22, 0x5D]),
        ("n_string_unescaped_newline", [0x5B, 0x22, 0x6E, 0x0A, 0x22, 0x5D]), ("n_string_invalid_backslash_esc", "[\"\\a\"]"),
        ("n_string_1_surrogate_then_escape_u1", "[\"\\uD800\\u1\"]"), ("n_string_incomplete_surrogate_escape_invalid", "[\"\\uD800\\uD800\\x\"]"),
        ("n_structure_lone-open-bracket", "["), ("n_structure_trailing_#", "{\"a\":\"b\"}#{}"), ("n_structure_null-byte-outside-string", [0x5B, 0x00, 0x5D]),
        ("n_structure_capitalized_True", "[True]"), ("n_structure_UTF8_BOM_no_data", [0xEF, 0xBB, 0xBF]), ("n_incomplete_null", "[nul]"),
        ("i_string_UTF-8_invalid_sequence", [0x5B, 0x22, 0xE6, 0x97, 0xA5, 0xD1, 0x88, 0xFA, 0x22, 0x5D]),
        ("i_string_overlong_sequence_2_bytes", [0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D]),
        ("i_string_overlong_sequence_6_bytes", [0x5B, 0x22, 0xFC, 0x83, 0xBF, 0xBF, 0xBF, 0xBF, 0x22, 0x5D]),
        ("i_string_UTF8_surrogate_U+D800", [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D]),
        ("i_string_not_in_unicode_range", [0x5B, 0x22, 0xF4, 0xBF, 0xBF, 0xBF, 0x22, 0x5D]),
        ("i_string_truncated-utf-8", [0x5B, 0x22, 0xE0, 0xFF, 0x22, 0x5D]), ("i_string_lone_utf8_continuation_byte", [0x5B, 0x22, 0x81, 0x22, 0x5D]),
        ("i_string_overlong 3 bytes", [0x5B, 0x22, 0xE0, 0x80, 0xAF, 0x22, 0x5D]),
        ("i_string_overlong 4 bytes", [0x5B, 0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22, 0x5D]),
        ("i_string_lone_second_surrogate", "[\"\\uDFAA\"]"), ("n_string_truncated at the end", [0x5B, 0x22, 0xE2, 0x82]),
        ("large object, last key repeats the first", Document(text: "{" + (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k0\":1}")),
        ("large object, repeated key with an escape", Document(text: "{" + (0..<20).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"\\u006b7\":1}")),
    ]

    @Test(arguments: accepted.map(\.0))
    func accepts(_ name: String) throws {
        let bytes = try #require(Self.accepted.first { $0.0 == name }?.1.bytes)
        #expect(throws: Never.self) { try JSONParser.parse(bytes) }
    }

    @Test(arguments: refused.map(\.0))
    func refuses(_ name: String) throws {
        let bytes = try #require(Self.refused.first { $0.0 == name }?.1.bytes)
        #expect(throws: JSONError.self) { try JSONParser.parse(bytes) }
    }

    @Test("a large object's duplicate is named at its position, like a small one's")
    func largeObjectDuplicateIsPlaced() {
        let members = (0..<30).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let text = "{" + members + ",\"k29\":0}"
        #expect(JSONParserTests.refusal(text) == JSONError(message: "duplicate key \"k29\"", line: 1, column: members.utf8.count + 3))
    }

    @Test("escaped and raw spellings of a key are the same key")
    func escapedKeyDuplicates() {
        #expect(JSONParserTests.refusal(#"{"é":1,"\u00e9":2}"#)?.message == "duplicate key \"é\"")
    }
}

/// A test document, written as text or, where it must hold invalid UTF-8, as bytes.
struct Document: ExpressibleByStringLiteral, ExpressibleByArrayLiteral {
    let bytes: [UInt8]
    init(text: String) { bytes = Array(text.utf8) }
    init(stringLiteral value: String) { self.init(text: value) }
    init(arrayLiteral elements: UInt8...) { bytes = elements }
}
