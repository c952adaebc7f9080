import Glibc

/// One message between the host and an isolated plugin's process.
///
/// On the wire: a 9-byte header (payload length as u32 little-endian, the
/// kind as u8, the request id as u32 little-endian), then the payload: a u32
/// little-endian length, that many bytes of the frame's head, and the rest
/// as raw bytes (a rendered view, a value to store). Raw bytes stay raw, so
/// a large view is not escaped into a string.
///
/// The head of the two frames of every call, the host's `call` and the
/// child's `result`, has a fixed layout of its own (`ChildCall`,
/// `CallAnswer`): a code and the arguments in order, read without building
/// a tree, because they are the isolated call's hot path. The rarer frames
/// (hello, service calls and their replies) carry named fields, a JSON value
/// in the binary form of `FrameFields`.
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

    /// What a frame says before its body; which case is fixed by its kind.
    enum Head: Equatable, Sendable {
        /// hello, service, reply, wake.
        case fields(JSONValue)
        case call(ChildCall)
        case answer(CallAnswer)
    }

    public let kind: Kind
    public var id: UInt32
    let head: Head
    public var body: [UInt8]

    /// A frame of named fields: any kind but `call` and `result`, whose heads are fixed.
    public init(_ kind: Kind, id: UInt32 = 0, fields: JSONValue = .object([]), body: [UInt8] = []) {
        precondition(kind != .call && kind != .result, "a \(kind) frame's head is a ChildCall or a CallAnswer")
        self.init(kind, id: id, head: .fields(fields), body: body)
    }

    init(call: consuming ChildCall, id: UInt32, body: [UInt8] = []) {
        self.init(.call, id: id, head: .call(call), body: body)
    }

    init(answer: CallAnswer, id: UInt32, body: [UInt8] = []) {
        self.init(.result, id: id, head: .answer(answer), body: body)
    }

    private init(_ kind: Kind, id: UInt32, head: consuming Head, body: [UInt8]) {
        self.kind = kind
        self.id = id
        self.head = head
        self.body = body
    }

    /// The named fields; empty for a call or a result.
    public var fields: JSONValue {
        if case let .fields(fields) = head { fields } else { .object([]) }
    }

    var call: ChildCall? {
        if case let .call(call) = head { call } else { nil }
    }

    var answer: CallAnswer? {
        if case let .answer(answer) = head { answer } else { nil }
    }

    /// The protocol this host and its children speak; a child that says
    /// otherwise in its hello is stopped. 2: a service call carries its
    /// arguments as `args`, in the order its `ServiceFunction` describes.
    /// 3: fields are binary (`FrameFields`), not JSON text. 4: a call's and
    /// a result's heads have fixed layouts (`ChildCall`, `CallAnswer`).
    public static let protocolVersion = 4
    public static let headerBytes = 9
    /// The most a payload may be, either way: a render, a config
    /// section, an http body or a value to store, with room to spare.
    public static let maxPayloadBytes = 16 << 20
    /// Memory a large frame grew past this is let go once the frame is done
    /// with: the decoder's room, a writer's, the child's parameter text.
    /// Below it, memory is kept from one frame to the next.
    static let keptBytes = 64 * 1024

    public func encoded() -> [UInt8] {
        let writer = FrameWriter()
        encode(into: writer)
        return writer.copied()
    }

    /// Writes the frame over what `writer` holds (a socket reuses one
    /// writer for every frame it sends).
    func encode(into writer: FrameWriter) {
        writer.removeAll()
        // The header and the head's length, written once they are known.
        writer.skip(Self.headerBytes + 4)
        switch head {
        case let .fields(fields): FrameFields.write(fields, to: writer)
        case let .call(call): call.write(to: writer)
        case let .answer(answer): answer.write(to: writer)
        }
        let headCount = writer.count - Self.headerBytes - 4
        writer.append(body)
        writer.store(u32: UInt32(writer.count - Self.headerBytes), at: 0)
        writer.store(byte: kind.rawValue, at: 4)
        writer.store(u32: id, at: 5)
        writer.store(u32: UInt32(headCount), at: Self.headerBytes)
    }

    /// The bytes one isolated render of `screen` moves, out and back, when
    /// the plugin writes `output` bytes: what the bench's floor bounces.
    public static func renderBytes(screen: String, output: Int) -> (call: Int, answer: Int) {
        (Frame(call: .render(screen: screen, params: [:]), id: 1).encoded().count,
         Frame(answer: .ok, id: 1, body: [UInt8](repeating: 0, count: output)).encoded().count)
    }

    /// Whether this frame would be refused by the other side for its size.
    public var isTooLarge: Bool {
        let writer = FrameWriter()
        encode(into: writer)
        return Self.isTooLarge(encoded: writer.count)
    }

    /// The same, for a frame already encoded (sending encodes once).
    static func isTooLarge(encoded count: Int) -> Bool {
        count - headerBytes > maxPayloadBytes
    }

    static func u32(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
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
    /// What has arrived and is not yet taken is `storage[start..<end]`; the
    /// rest is room a read lands in directly, with no copy after it.
    private var storage: [UInt8] = []
    private var start = 0
    private var end = 0
    private var lastCall = RepeatedCall()
    public let limit: Int

    /// The most one read takes: a large frame arrives in several.
    static let readSize = 16 * 1024
    public init(limit: Int = Frame.maxPayloadBytes) {
        self.limit = limit
    }

    /// Bytes held that do not yet make a whole frame.
    public var pendingBytes: Int { end - start }

    /// The memory held for reading, taken or not.
    var storageBytes: Int { storage.count }

    public mutating func append(_ bytes: some Collection<UInt8>) {
        makeRoom(bytes.count)
        storage.replaceSubrange(end..<end + bytes.count, with: bytes)
        end += bytes.count
    }

    /// Lets one `read` write into the room after what is held; returns what
    /// `read` returned (a byte count, or 0 or less for none).
    mutating func fill(_ read: (UnsafeMutableRawBufferPointer) -> Int) -> Int {
        makeRoom(Self.readSize)
        let end = end
        let count = storage.withUnsafeMutableBytes { read(UnsafeMutableRawBufferPointer(rebasing: $0[end..<end + Self.readSize])) }
        if count > 0 { self.end += count }
        return count
    }

    /// Makes `count` bytes of room after `end`: by moving what is held to the
    /// front, so a long conversation does not keep every byte it received,
    /// and then by growing.
    private mutating func makeRoom(_ count: Int) {
        guard storage.count - end < count else { return }
        if start > 0 {
            let (start, end) = (start, end)
            storage.withUnsafeMutableBufferPointer { bytes in
                _ = UnsafeMutableBufferPointer(rebasing: bytes[0..<end - start]).update(fromContentsOf: bytes[start..<end])
            }
            self.end -= start
            self.start = 0
        }
        let missing = count - (storage.count - end)
        if missing > 0 { storage.append(contentsOf: repeatElement(0, count: missing)) }
    }

    /// The next complete frame, nil if more bytes are needed.
    public mutating func next() throws(FrameError) -> Frame? {
        let frame = try take()
        if start == end {
            // Everything read is taken, the usual case: nothing to move.
            (start, end) = (0, 0)
            if storage.count > Frame.keptBytes { storage = [] }
        }
        return frame
    }

    /// Reads the frame at `start`.
    private mutating func take() throws(FrameError) -> Frame? {
        let available = end - start
        guard available >= Frame.headerBytes else { return nil }
        let (start, limit) = (start, limit)
        return try storage.withUnsafeBufferPointer { bytes throws(FrameError) -> (Frame, Int)? in
            let length = Int(Frame.u32(bytes, at: start))
            guard length <= limit else { throw .tooLarge(announced: UInt64(length), limit: limit) }
            guard let kind = Frame.Kind(rawValue: bytes[start + 4]) else { throw .unknownKind(bytes[start + 4]) }
            guard available >= Frame.headerBytes + length else { return nil }
            let payload = start + Frame.headerBytes, end = payload + length
            guard length >= 4 else { throw .malformed("its payload is shorter than its own header") }
            let headCount = Int(Frame.u32(bytes, at: payload))
            guard headCount <= length - 4 else { throw .malformed("its head runs past its end") }
            let headEnd = payload + 4 + headCount
            var reader = FrameFields.Reader(bytes: UnsafeBufferPointer(rebasing: bytes[(payload + 4)..<headEnd]))
            // A copy by memcpy; the slice's own initializer copies through the generic path.
            let id = Frame.u32(bytes, at: start + 5), body = headEnd == end ? [] : Array(UnsafeBufferPointer(rebasing: bytes[headEnd..<end]))
            let frame: Frame = switch kind {
            case .call: Frame(call: try lastCall.call(reading: &reader), id: id, body: body)
            case .result: Frame(answer: try CallAnswer(reading: &reader), id: id, body: body)
            case .hello, .service, .reply, .wake: Frame(kind, id: id, fields: try reader.fields(), body: body)
            }
            try reader.finish()
            return (frame, end)
        }.map { frame, end in
            self.start = end
            return frame
        }
    }
}

