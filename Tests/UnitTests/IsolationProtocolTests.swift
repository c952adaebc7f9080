import Foundation
import Glibc
import HostShim
import Testing
@testable import WidgetHostKit
@testable import TestSupport

extension Frame {
    /// A u32, little-endian, as the wire writes a length: for frames built byte by byte.
    static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }
}

/// The framed protocol between the host and an isolated plugin's process:
/// what a well-formed frame looks like, and that every malformed or
/// oversized one is refused, from either side.
@Suite("Isolation: the frame protocol")
struct IsolationProtocolTests {
    private static let sample = Frame(answer: .ok, id: 7, body: Array("{\"view\":1}".utf8))

    @Test("a frame survives encoding and decoding, head and raw body alike", arguments: [
        sample, Frame(answer: .status(-3), id: 0xFFFF_FFFF), Frame(answer: .overflowed, id: 2),
        Frame(answer: .loadFailed("its manifest has no id"), id: 3), Frame(answer: .createFailed("é 🚀"), id: 4),
        Frame(.hello, fields: ["protocol": 4, "sandbox": ["complete": true]]), Frame(.reply, id: 5, fields: ["result": 1], body: [0, 255]),
        Frame(.wake),
    ])
    func roundTrip(_ frame: Frame) throws {
        var decoder = FrameDecoder()
        decoder.append(frame.encoded())
        #expect(try decoder.next() == frame)
        #expect(try decoder.next() == nil)
        #expect(decoder.pendingBytes == 0)
    }

    @Test("a frame's header says its payload's length, its kind and its id, little-endian")
    func headerLayout() {
        let bytes = Frame(answer: .ok, id: 0x0102_0304, body: [9, 9]).encoded()
        // The payload: the head's length (4), the head (a code and a status, 5), the body (2).
        #expect(Array(bytes.prefix(Frame.headerBytes + 4)) == [11, 0, 0, 0, Frame.Kind.result.rawValue, 4, 3, 2, 1, 5, 0, 0, 0])
        #expect(bytes.count == Frame.headerBytes + 11)
    }

    @Test("frames arriving a byte at a time, and several in one read, come out whole and in order")
    func splitAndJoined() throws {
        let frames = (1...3).map { Frame(.service, id: UInt32($0), fields: ["fn": "log", "message": .string(String(repeating: "x", count: $0 * 100))]) }
        var decoder = FrameDecoder()
        var decoded: [Frame] = []
        for byte in frames[0].encoded() {
            decoder.append([byte])
            if let frame = try decoder.next() { decoded.append(frame) }
        }
        decoder.append(frames[1].encoded() + frames[2].encoded())
        while let frame = try decoder.next() { decoded.append(frame) }
        #expect(decoded == frames)
    }

