/// One message between the host and an isolated plugin's process.
///
/// On the wire: a 9-byte header (payload length as u32 little-endian, the
/// kind as u8, the request id as u32 little-endian), then the payload: a u32
/// little-endian length, that many bytes of the message's fields (a JSON
/// value in the binary form of `FrameFields`, not JSON text), and the rest as
/// raw bytes (a rendered view, a value to store). Raw bytes stay raw, so a
/// large view is not escaped into a string.
///
/// Neither side trusts the other's lengths: a frame whose header announces
/// more than `maxPayloadBytes` is refused before anything is read into
/// memory, in both directions.
public struct Frame: Equatable, Sendable {
    public enum Kind: UInt8, Sendable, CaseIterable {
        /// Child to host, first: the protocol version and the sandbox it got.
        case hello = 1
        /// Host to child: create, render, action, event or destroy.
        case call = 2
        /// Child to host: the answer to a call, with the same id.
        case result = 3
        /// Child to host: a host service call from any of the plugin's threads.
        case service = 4
        /// Host to child: the answer to a service call, with the same id.
        case reply = 5
        /// Child to host: `request_render`; no answer.
        case wake = 6
    }

    public var kind: Kind
    public var id: UInt32
    public var fields: JSONValue
    public var body: [UInt8]

    public init(_ kind: Kind, id: UInt32 = 0, fields: JSONValue = .object([]), body: [UInt8] = []) {
        self.kind = kind
        self.id = id
        self.fields = fields
        self.body = body
    }

    /// The protocol this host and its children speak; a child that says
    /// otherwise in its hello is stopped. 2: a service call carries its
    /// arguments as `args`, in the order its `ServiceFunction` describes.
    /// 3: fields are binary (`FrameFields`), not JSON text.
    public static let protocolVersion = 3
    public static let headerBytes = 9
    /// The most a payload may be, either way: a render, a config
    /// section, an http body or a value to store, with room to spare.
    public static let maxPayloadBytes = 16 << 20

    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.headerBytes + 4 + 128 + body.count)
        // The two lengths are known once the fields are written: zero now, set below.
        Self.append(0, to: &bytes)
        bytes.append(kind.rawValue)
        Self.append(id, to: &bytes)
        Self.append(0, to: &bytes)
        FrameFields.write(fields, to: &bytes)
        let fieldsCount = bytes.count - Self.headerBytes - 4
        bytes += body
        Self.set(UInt32(bytes.count - Self.headerBytes), at: 0, in: &bytes)
        Self.set(UInt32(fieldsCount), at: Self.headerBytes, in: &bytes)
        return bytes
    }

    /// Whether this frame would be refused by the other side for its size.
    public var isTooLarge: Bool { Self.isTooLarge(encoded: encoded()) }

    /// The same, for a frame already encoded (sending encodes once).
    static func isTooLarge(encoded bytes: [UInt8]) -> Bool {
        bytes.count - headerBytes > maxPayloadBytes
    }

    static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        // Four plain appends: a loop or a raw-buffer append costs several times more, on every length of every frame.
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 24))
    }

    private static func set(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> UInt32(8 * index)) }
    }

    static func u32(_ bytes: ArraySlice<UInt8>, at offset: Int) -> UInt32 {
        let start = bytes.startIndex + offset
        return (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[start + $1]) << UInt32(8 * $1) }
    }
}

/// Why bytes from the other side are not a valid frame. Every case stops
/// the conversation: a peer that breaks the protocol cannot be trusted to
/// frame its next message either.
public enum FrameError: Error, Equatable, CustomStringConvertible {
    case tooLarge(announced: UInt64, limit: Int)
    case unknownKind(UInt8)
    case malformed(String)

    public var description: String {
        switch self {
        case let .tooLarge(announced, limit): "sent a message of \(announced) bytes; the limit is \(limit)"
        case let .unknownKind(kind): "sent a message of unknown kind \(kind)"
        case let .malformed(reason): "sent a malformed message: \(reason)"
        }
    }
}

/// Cuts a byte stream into frames as bytes arrive, refusing an oversized
/// frame as soon as its header is in, before its payload is buffered.
public struct FrameDecoder: Sendable {
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where a read lands before it joins `buffer`: kept, so a read is not a
    /// fresh heap allocation (a temporary allocation this size is not on the stack).
    private var chunk: [UInt8] = []
    public let limit: Int

    /// The most one read takes: a large frame arrives in several.
    static let readSize = 16 * 1024

    public init(limit: Int = Frame.maxPayloadBytes) {
        self.limit = limit
    }

    /// Bytes held that do not yet make a whole frame.
    public var pendingBytes: Int { buffer.count - start }

    public mutating func append(_ bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// Appends what one `read` writes into the room it is handed; returns
    /// what `read` returned (a byte count, or 0 or less for none).
    mutating func fill(_ read: (UnsafeMutableRawBufferPointer) -> Int) -> Int {
        if chunk.isEmpty { chunk = [UInt8](repeating: 0, count: Self.readSize) }
        let count = chunk.withUnsafeMutableBytes { read($0) }
        if count > 0 { buffer.append(contentsOf: chunk[0..<count]) }
        return count
    }

    /// The next complete frame, nil if more bytes are needed.
    public mutating func next() throws(FrameError) -> Frame? {
        let frame = try take()
        compact()
        return frame
    }

    /// Reads the frame at `start`, by index: a slice of the buffer still held
    /// when `compact` runs would make it copy the whole buffer.
    private mutating func take() throws(FrameError) -> Frame? {
        let available = buffer.count - start
        guard available >= Frame.headerBytes else { return nil }
        let length = Int(Frame.u32(buffer[start...], at: 0))
        guard length <= limit else { throw .tooLarge(announced: UInt64(length), limit: limit) }
        guard let kind = Frame.Kind(rawValue: buffer[start + 4]) else { throw .unknownKind(buffer[start + 4]) }
        let id = Frame.u32(buffer[start...], at: 5)
        guard available >= Frame.headerBytes + length else { return nil }
        let payload = start + Frame.headerBytes
        start = payload + length
        guard length >= 4 else { throw .malformed("its payload is shorter than its own header") }
        let fieldsCount = Int(Frame.u32(buffer[payload...], at: 0))
        guard fieldsCount <= length - 4 else { throw .malformed("its fields run past its end") }
        let fieldsEnd = payload + 4 + fieldsCount
        let fields = try buffer.withUnsafeBufferPointer { bytes throws(FrameError) in
            try FrameFields.read(UnsafeBufferPointer(rebasing: bytes[(payload + 4)..<fieldsEnd]))
        }
        guard fields.isObject else { throw .malformed("its fields are not an object") }
        return Frame(kind, id: id, fields: fields, body: Array(buffer[fieldsEnd..<start]))
    }

    /// Drops consumed bytes once they are most of the buffer, so a long
    /// conversation does not keep every byte it ever received.
    private mutating func compact() {
        guard start > 0 else { return }
        if start == buffer.count {
            // Everything read is consumed, the usual case: nothing to move.
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start * 2 >= buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
    }
}

extension JSONValue {
    static func int(_ value: some BinaryInteger) -> JSONValue { .number(String(value)) }
}
