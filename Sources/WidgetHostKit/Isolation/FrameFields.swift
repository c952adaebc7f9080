/// A frame's fields on the wire: the same `JSONValue` both sides build and
/// read, in a binary form of its own rather than JSON text. Escaping,
/// quoting and scanning text cost most of the host's side of an isolated
/// call; here a string is a length and its bytes, copied whole.
///
/// A value is a tag byte, then:
/// - null, false, true: nothing;
/// - number: a u32 little-endian length and the number's JSON text;
/// - string: a u32 little-endian length and that many bytes of UTF-8;
/// - array: a u32 little-endian count and that many values;
/// - object: a u32 little-endian count and that many members, each a key
///   (a length and UTF-8, as a string) and a value.
///
/// The reader refuses what the JSON parser would: invalid UTF-8, a number
/// that is not JSON's, a repeated key, nesting past the parser's default
/// depth, and any length or count that runs past the end.
enum FrameFields {
    enum Tag: UInt8 {
        case null = 0, `false`, `true`, number, string, array, object
    }

    static func write(_ value: JSONValue, to out: FrameWriter) {
        switch value {
        case .null: out.append(Tag.null.rawValue)
        case let .bool(flag): out.append((flag ? Tag.true : Tag.false).rawValue)
        case let .number(text): writeText(text, tag: .number, to: out)
        case let .string(text): writeText(text, tag: .string, to: out)
        case let .array(items):
            out.append(Tag.array.rawValue)
            out.append(u32: UInt32(items.count))
            for item in items { write(item, to: out) }
        case let .object(members):
            out.append(Tag.object.rawValue)
            out.append(u32: UInt32(members.count))
            for (key, member) in members {
                writeText(key, to: out)
                write(member, to: out)
            }
        }
    }

    /// A length and the text's UTF-8, after `tag` if there is one.
    static func writeText(_ text: String, tag: Tag? = nil, to out: FrameWriter) {
        if let tag { out.append(tag.rawValue) }
        out.append(u32: UInt32(text.utf8.count))
        out.append(utf8: text)
    }

    /// Reads a frame's head: named fields, or the fixed layouts of
    /// `ChildCall` and `CallAnswer`, which are made of the same parts (a
    /// byte, a length and text, a value). Every read checks what is left.
    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        private(set) var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        /// Named fields: an object, the whole head.
        mutating func fields() throws(FrameError) -> JSONValue {
            let value = try value(depth: 0)
            guard value.isObject else { throw .malformed("its fields are not an object") }
            return value
        }

        /// Moves past every byte left, as if read.
        mutating func skipToEnd() { index = bytes.count }

        /// Refuses bytes left over once the head is read.
        func finish() throws(FrameError) {
            guard index == bytes.count else { throw .malformed("its head has bytes after its end") }
        }

        mutating func byte() throws(FrameError) -> UInt8 {
            guard index < bytes.count else { throw .malformed("its head ends inside a value") }
            defer { index += 1 }
            return bytes[index]
        }

        mutating func value(depth: Int) throws(FrameError) -> JSONValue {
            let byte = try byte()
            switch Tag(rawValue: byte) {
            case .null: return .null
            case .false: return .bool(false)
            case .true: return .bool(true)
            case .number:
                let run = try self.run()
                // The parser's own grammar: one definition of a JSON number.
                guard JSONParser.isNumber(run) else { throw .malformed("its head holds a number that is not JSON's") }
                return .number(String(decoding: run, as: UTF8.self))
            case .string: return .string(try text())
            case .array:
                guard depth < JSONParser.defaultMaxDepth else { throw .malformed("its head nests deeper than \(JSONParser.defaultMaxDepth) levels") }
                let count = try self.count(eachAtLeast: 1)
                var items: [JSONValue] = []
                if count > 0 { items.reserveCapacity(min(count, Self.reserved)) }
                for _ in 0..<count { items.append(try value(depth: depth + 1)) }
                return .array(items)
            case .object:
                guard depth < JSONParser.defaultMaxDepth else { throw .malformed("its head nests deeper than \(JSONParser.defaultMaxDepth) levels") }
                let count = try self.count(eachAtLeast: 5)   // a key's length and a value's tag
                var members: [(String, JSONValue)] = []
                // Reserving room for none would allocate it.
                if count > 0 { members.reserveCapacity(min(count, Self.reserved)) }
                var keys = Set<KeyBytes>()
                for _ in 0..<count {
                    let key = try text()
                    if JSONParser.isDuplicate(key, in: members, &keys) { throw .malformed("its head repeats the key \"\(key)\"") }
                    members.append((key, try value(depth: depth + 1)))
                }
                return .object(members)
            case nil: throw .malformed("its head holds an unknown tag \(byte)")
            }
        }

        /// Room made ahead for a container's values, at most: a count is the
        /// other side's word, and 64 nested containers each announcing every
        /// byte left would otherwise reserve gigabytes before the first is read.
        private static let reserved = 16

        /// A count of values still to come, each at least `eachAtLeast` bytes:
        /// a count the bytes left cannot hold is a lie, refused at once.
        private mutating func count(eachAtLeast size: Int) throws(FrameError) -> Int {
            let count = try u32()
            guard count <= (bytes.count - index) / size else { throw .malformed("its head announces more values than it holds") }
            return count
        }

        /// A length and that many bytes.
        private mutating func run() throws(FrameError) -> UnsafeBufferPointer<UInt8> {
            let count = try u32()
            guard count <= bytes.count - index else { throw .malformed("its head runs past its end") }
            defer { index += count }
            return UnsafeBufferPointer(rebasing: bytes[index..<index + count])
        }

        mutating func text() throws(FrameError) -> String {
            let run = try self.run()
            // ASCII, nearly every key and value, is valid as it is; the generic
            // validation looks up its metadata at run time, on every call.
            if run.allSatisfy({ $0 < 0x80 }) { return String(decoding: run, as: UTF8.self) }
            guard let text = String(validating: run, as: UTF8.self) else { throw .malformed("its head holds invalid UTF-8") }
            return text
        }

        mutating func u32() throws(FrameError) -> Int {
            guard bytes.count - index >= 4 else { throw .malformed("its head ends inside a length") }
            defer { index += 4 }
            return Int(Frame.u32(bytes, at: index))
        }

    }
}
