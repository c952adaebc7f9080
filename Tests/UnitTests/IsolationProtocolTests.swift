import Foundation
import Glibc
import HostShim
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The framed protocol between the host and an isolated plugin's process:
/// what a well-formed frame looks like, and that every malformed or
/// oversized one is refused, from either side.
@Suite("Isolation: the frame protocol")
struct IsolationProtocolTests {
    private static let sample = Frame(.result, id: 7, fields: ["status": 0, "overflow": false], body: Array("{\"view\":1}".utf8))

    @Test("a frame survives encoding and decoding, fields and raw body alike")
    func roundTrip() throws {
        var decoder = FrameDecoder()
        decoder.append(Self.sample.encoded())
        #expect(try decoder.next() == Self.sample)
        #expect(try decoder.next() == nil)
        #expect(decoder.pendingBytes == 0)
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
        let body = [UInt8](repeating: 65, count: 1024 - 4 - 5)   // 4 for the fields' length, 5 for an empty object
        var decoder = FrameDecoder(limit: 1024)
        decoder.append(Frame(.reply, id: 1, body: body).encoded())
        #expect(try decoder.next()?.body == body)
    }

    /// A result frame (id 1) whose fields are `fields`, byte for byte.
    private static func result(fields: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        Frame.append(UInt32(4 + fields.count), to: &bytes)
        bytes += [Frame.Kind.result.rawValue, 1, 0, 0, 0]
        Frame.append(UInt32(fields.count), to: &bytes)
        return bytes + fields
    }

