/// Checks that a text is JSON the way `JSONParser` would accept it, without
/// building any values: the bus checks every payload, and building a tree
/// only to throw it away was most of a publish's cost.
///
/// The scan answers "valid" only when it is certain; anything it does not
/// settle itself (an error, a `\u` surrogate escape, a key with an escape,
/// non-ASCII keys or many keys in one object, where duplicate detection
/// needs the parser's own comparison) is handed to `JSONParser`, so both
/// always agree and an error always carries the parser's message and
/// position.
enum JSONValidator {
    /// Nil if `text` is valid JSON, else why not.
    static func problem(in text: String, maxDepth: Int = JSONParser.defaultMaxDepth) -> String? {
        // `publish`'s default payload, which most notices carry (a tick, a
        // "changed"): valid at a glance, without setting up a scan.
        if text.utf8.count == 2 && text == "{}" { return nil }
        // The bytes in place (a native string's are contiguous): no copy of
        // the string to make it so, as `withUTF8` on a `var` would need.
        let certain = text.utf8.withContiguousStorageIfAvailable { bytes in
            withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: Scan.keysHeld) { keys in
                var scan = Scan(bytes: bytes, keys: keys, maxDepth: maxDepth)
                return scan.isCertainlyValid()
            }
        }
        if certain == true { return nil }
        do {
            _ = try JSONParser.parse(text, maxDepth: maxDepth)
            return nil
        } catch {
            return "\(error)"
        }
    }

    private struct Unsure: Error {}

    /// One pass over the bytes. Swift text is already valid UTF-8, so only
    /// the JSON grammar is checked here.
    private struct Scan {
        let bytes: UnsafeBufferPointer<UInt8>
        let maxDepth: Int
        var index = 0
        /// The keys of the objects being scanned, innermost last, as byte
        /// ranges: `keyCount` of them, on the stack (a heap array cost more
        /// than scanning a small payload). More than fit: the parser judges.
        let keys: UnsafeMutableBufferPointer<Range<Int>>
        var keyCount = 0

        static let keysCompared = 16
        static let keysHeld = 64

        init(bytes: UnsafeBufferPointer<UInt8>, keys: UnsafeMutableBufferPointer<Range<Int>>, maxDepth: Int) {
            self.bytes = bytes
            self.keys = keys
            self.maxDepth = maxDepth
        }

        mutating func isCertainlyValid() -> Bool {
            do {
                skipSpace()
                try value(depth: 0)
                skipSpace()
                return index == bytes.count
            } catch {
                return false
            }
        }

        private mutating func value(depth: Int) throws(Unsure) {
            guard index < bytes.count else { throw Unsure() }
            switch bytes[index] {
            case UInt8(ascii: "{"): try object(depth: depth + 1)
            case UInt8(ascii: "["): try array(depth: depth + 1)
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            default: throw Unsure()
            }
        }

        private mutating func object(depth: Int) throws(Unsure) {
            guard depth <= maxDepth else { throw Unsure() }
            index += 1
            let base = keyCount
            defer { keyCount = base }
            skipSpace()
            if take(UInt8(ascii: "}")) { return }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Unsure() }
                let (key, plain) = try string()
                // Only plain ASCII keys are compared here, so that equal bytes
                // mean equal keys under any comparison the parser makes.
                guard plain, keyCount - base < Self.keysCompared, keyCount < keys.count else { throw Unsure() }
                for other in keys[base..<keyCount] where bytes[other].elementsEqual(bytes[key]) { throw Unsure() }
                keys.initializeElement(at: keyCount, to: key)
                keyCount += 1
                skipSpace()
                guard take(UInt8(ascii: ":")) else { throw Unsure() }
                skipSpace()
                try value(depth: depth)
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                guard take(UInt8(ascii: "}")) else { throw Unsure() }
                return
            }
        }

        private mutating func array(depth: Int) throws(Unsure) {
            guard depth <= maxDepth else { throw Unsure() }
            index += 1
            skipSpace()
            if take(UInt8(ascii: "]")) { return }
            while true {
                skipSpace()
                try value(depth: depth)
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                guard take(UInt8(ascii: "]")) else { throw Unsure() }
                return
            }
        }

        /// The string's content bytes, and whether they are ASCII with no escape.
        private mutating func string() throws(Unsure) -> (Range<Int>, Bool) {
            index += 1
            let start = index
            var plain = true
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return (start..<index - 1, plain)
                case ..<0x20:
                    throw Unsure()
                case UInt8(ascii: "\\"):
                    plain = false
                    try escape()
                case 0x80...:
                    plain = false
                    index += 1
                default:
                    index += 1
                }
            }
            throw Unsure()
        }

        private mutating func escape() throws(Unsure) {
            index += 1
            guard index < bytes.count else { throw Unsure() }
            switch bytes[index] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                index += 1
            case UInt8(ascii: "u"):
                index += 1
                var value: UInt32 = 0
                for _ in 0..<4 {
                    guard index < bytes.count, let digit = hexValue(bytes[index]) else { throw Unsure() }
                    value = value << 4 | digit
                    index += 1
                }
                // Surrogate pairs have rules of their own: the parser judges them.
                if (0xD800..<0xE000).contains(value) { throw Unsure() }
            default:
                throw Unsure()
            }
        }

        private mutating func number() throws(Unsure) {
            _ = take(UInt8(ascii: "-"))
            if !take(UInt8(ascii: "0")) {
                guard digits() > 0 else { throw Unsure() }
            }
            if take(UInt8(ascii: ".")) {
                guard digits() > 0 else { throw Unsure() }
            }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                guard digits() > 0 else { throw Unsure() }
            }
        }

        private mutating func digits() -> Int {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - start
        }

        private mutating func literal(_ word: StaticString) throws(Unsure) {
            let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            guard bytes.count - index >= expected.count, bytes[index..<index + expected.count].elementsEqual(expected) else { throw Unsure() }
            index += expected.count
        }

        private mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private func hexValue(_ byte: UInt8) -> UInt32? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
            default: nil
            }
        }
    }
}