    @Test("reads that end mid-frame lose nothing, and the decoder keeps no more than a frame and a read")
    func readsAcrossFrames() throws {
        let frames = (0..<500).map { Frame(answer: .ok, id: UInt32($0), body: [UInt8](repeating: UInt8($0 % 251), count: $0 * 37 % 3000)) }
        let stream = frames.flatMap { $0.encoded() }
        var decoder = FrameDecoder()
        var decoded: [Frame] = [], offset = 0, largest = 0
        // Reads of uneven sizes, as a socket hands them over, never whole frames.
        for size in (0...).lazy.map({ 1 + $0 * 7919 % 4093 }) {
            guard offset < stream.count else { break }
            let count = min(size, stream.count - offset)
            #expect(decoder.fill { room in
                room.copyBytes(from: stream[offset..<offset + count])
                return count
            } == count)
            offset += count
            while let frame = try decoder.next() { decoded.append(frame) }
            largest = max(largest, decoder.storageBytes)
        }
        #expect(decoded == frames)
        #expect(decoder.pendingBytes == 0)
        #expect(largest <= 2 * FrameDecoder.readSize, "held \(largest) bytes for frames of at most 3 kB")
        // A large frame's room is let go once it is taken.
        let large = Frame(answer: .ok, id: 1, body: [UInt8](repeating: 7, count: 1 << 20))
        decoder.append(large.encoded())
        #expect(try decoder.next() == large)
        #expect(decoder.storageBytes <= Frame.keptBytes)
    }

    @Test("an oversized frame is refused from its header, before its payload arrives")
    func oversizedHeader() {
        var decoder = FrameDecoder(limit: 1024)
        var header: [UInt8] = []
        Frame.append(1025, to: &header)
        header += [Frame.Kind.result.rawValue, 1, 0, 0, 0]
        decoder.append(header)
        #expect(throws: FrameError.tooLarge(announced: 1025, limit: 1024)) { try decoder.next() }
    }

    @Test("a frame exactly at the limit is accepted")
    func atTheLimit() throws {
        let body = [UInt8](repeating: 65, count: 1024 - 4 - 5)   // 4 for the head's length, 5 for empty fields (an object)
        var decoder = FrameDecoder(limit: 1024)
        decoder.append(Frame(.reply, id: 1, body: body).encoded())
        #expect(try decoder.next()?.body == body)
    }

    /// A frame of `kind` (id 1) whose head is `head`, byte for byte.
    private static func frame(_ kind: Frame.Kind, head: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        Frame.append(UInt32(4 + head.count), to: &bytes)
        bytes += [kind.rawValue, 1, 0, 0, 0]
        Frame.append(UInt32(head.count), to: &bytes)
        return bytes + head
    }

    /// A reply frame, whose head is named fields.
    private static func result(fields: [UInt8]) -> [UInt8] { frame(.reply, head: fields) }

    /// Fields' tags: 0 null, 1 false, 2 true, 3 number, 4 string, 5 array, 6 object (FrameFields).
    @Test("unknown kinds, fields that are not an object and lengths that lie are refused", arguments: [
        ("unknown kind", [2, 0, 0, 0, 99, 1, 0, 0, 0, 0, 0] as [UInt8], "unknown kind 99"),
        ("payload shorter than its head's length", [2, 0, 0, 0, 3, 1, 0, 0, 0, 0, 0], "shorter than its own header"),
        ("head's length past the end", [6, 0, 0, 0, 3, 1, 0, 0, 0, 9, 0, 0, 0, 6, 0], "runs past its end"),
        ("an unknown tag", result(fields: [0x7B, 0x7D]), "unknown tag 123"),
        ("fields not an object", result(fields: [5, 0, 0, 0, 0]), "not an object"),
        ("a count past the end", result(fields: [6, 0xFF, 0xFF, 0xFF, 0x7F]), "announces more values than it holds"),
        ("a string past the end", result(fields: [6, 1, 0, 0, 0, 9, 0, 0, 0, 0x61]), "runs past its end"),
        ("a length cut short", result(fields: [6, 1, 0, 0]), "ends inside a length"),
        ("a value missing", result(fields: [6, 1, 0, 0, 0, 1, 0, 0, 0, 0x61]), "ends inside a value"),
        ("invalid UTF-8 in a key", result(fields: [6, 1, 0, 0, 0, 2, 0, 0, 0, 0xC0, 0xAF, 0]), "invalid UTF-8"),
        ("invalid UTF-8 in a string", result(fields: [6, 1, 0, 0, 0, 1, 0, 0, 0, 0x61, 4, 1, 0, 0, 0, 0xFF]), "invalid UTF-8"),
        ("a repeated key", result(fields: [6, 2, 0, 0, 0, 1, 0, 0, 0, 0x61, 0, 1, 0, 0, 0, 0x61, 1]), "repeats the key \"a\""),
        ("a number that is not JSON's", result(fields: [6, 1, 0, 0, 0, 1, 0, 0, 0, 0x61, 3, 2, 0, 0, 0, 0x30, 0x31]), "not JSON's"),
        ("a number that is a word", result(fields: [6, 1, 0, 0, 0, 1, 0, 0, 0, 0x61, 3, 4, 0, 0, 0, 0x6E, 0x75, 0x6C, 0x6C]), "not JSON's"),
        ("bytes after the value", result(fields: [6, 0, 0, 0, 0, 0]), "bytes after its end"),
        // Three members need 15 bytes at least (a key's length and a tag each); ten are there.
        ("an object count its bytes cannot hold", result(fields: [6, 3, 0, 0, 0] + [UInt8](repeating: 0, count: 10)), "announces more values"),
        ("nested past the depth cap", result(fields: [6, 1, 0, 0, 0, 1, 0, 0, 0, 0x61] + Array(repeating: [5, 1, 0, 0, 0], count: 64).flatMap { $0 } + [0]),
         "deeper than 64 levels"),
        // The fixed heads of a call and of its answer.
        ("a call of an unknown code", frame(.call, head: [99]), "unknown call 99"),
        ("a call with no code", frame(.call, head: []), "ends inside a value"),
        ("a render without its parameters", frame(.call, head: [3, 4, 0, 0, 0] + Array("main".utf8)), "ends inside a value"),
        ("a render whose parameters are text", frame(.call, head: [3, 1, 0, 0, 0, 0x6D, 4, 2, 0, 0, 0, 0x7B, 0x7D]), "not an object"),
        ("an action's value marked neither absent nor present", frame(.call, head: [5, 1, 0, 0, 0, 0x74, 7]), "marked 7"),
        ("a call with bytes after its arguments", frame(.call, head: [7, 0]), "bytes after its end"),
        ("an answer of an unknown code", frame(.result, head: [9]), "unknown answer 9"),
        ("a status cut short", frame(.result, head: [1, 0, 0]), "ends inside a length"),
        ("a refusal in invalid UTF-8", frame(.result, head: [3, 1, 0, 0, 0, 0xFF]), "invalid UTF-8"),
    ])
    func malformed(_ label: String, _ bytes: [UInt8], _ reason: String) {
        var decoder = FrameDecoder()
        decoder.append(bytes)
        do {
            _ = try decoder.next()
            Issue.record("\(label) was accepted")
        } catch {
            #expect(error.description.contains(reason), "\(label): \(error)")
        }
    }

    @Test("every kind of value in the fields reads back as it was written, keys compared by their bytes")
    func fieldsRoundTrip() throws {
        let fields: JSONValue = [
            "null": nil, "no": false, "yes": true, "int": -12, "money": .number("250.00"), "exp": .number("1.5e-3"),
            "text": "a \"quoted\"\n\u{0}line é 🚀", "": "", "list": [1, "two", [], [:], [nil]],
            "nested": ["deeper": ["deepest": ["id": "B-1"]]],
            // Two keys Swift calls equal (é composed and decomposed) are two keys, as in JSON.
            "\u{E9}": 1, "e\u{301}": 2,
        ]
        let frame = Frame(.service, id: 9, fields: fields, body: [0, 255, 10])
        var decoder = FrameDecoder()
        decoder.append(frame.encoded())
        let decoded = try #require(try decoder.next())
        #expect(decoded == frame)
        #expect(decoded.fields.serialized == fields.serialized)
        // At the depth cap exactly, accepted: one level short of the refusal above.
        let deep = (0..<63).reduce(JSONValue.null) { inner, _ in .array([inner]) }
        decoder.append(Frame(.service, id: 10, fields: ["a": deep]).encoded())
        #expect(try decoder.next()?.fields["a"] == deep)
    }

    @Test("counts the child announces reserve no room ahead: 64 nested objects each claiming every byte left are refused without gigabytes")
    func announcedCountsReserveLittle() throws {
        let size = Frame.maxPayloadBytes - 64
        var fields: [UInt8] = []
        fields.reserveCapacity(size)
        for _ in 0..<64 {
            // An object whose count is all the bytes left could hold, and its first key, empty.
            fields.append(6)
            Frame.append(UInt32((size - fields.count - 4) / 5), to: &fields)
            Frame.append(0, to: &fields)
        }
        fields += [UInt8](repeating: 0xFF, count: size - fields.count)
        let before = try Self.peakVirtualKiB()
        var decoder = FrameDecoder()
        decoder.append(Self.result(fields: fields))
        #expect(throws: FrameError.malformed("its head holds an unknown tag 255")) { try decoder.next() }
        // Reserving what the counts claim would be 64 × 3.3 M members: over 8 GiB of address space.
        #expect(try Self.peakVirtualKiB() - before < 2 << 20)
    }

    private static func peakVirtualKiB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmPeak:") })
        return try #require(Int(line.split(separator: " ")[1]))
    }

    @Test("a frame over the limit is not sent at all")
    func tooLargeToSend() throws {
        let (host, child) = try Self.socketPair()
        defer { host.close(); child.close() }
        let frame = Frame(.service, id: 1, body: [UInt8](repeating: 0, count: Frame.maxPayloadBytes))
        #expect(frame.isTooLarge)
        #expect(host.send(frame) == .tooLarge)
    }

    @Test("frames cross a real socketpair intact")
    func acrossASocket() throws {
        let (host, child) = try Self.socketPair()
        defer { host.close(); child.close() }
        #expect(host.send(Self.sample, deadline: Clock.now + 5) == .sent)
        var decoder = FrameDecoder()
        #expect(child.receive(into: &decoder) == .received)
        #expect(try decoder.next() == Self.sample)
    }

    @Test("sending to a peer that has gone is an error, not a SIGPIPE")
    func peerGone() throws {
        let (host, child) = try Self.socketPair()
        defer { host.close() }
        child.close()
        #expect(host.send(Self.sample, deadline: Clock.now + 5) == .closed)
        var decoder = FrameDecoder()
        #expect(host.receive(into: &decoder) == .closed)
    }

    @Test("a peer that stops reading cannot hold the host past its deadline")
    func peerStopsReading() throws {
        let (host, child) = try Self.socketPair()
        defer { host.close(); child.close() }
        let big = Frame(.service, id: 1, body: [UInt8](repeating: 1, count: 8 << 20))
        #expect(host.send(big, deadline: Clock.now + 0.2) == .timedOut)
    }

    @Test("every call the host makes reads back the same on the child's side, and a broken one is refused", arguments: [
        ChildCall.load(manifest: ["id": "org.example.x"]), .create(manifest: .null), .render(screen: "main", params: ["id": "B-1"]),
        .query("status"), .action("update", value: "250.00"), .action("wave", value: nil), .event(topic: "nav.changed", payload: "{}"),
        .destroy,
    ])
    func childCallRoundTrip(_ call: ChildCall) throws {
        var decoder = FrameDecoder()
        decoder.append(Frame(call: call, id: 3).encoded())
        let frame = try #require(try decoder.next())
        #expect(frame.kind == .call && frame.id == 3)
        #expect(frame.call == call)
    }

    @Test("a call repeated byte for byte reads back as itself, and one changed in any byte is read anew")
    func repeatedCalls() throws {
        let manifest: JSONValue = ["id": "org.example.x", "about": .string(String(repeating: "x", count: 2000))]
        let calls: [ChildCall] = [
            .render(screen: "main", params: [:]), .render(screen: "main", params: [:]),
            .render(screen: "main", params: ["id": "B-1"]), .render(screen: "main", params: ["id": "B-2"]),
            .render(screen: "mail", params: ["id": "B-2"]), .action("tap", value: nil), .render(screen: "main", params: [:]),
            .load(manifest: manifest), .load(manifest: manifest), .create(manifest: manifest),
        ]
        var decoder = FrameDecoder()
        for (id, call) in calls.enumerated() {
            decoder.append(Frame(call: call, id: UInt32(id)).encoded())
            let frame = try #require(try decoder.next())
            #expect(frame.call == call && frame.id == UInt32(id))
        }
    }

    @Test("a call's head that breaks the protocol is refused even right after the same head whole")
    func repeatedCallBroken() throws {
        let good = Frame(call: .render(screen: "main", params: [:]), id: 1).encoded()
        var decoder = FrameDecoder()
        decoder.append(good)
        #expect(try decoder.next()?.call == .render(screen: "main", params: [:]))
        var unknownCode = good
        unknownCode[Frame.headerBytes + 4] = 99
        decoder.append(unknownCode)
        #expect(throws: FrameError.malformed("its head names an unknown call 99")) { try decoder.next() }
    }

    @Test("a render's parameters travel as a JSON object, in the binary form of fields")
    func renderParamsAreAnObject() throws {
        let bytes = Frame(call: .render(screen: "detail", params: ["id": "B-1"]), id: 1).encoded()
        // The code, the screen's length and text, then an object (tag 6) of one member.
        #expect(Array(bytes[(Frame.headerBytes + 4)...].prefix(16)) == [3, 6, 0, 0, 0] + Array("detail".utf8) + [6, 1, 0, 0, 0])
    }

    private static func socketPair() throws -> (FrameSocket, FrameSocket) {
        var fds: [Int32] = [-1, -1]
        guard wh_shim_socketpair_cloexec(&fds) == 0 else { throw TestSupport.Failure("socketpair: \(errno)") }
        return (FrameSocket(fd: fds[0], receiveSlice: 0.05), FrameSocket(fd: fds[1], receiveSlice: 0.05))
    }
}