    /// Fields' tags: 0 null, 1 false, 2 true, 3 number, 4 string, 5 array, 6 object (FrameFields).
    @Test("unknown kinds, fields that are not an object and lengths that lie are refused", arguments: [
        ("unknown kind", [2, 0, 0, 0, 99, 1, 0, 0, 0, 0, 0] as [UInt8], "unknown kind 99"),
        ("payload shorter than its fields' length", [2, 0, 0, 0, 3, 1, 0, 0, 0, 0, 0], "shorter than its own header"),
        ("fields' length past the end", [6, 0, 0, 0, 3, 1, 0, 0, 0, 9, 0, 0, 0, 6, 0], "run past its end"),
        ("an unknown tag", result(fields: [0x7B, 0x7D]), "unknown tag 123"),
        ("fields not an object", result(fields: [5, 0, 0, 0, 0]), "not an object"),
        ("a count past the end", result(fields: [6, 0xFF, 0xFF, 0xFF, 0x7F]), "announce more values than they hold"),
        ("a string past the end", result(fields: [6, 1, 0, 0, 0, 9, 0, 0, 0, 0x61]), "run past their end"),
        ("a length cut short", result(fields: [6, 1, 0, 0]), "end inside a length"),
        ("a value missing", result(fields: [6, 1, 0, 0, 0, 1, 0, 0, 0, 0x61]), "end inside a value"),
        ("invalid UTF-8 in a key", result(fields: [6, 1, 0, 0, 0, 2, 0, 0, 0, 0xC0, 0xAF, 0]), "invalid UTF-8"),
        ("invalid UTF-8 in a string", result(fields: [6, 1, 0, 0, 0, 1, 0, 0, 0, 0x61, 4, 1, 0, 0, 0, 0xFF]), "invalid UTF-8"),
        ("a repeated key", result(fields: [6, 2, 0, 0, 0, 1, 0, 0, 0, 0x61, 0, 1, 0, 0, 0, 0x61, 1]), "repeat the key \"a\""),
        ("a number that is not JSON's", result(fields: [6, 1, 0, 0, 0, 1, 0, 0, 0, 0x61, 3, 2, 0, 0, 0, 0x30, 0x31]), "not JSON's"),
        ("a number that is a word", result(fields: [6, 1, 0, 0, 0, 1, 0, 0, 0, 0x61, 3, 4, 0, 0, 0, 0x6E, 0x75, 0x6C, 0x6C]), "not JSON's"),
        ("bytes after the value", result(fields: [6, 0, 0, 0, 0, 0]), "bytes after their end"),
        // Three members need 15 bytes at least (a key's length and a tag each); ten are there.
        ("an object count its bytes cannot hold", result(fields: [6, 3, 0, 0, 0] + [UInt8](repeating: 0, count: 10)), "announce more values"),
        ("nested past the depth cap", result(fields: [6, 1, 0, 0, 0, 1, 0, 0, 0, 0x61] + Array(repeating: [5, 1, 0, 0, 0], count: 64).flatMap { $0 } + [0]),
         "deeper than 64 levels"),
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
        let frame = Frame(.call, id: 9, fields: fields, body: [0, 255, 10])
        var decoder = FrameDecoder()
        decoder.append(frame.encoded())
        let decoded = try #require(try decoder.next())
        #expect(decoded == frame)
        #expect(decoded.fields.serialized == fields.serialized)
        // At the depth cap exactly, accepted: one level short of the refusal above.
        let deep = (0..<63).reduce(JSONValue.null) { inner, _ in .array([inner]) }
        decoder.append(Frame(.call, id: 10, fields: ["a": deep]).encoded())
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
        #expect(throws: FrameError.malformed("its fields hold an unknown tag 255")) { try decoder.next() }
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
        let frame = Frame(.call, id: 1, body: [UInt8](repeating: 0, count: Frame.maxPayloadBytes))
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
        let big = Frame(.call, id: 1, body: [UInt8](repeating: 1, count: 8 << 20))
        #expect(host.send(big, deadline: Clock.now + 0.2) == .timedOut)
    }

    @Test("every call the host makes reads back the same on the child's side, and a broken one is refused", arguments: [
        ChildCall.load(manifest: ["id": "org.example.x"]), .create(manifest: .null), .render(screen: "main", params: ["id": "B-1"]),
        .query("status"), .action("update", value: "250.00"), .action("wave", value: nil), .event(topic: "nav.changed", payload: "{}"),
        .destroy,
    ])
    func childCallRoundTrip(_ call: ChildCall) throws {
        var decoder = FrameDecoder()
        decoder.append(Frame(.call, id: 3, fields: call.fields).encoded())
        let frame = try #require(try decoder.next())
        #expect(ChildCall(fields: frame.fields) == call)
        #expect(frame.fields["call"]?.string == call.name.rawValue)
    }

    @Test("a call the child does not know, or one missing its argument, decodes to nothing")
    func childCallRefused() {
        #expect(ChildCall(fields: ["call": "format-disk"]) == nil)
        #expect(ChildCall(fields: ["call": "render"]) == nil)
        #expect(ChildCall(fields: ["call": "action", "value": "x"]) == nil)
        #expect(ChildCall(fields: ["screen": "main"]) == nil)
        // Screen parameters are an object on the wire, never JSON text inside a string.
        #expect(ChildCall(fields: ["call": "render", "screen": "main", "params": "{\"id\":\"B-1\"}"]) == nil)
        #expect(ChildCall(fields: ["call": "render", "screen": "main", "params": ["B-1"]]) == nil)
    }

    @Test("a render's parameters travel as a JSON object, and none is an empty one")
    func renderParamsAreAnObject() throws {
        let fields = ChildCall.render(screen: "detail", params: ["id": "B-1"]).fields
        #expect(fields["params"]?["id"]?.string == "B-1")
        #expect(ChildCall(fields: ["call": "render", "screen": "main"]) == .render(screen: "main", params: [:]))
    }

    private static func socketPair() throws -> (FrameSocket, FrameSocket) {
        var fds: [Int32] = [-1, -1]
        guard wh_shim_socketpair_cloexec(&fds) == 0 else { throw TestSupport.Failure("socketpair: \(errno)") }
        return (FrameSocket(fd: fds[0], nonBlocking: true), FrameSocket(fd: fds[1], nonBlocking: true))
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
