import Glibc

/// A JSON document as a value.
///
/// The host parses everything that crosses a trust boundary (manifests,
/// configuration, bus payloads, view descriptions) with one strict parser of
/// its own, so that every refusal names a line and column, and nesting depth
/// is bounded instead of exhausting the stack. Numbers keep their literal
/// text, so money never passes through a Double.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in document order; a repeated key is refused by the parser.
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): sameBytes(a, b)
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { sameBytes($0.0, $1.0) && $0.1 == $1.1 }
        default: false
        }
    }

    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        // By index, not `first(where:)`: that copies (retains and releases)
        // each member it passes, and a manifest asks for some 30 keys.
        for index in members.indices where Self.sameBytes(members[index].0, key) { return members[index].1 }
        return nil
    }

    /// JSON compares strings by code units, not by Unicode canonical
    /// equivalence as Swift's `==` does: "\u{E9}" and "e\u{301}" are
    /// different keys. Inlined, so that the usual miss, a key of another
    /// length, costs no call.
    @inline(__always)
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && sameBytes(sameCount: a, b)
    }

    private static func sameBytes(sameCount a: String, _ b: String) -> Bool {
        // Equal bytes are canonically equivalent, so Strings that are not
        // `==` differ in their bytes: for short ASCII keys one comparison of
        // two integers. Only an `==` pair is compared byte by byte.
        guard a == b else { return false }
        let a = a.utf8, b = b.utf8
        guard a.count > 0 else { return true }
        // Native strings (every parsed one) are contiguous: one memcmp.
        let same = a.withContiguousStorageIfAvailable { a in
            b.withContiguousStorageIfAvailable { b in memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
        return (same ?? nil) ?? a.elementsEqual(b)
    }

    public var string: String? {
        if case let .string(value) = self { return value }
        return nil
    }

    /// A whole number, when it is a JSON number that fits.
    public var int64: Int64? {
        guard case let .number(text) = self else { return nil }
        return Int64(text)
    }

    public var array: [JSONValue]? {
        if case let .array(value) = self { return value }
        return nil
    }

    public var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    /// Compact JSON text.
    public var serialized: String {
        String(decoding: serializedBytes, as: UTF8.self)
    }

    /// Compact JSON as UTF-8 bytes: built as bytes, not by appending to a
    /// String, which costs several times more per piece (a frame's fields,
    /// a bus payload and a view are written this way on every call).
    public var serializedBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(to: &out)
        return out
    }

    /// The same bytes, appended to `out`: a caller that serializes on every
    /// call keeps one buffer instead of making an array and a string each time.
    public func serialize(appendingTo out: inout [UInt8]) {
        write(to: &out)
    }

    private func write(to out: inout [UInt8]) {
        switch self {
        case .null: Self.append("null", to: &out)
        case let .bool(value): Self.append(value ? "true" : "false", to: &out)
        case let .number(text): out.append(contentsOf: text.utf8)
        case let .string(value): JSONValue.quote(value, into: &out)
        case let .array(items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case let .object(members):
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.quote(key, into: &out)
                out.append(UInt8(ascii: ":"))
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A JSON string: quotes, backslashes and control characters escaped,
    /// every other byte (UTF-8 sequences whole) copied as it is.
    static func quote(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"", to: &out)
            case UInt8(ascii: "\\"): append("\\\\", to: &out)
            case UInt8(ascii: "\n"): append("\\n", to: &out)
            case UInt8(ascii: "\r"): append("\\r", to: &out)
            case UInt8(ascii: "\t"): append("\\t", to: &out)
            case 0..<0x20:
                let hex: StaticString = "0123456789abcdef"
                append("\\u00", to: &out)
                out.append(hex.utf8Start[Int(byte >> 4)])
                out.append(hex.utf8Start[Int(byte & 15)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    public init(nilLiteral: ()) { self = .null }

    /// A string, or null when there is none.
    public static func optional(_ value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }
}
