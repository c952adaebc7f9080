import Glibc

/// Why a JSON text was refused, and where.
public struct JSONError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public let line: Int
    public let column: Int

    public var description: String { "line \(line), column \(column): \(message)" }
}

/// A strict RFC 8259 parser over UTF-8 bytes.
///
/// It reads through an unsafe buffer and validates UTF-8 with a hand-written
/// check of the sequences Unicode allows (table 3-7): strings are the bulk of
/// what the host parses (manifests, frames, bookings), and the generic
/// `String(validating:)` over an array slice cost most of a parse.
public struct JSONParser {
    public static let defaultMaxDepth = 64
    /// The deepest any caller may ask for: the parser recurses once per
    /// level, and a few hundred levels fit in the smallest thread stack we
    /// run on. A larger `maxDepth` is lowered to this.
    public static let maxDepthCap = 512

    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONError) -> JSONValue {
        var text = text
        // withUTF8 rethrows untyped errors: the result crosses it as a value.
        return try text.withUTF8 { bytes in Result { () throws(JSONError) in try parse(bytes, maxDepth: maxDepth) } }.get()
    }

    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { bytes throws(JSONError) in try parse(bytes, maxDepth: maxDepth) }
    }

    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = defaultMaxDepth) throws(JSONError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    /// Whether `bytes` are one JSON number and nothing else, by the grammar
    /// the parser reads numbers with (a binary form that carries a number as
    /// its text checks it here).
    package static func isNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var parser = JSONParser(bytes: bytes, maxDepth: 0)
        return (try? parser.number()) != nil && parser.index == bytes.count
    }

    /// Objects with more members than this find duplicate keys through a set;
    /// below it, comparing with each earlier key is cheaper than hashing.
    private static let linearKeySearchLimit = 16

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    private var index = 0

    private init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = min(max(maxDepth, 0), Self.maxDepthCap)
    }

    private mutating func value(depth: Int) throws(JSONError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected character \(describe(bytes[index])), expected a value")
        }
    }

    private mutating func object(depth: Int) throws(JSONError) -> JSONValue {
        guard depth <= maxDepth else { throw error("nested deeper than \(maxDepth) levels") }
        index += 1
        var members: [(String, JSONValue)] = []
        var keys = Set<KeyBytes>()
        skipSpace()
        if peek(UInt8(ascii: "}")) { index += 1; return .object(members) }
        members.reserveCapacity(8)   // growing from empty reallocates three times on the way to a typical object
        while true {
            skipSpace()
            guard peek(UInt8(ascii: "\"")) else { throw error("expected a string key") }
            let keyStart = index
            let key = try string()
            if Self.isDuplicate(key, in: members, &keys) {
                index = keyStart
                throw error("duplicate key \"\(key)\"")
            }
            skipSpace()
            try expect(UInt8(ascii: ":"), "expected ':' after a key")
            skipSpace()
            members.append((key, try value(depth: depth)))
            skipSpace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            try expect(UInt8(ascii: "}"), "expected ',' or '}' in an object")
            return .object(members)
        }
    }

    /// Whether `key` is already among `members`: by comparing bytes while the
    /// object is small, through `keys` (filled on first use) once it is large.
    /// The host's binary frame fields refuse a repeated key by this too.
    package static func isDuplicate(_ key: String, in members: [(String, JSONValue)], _ keys: inout Set<KeyBytes>) -> Bool {
        if members.count < linearKeySearchLimit { return members.contains { JSONValue.sameBytes($0.0, key) } }
        if keys.isEmpty { keys = Set(members.map { KeyBytes($0.0) }) }
        return !keys.insert(KeyBytes(key)).inserted
    }

    private mutating func array(depth: Int) throws(JSONError) -> JSONValue {
        guard depth <= maxDepth else { throw error("nested deeper than \(maxDepth) levels") }
        index += 1
        var items: [JSONValue] = []
        skipSpace()
        if peek(UInt8(ascii: "]")) { index += 1; return .array(items) }
        items.reserveCapacity(8)
        while true {
            skipSpace()
            items.append(try value(depth: depth))
            skipSpace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            try expect(UInt8(ascii: "]"), "expected ',' or ']' in an array")
            return .array(items)
        }
    }

    /// A string without escapes (most of them) is one validated run of the
    /// input; the first backslash hands over to `escapedString`.
    private mutating func string() throws(JSONError) -> String {
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                index += 1   // plain ASCII, the common case, without a call
                continue
            }
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index - 1]), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
            try skipCharacter(byte)
        }
        throw error("unterminated string")
    }

    /// The rest of a string that holds escapes, decoded into a byte buffer.
    private mutating func escapedString(from start: Int) throws(JSONError) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(index - start + 16)
        decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: decoded, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                decoded.append(contentsOf: UTF8.encode(try escape())!)
                continue
            }
            let characterStart = index
            try skipCharacter(byte)
            decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[characterStart..<index]))
        }
        throw error("unterminated string")
    }

    /// Steps over one character of a string that starts with `byte`, refusing
    /// control characters and any UTF-8 sequence Unicode does not allow
    /// (overlong forms, surrogates, beyond U+10FFFF, truncated).
    private mutating func skipCharacter(_ byte: UInt8) throws(JSONError) {
        if byte < 0x20 { throw error("control character in a string") }
        if byte < 0x80 { index += 1; return }
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF   // the allowed range of the second byte
        switch byte {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xED: length = 3; high = 0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; low = 0x90
        case 0xF4: length = 4; high = 0x8F
        case 0xF1...0xF3: length = 4
        default: throw error("invalid UTF-8 in a string")
        }
        guard index + length <= bytes.count else { throw error("unterminated string") }
        guard (low...high).contains(bytes[index + 1]) else { throw error("invalid UTF-8 in a string") }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { throw error("invalid UTF-8 in a string") }
        index += length
    }

    private mutating func escape() throws(JSONError) -> Unicode.Scalar {
        index += 1
        guard index < bytes.count else { throw error("unterminated escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try hex4()
            if (0xD800..<0xDC00).contains(high) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("unpaired surrogate \\u\(String(high, radix: 16))")
                }
                index += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate \\u\(String(high, radix: 16))") }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else { throw error("unpaired surrogate \\u\(String(high, radix: 16))") }
            return scalar
        default:
            index -= 1
            throw error("invalid escape \\\(describe(byte))")
        }
    }

    private mutating func hex4() throws(JSONError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = hexValue(bytes[index]) else { throw error("expected four hex digits after \\u") }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func number() throws(JSONError) -> String {
        let start = index
        if peek(UInt8(ascii: "-")) { index += 1 }
        if peek(UInt8(ascii: "0")) {
            index += 1
        } else {
            guard digits() > 0 else { throw error("expected a digit") }
        }
        if peek(UInt8(ascii: ".")) {
            index += 1
            guard digits() > 0 else { throw error("expected a digit after '.'") }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard digits() > 0 else { throw error("expected a digit in the exponent") }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: StaticString) throws(JSONError) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count, memcmp(bytes.baseAddress! + index, word.utf8Start, count) == 0 else {
            throw error("unexpected character \(describe(bytes[index])), expected a value")
        }
        index += count
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    private mutating func expect(_ byte: UInt8, _ message: String) throws(JSONError) {
        guard peek(byte) else {
            throw error(index < bytes.count ? "\(message), found \(describe(bytes[index]))" : "unexpected end of input, \(message)")
        }
        index += 1
    }

    private func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    /// The error at the current position; columns count characters, not bytes.
    private func error(_ message: String) -> JSONError {
        let position = min(index, bytes.count)
        var line = 1
        var lineStart = 0
        for i in 0..<position where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        let column = 1 + bytes[lineStart..<position].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return JSONError(message: message, line: line, column: column)
    }
}

/// An object key as its UTF-8 bytes: duplicates are found by bytes, so two
/// keys that differ only in Unicode normal form are two keys (RFC 8259 compares
/// code units), where `Set<String>` would call them one.
package struct KeyBytes: Hashable {
    let key: String
    init(_ key: String) { self.key = key }
    package static func == (a: KeyBytes, b: KeyBytes) -> Bool { JSONValue.sameBytes(a.key, b.key) }
    package func hash(into hasher: inout Hasher) {
        if key.utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) }) == nil {
            for byte in key.utf8 { hasher.combine(byte) }
        }
    }
}
