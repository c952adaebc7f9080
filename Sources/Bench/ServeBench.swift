import Foundation
import Glibc
import WidgetHostKit

/// 12. `widget-host serve` with the four shipped widgets (Crypto on its
/// sample prices: no network): the time from a store write to the Trips
/// card's event reaching a client on `/events` (each write a new flight
/// code, so each changes the card), median and p99; and the dashboard
/// page's weight, its HTML with the stylesheet and script it loads.
func serveBench(_ farm: PluginFarm, _ effort: Effort) throws -> [Measurement] {
    let home = farm.root + "/serve-home"
    let environment = ["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state"]
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    let store = SharedStore(directory: SharedStore.defaultDirectory(environment))
    try store.put("trips.bookings", bookings(code: "IB3436"))
    let addressFile = home + "/address"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Bench.productsDirectory + "/widget-host")
    process.arguments = ["serve", "--port", "0", "--address-file", addressFile, "--set", "crypto.source=sample",
                         "--set", "checkout.minimumAmount=50.00", "--set", "checkout.maximumAmount=2000.00", "--set", "checkout.currencyCode=USD",
                         "--set", "checkout.locale=en_US", "--set", "checkout.amount=250.00"]
    process.environment = environment
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
    defer {
        process.terminate()
        process.waitUntilExit()
    }
    let (port, secret) = try served(addressFile)
    let head = { (path: String) in "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(WebGate.cookie)=\(secret)\r\n\r\n" }

    // The page once every card shows its content (Trips' flight is the last to come).
    var page = 0
    for _ in 0..<300 {
        let answer = try BenchSocket.exchange(port: port, head("/"))
        page = answer.body
        if answer.text.contains("IB3436") && answer.text.contains("BTC") { break }
        usleep(100_000)
    }
    let css = try BenchSocket.exchange(port: port, head("/app.css")).body, script = try BenchSocket.exchange(port: port, head("/app.js")).body

    let events = try BenchSocket(port: port)
    defer { events.close() }
    events.send(head("/events"))
    guard events.read(until: "event: ready") else { throw BenchError("no ready event on /events") }
    let writes = effort.quick ? 20 : 1000
    var latencies: [Double] = []
    for index in 0..<writes {
        let code = String(format: "WH%04d", index)   // fixed width: no code is a prefix of another
        let started = Measure.nanoseconds()
        try store.put("trips.bookings", bookings(code: code))
        guard events.read(until: code) else { throw BenchError("no event for the write of \(code)") }
        latencies.append(Double(Measure.nanoseconds() - started) / 1_000_000)
    }
    let sorted = latencies.sorted()
    let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
    return [
        Measurement(group: "Serve", name: "store write to SSE event at a client, median of \(writes)", value: Measure.median(latencies), unit: "ms",
                    baseline: ("goal", 20), goal: 1.0, note: "Trips card on /events over loopback, four shipped widgets"),
        Measurement(group: "Serve", name: "store write to SSE event at a client, p99 of \(writes)", value: p99, unit: "ms"),
        Measurement(group: "Serve", name: "dashboard page weight, four shipped widgets", value: Double(page + css + script), unit: "bytes",
                    baseline: ("goal", 50_000), goal: 1.0, note: "HTML \(page) + CSS \(css) + JS \(script) bytes, uncompressed"),
    ]
}

/// One booking: an outbound flight `code`, two days from now.
private func bookings(code: String) -> [UInt8] {
    let formatter = ISO8601DateFormatter()
    let departs = Date().addingTimeInterval(2 * 86_400), arrives = departs.addingTimeInterval(7200)
    let flight: JSONValue = ["code": .string(code), "stops": 0, "departure_airport": "MAD", "departure_time": .string(formatter.string(from: departs)),
                             "arrival_airport": "CDG", "arrival_time": .string(formatter.string(from: arrives))]
    let booking: JSONValue = ["id": .string("B-\(code)"), "purchase_date": .string(formatter.string(from: Date().addingTimeInterval(-86_400))),
                              "outbound_flight": flight]
    return Array(JSONValue.object([("bookings", .array([booking]))]).serialized.utf8)
}

/// The port and secret of the address `serve` wrote (waits up to 30 s).
private func served(_ addressFile: String) throws -> (port: Int, secret: String) {
    for _ in 0..<300 {
        if let text = try? String(contentsOfFile: addressFile, encoding: .utf8),
           let url = URLComponents(string: text.trimmingCharacters(in: .whitespacesAndNewlines)), let port = url.port,
           let secret = url.queryItems?.first(where: { $0.name == WebGate.parameter })?.value {
            return (port, secret)
        }
        usleep(100_000)
    }
    throw BenchError("serve wrote no address")
}

/// A loopback connection that reads what the server sends, for the bench.
struct BenchSocket {
    let fd: Int32
    private let received = WidgetHostKit.Locked("")

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            throw BenchError("cannot connect to 127.0.0.1:\(port)")
        }
    }

    func send(_ text: String) { _ = text.utf8CString.withUnsafeBufferPointer { Glibc.send(fd, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) } }

    /// Reads until `marker` has arrived since the last match (false after 30 s or at the end).
    func read(until marker: String) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let found = received.withLock { text -> Bool in
                guard let range = text.range(of: marker) else { return false }
                text.removeSubrange(..<range.upperBound)
                return true
            }
            if found { return true }
            var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pollFD, 1, 30_000) > 0 else { return false }
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { return false }
            received.withLock { $0 += String(decoding: buffer[0..<count], as: UTF8.self) }
        }
    }

    func close() { _ = Glibc.close(fd) }

    /// One request on a fresh connection: the whole answer and its body's size.
    static func exchange(port: Int, _ request: String) throws -> (text: String, body: Int) {
        let socket = try BenchSocket(port: port)
        defer { socket.close() }
        socket.send(request)
        _ = socket.read(until: "\u{0}")   // to the end: the server closes
        let text = socket.received.withLock { $0 }
        return (text, text.range(of: "\r\n\r\n").map { text.utf8.count - text[..<$0.upperBound].utf8.count } ?? 0)
    }
}