/// The last call a child read, with its head's bytes. A host that renders
/// a screen again sends the same head again (code, screen, parameters), and
/// its call is then the one already read: no screen text made and checked,
/// no parameters parsed. Only a call's head is pure data, so only calls are kept.
private struct RepeatedCall {
    private var head: [UInt8] = []
    private var call: ChildCall?
    /// Larger heads (a manifest at load) come once; keeping them would only copy them.
    private static let largestKept = 1024

    /// The call `reader` holds, all of its head: one kept is handed back
    /// only for a head that was read whole and refused nothing.
    mutating func call(reading reader: inout FrameFields.Reader) throws(FrameError) -> ChildCall {
        let bytes = reader.bytes
        if let call, bytes.count == head.count, let base = bytes.baseAddress,
           head.withUnsafeBufferPointer({ memcmp($0.baseAddress!, base, bytes.count) == 0 }) {
            reader.skipToEnd()
            return call
        }
        call = nil
        let read = try ChildCall(reading: &reader)
        try reader.finish()
        if bytes.count <= Self.largestKept {
            head.removeAll(keepingCapacity: true)
            head.append(contentsOf: bytes)
            call = read
        }
        return read
    }
}

extension JSONValue {
    static func int(_ value: some BinaryInteger) -> JSONValue { .number(String(value)) }
}