/// What reports from the child say, and how the host words a plugin's end.
@Suite("Isolation: stop reasons")
struct IsolationStopReasonTests {
    private let settings = PluginRunSettings()

    @Test("a violation report is the reason, whatever the signal")
    func violationWins() {
        let report = ChildReport(text: "violation tried to open a network socket (socket(AF_INET, SOCK_STREAM))\n")
        #expect(StopReason.describe(.exited(159), report: report, call: "render", fatalError: nil, settings: settings)
            == "tried to open a network socket (socket(AF_INET, SOCK_STREAM))")
    }

    @Test("a crash after a failed allocation is out of memory")
    func outOfMemory() {
        let report = ChildReport(text: "crash 11 0x0 \(ENOMEM)\n")
        #expect(StopReason.describe(.signaled(SIGSEGV), report: report, call: "render", fatalError: nil, settings: settings)
            == "out of memory during render: an allocation failed against the 1024 MiB limit, then SIGSEGV")
    }

    @Test("signals and exits are named, with the call in flight", arguments: [
        (ChildProcess.Termination.signaled(SIGSEGV), "render" as String?, "SIGSEGV during render"),
        (.signaled(SIGABRT), "action", "SIGABRT during action"),
        (.signaled(SIGSEGV), nil, "SIGSEGV"),
        (.exited(0), "render", "exited with status 0 during render"),
        (.exited(PluginProcess.cageRefusedStatus), nil,
         "could not enter its cage (its memory and CPU limits or its data directory were refused), before any plugin code ran"),
        (.exited(PluginProcess.cageRefusedStatus), "render", "exited with status 3 during render"),
        (.exited(4), nil, "exited with status 4"),
        (.signaled(SIGXCPU), nil, "used up its 120 s of CPU time (SIGXCPU)"),
    ])
    func named(_ termination: ChildProcess.Termination, _ call: String?, _ expected: String) {
        #expect(StopReason.describe(termination, report: ChildReport(text: ""), call: call, fatalError: nil, settings: settings) == expected)
    }

    @Test("a Swift runtime's fatal error is quoted with the signal")
    func fatalErrorLine() {
        let output = "some output\nPlugin/Widget.swift:12: Fatal error: Index out of range\n"
        let line = StopReason.fatalError(in: output)
        #expect(line == "Fatal error: Index out of range")
        #expect(StopReason.describe(.signaled(SIGILL), report: ChildReport(text: ""), call: "render", fatalError: line, settings: settings)
            == "SIGILL during render (Fatal error: Index out of range)")
    }

    @Test("garbage in the report pipe is ignored, not trusted")
    func garbageReport() {
        let report = ChildReport(text: "crash eleven\nnonsense\ncrash 11\n")
        #expect(report == ChildReport(text: ""))
    }
}
