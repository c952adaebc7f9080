import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing
@testable import WidgetHostKit

/// Fake price APIs on loopback for the Crypto widget's tests: one
/// LoopbackHTTPServer whose every path answers with its own scripted
/// replies, in turn, the last one repeating. Paths can also be held shut
/// (a gate) until the test lets their answer go.
final class CryptoMarket: Sendable {
    typealias Reply = LoopbackHTTPServer.Reply

    /// The real APIs' response shapes, abridged only of fields the widget ignores.
    static let coincapBody = #"{"data":{"id":"bitcoin","rank":"1","symbol":"BTC","name":"Bitcoin","#
            + #""priceUsd":"43210.5512345678901234","changePercent24Hr":"-0.8123"},"timestamp":1777627800000}"#
    static let coinbaseBody = #"{"data":{"amount":"43215.01","base":"BTC","currency":"USD"}}"#
    static let krakenBody = #"{"error":[],"result":{"XXBTZUSD":{"a":["43206.00000","1","1.000"],"b":["43205.00000","2","2.000"],"#
            + #""c":["43205.10000","0.00150000"],"#
            + #""v":["1000.1","2000.2"],"p":["43100.1","43000.2"],"t":[1000,2000],"l":["42000.0","41000.0"],"h":["44000.0","44500.0"],"o":"43010.00000"}}}"#
    static let binanceBody = #"{"symbol":"BTCUSDT","price":"43230.55000000"}"#

    static let pricePath = "/v2/assets/bitcoin"
    static let coinbasePath = "/v2/prices/BTC-USD/spot"
    static let krakenPath = "/0/public/Ticker"
    static let binancePath = "/api/v3/ticker/price"

    let server: LoopbackHTTPServer
    private let script: Script

    /// Every path with its real API's good answer, changed by `replies`.
    init(_ replies: [String: [Reply]] = [:]) throws {
        var all: [String: [Reply]] = [
            Self.pricePath: [.ok(Self.coincapBody)], Self.coinbasePath: [.ok(Self.coinbaseBody)],
            Self.krakenPath: [.ok(Self.krakenBody)], Self.binancePath: [.ok(Self.binanceBody)],
        ]
        all.merge(replies) { _, new in new }
        let script = Script(all)
        self.script = script
        server = try LoopbackHTTPServer { request in script.next(for: request.path) }
    }

    deinit {
        script.openAllGates()
        server.stop()
    }

    func url(_ pathAndQuery: String) -> String { server.url(pathAndQuery) }

    /// `--set` for each of the widget's endpoints, pointing here, with the
    /// real APIs' queries; and an automatic refresh too slow to happen in a
    /// scripted run, so that the requests a test counts are its own.
    var arguments: [String] { arguments(refreshSeconds: 3600) }

    func arguments(refreshSeconds: Int) -> [String] {
        ["--set", "crypto.priceURL=" + url(Self.pricePath),
         "--set", "crypto.coinbaseURL=" + url(Self.coinbasePath),
         "--set", "crypto.krakenURL=" + url(Self.krakenPath + "?pair=XBTUSD"),
         "--set", "crypto.binanceURL=" + url(Self.binancePath + "?symbol=BTCUSDT"),
         "--set", "crypto.refreshSeconds=\(refreshSeconds)"]
    }

    /// How many requests `path` has had.
    func requests(_ path: String) -> Int { server.requests.filter { $0.path == path }.count }

    /// Replaces what `path` answers from now on.
    func script(_ path: String, _ replies: [Reply]) { script.set(path, replies) }

    /// Holds `path`'s answers until `open(path)`; a request waits meanwhile.
    func close(_ path: String) { script.close(path) }
    func open(_ path: String) { script.open(path) }

    /// The replies, shared by the test and the server's threads.
    private final class Script: @unchecked Sendable {   // @unchecked: DispatchSemaphore is thread-safe
        private let replies: Mutex<[String: [Reply]]>
        private let gates = Mutex<[String: DispatchSemaphore]>([:])

        init(_ replies: [String: [Reply]]) { self.replies = Mutex(replies) }

        func next(for path: String) -> Reply {
            if let gate = gates.withLock({ $0[path] }) {
                // Bounded, so a test that forgets to open cannot hang the server.
                _ = gate.wait(timeout: .now() + 60)
                gate.signal()
            }
            return replies.withLock { replies in
                guard var queue = replies[path], !queue.isEmpty else { return .response(status: 404, body: "no route for \(path)") }
                let reply = queue.count > 1 ? queue.removeFirst() : queue[0]
                replies[path] = queue
                return reply
            }
        }

        func set(_ path: String, _ queue: [Reply]) { replies.withLock { $0[path] = queue } }
        func close(_ path: String) { gates.withLock { $0[path] = DispatchSemaphore(value: 0) } }
        func open(_ path: String) { gates.withLock { $0.removeValue(forKey: path) }?.signal() }
        func openAllGates() { gates.withLock { gates in defer { gates.removeAll() }; return Array(gates.values) }.forEach { $0.signal() } }
    }
}

/// Running `widget-host` for the Crypto tests. Every run has its HTTP(S)
/// proxy set to a closed loopback port, with only 127.0.0.1 exempt: a request
/// that would leave the machine (the widget's real default endpoints) is
/// refused at once, as on a machine with no network, and a test can never
/// reach the internet.
enum CryptoHost {
    static let environment: [String: String] = {
        let nowhere = (try? LoopbackHTTPServer.closedPortURL("")) ?? "http://127.0.0.1:1"
        return ["http_proxy": nowhere, "https_proxy": nowhere, "HTTP_PROXY": nowhere, "HTTPS_PROXY": nowhere,
                "no_proxy": "127.0.0.1", "NO_PROXY": "127.0.0.1", "NO_COLOR": "1"]
    }()

    /// Each run has a data directory of its own: Crypto keeps its last price
    /// across runs (CryptoRestartTests), and one test's must not be another's.
    static func run(_ arguments: [String], timeout: Double = 60) throws -> TestSupport.HostRun {
        let data = try TestSupport.makeTemporaryDirectory("crypto-data")
        return try TestSupport.runHost(arguments, environment: environment.merging(["XDG_DATA_HOME": data]) { _, new in new }, timeout: timeout)
    }

    /// `launch crypto --format json` with `arguments`, read back. The clock
    /// starts at a known day so that "Updated" lines can be checked.
    static func screen(_ arguments: [String], status: Int32 = 0) throws -> CryptoScreen {
        let run = try run(["launch", "crypto", "--format", "json", "--now", CryptoScreen.day + "T09:30:00Z"] + arguments)
        guard run.status == status else { throw TestSupport.Failure("expected exit status \(status): \(run)") }
        return try CryptoScreen(run)
    }
}

/// One screen of the widget from `launch --format json`, taken apart.
struct CryptoScreen: LaunchScreen {
    static let day = "2026-05-01"

    let run: TestSupport.HostRun
    let json: JSONValue

    var stack: [String] { json["stack"]?.array?.compactMap { $0["screen"]?.string } ?? [] }
    var params: JSONValue? { json["stack"]?.array?.last?["params"] }
    var error: String? { json["error"]?.string }

    var isLoading: Bool { nodes.contains { $0["kind"]?.string == "progress" && $0["value"] == .null } }

    /// The headline price, shown in the positive colour when current.
    var price: String? {
        nodes.first { $0["kind"]?.string == "text" && $0["style"]?.string == "headline" && $0["color"]?.string == "positive" }?["text"]?.string
    }

    /// "Price unavailable" with its reason (the next text) and the code that text carries.
    var unavailable: (code: String, reason: String)? {
        let children = nodes
        guard let index = children.firstIndex(where: { $0["text"]?.string == "Price unavailable" }),
              index + 1 < children.count, let code = children[index + 1]["code"]?.string,
              let reason = children[index + 1]["text"]?.string else { return nil }
        return (code, reason)
    }

    struct Row: Equatable, CustomStringConvertible {
        let id: String, title: String, detail: String?, badge: String?
        /// The code a cell carries (a failed exchange's), never drawn.
        var code: String? = nil
        var description: String { "\(id): \(title) | \(detail ?? "-") | \(badge ?? "-") | \(code ?? "-")" }
    }

    var rows: [Row] {
        nodes.filter { $0["kind"]?.string == "list" }.flatMap { $0["rows"]?.array ?? [] }.map {
            Row(id: $0["id"]?.string ?? "", title: $0["title"]?.string ?? "", detail: $0["detail"]?.string, badge: $0["badge"]?.string,
                code: $0["cells"]?.array?.lazy.compactMap { $0["code"]?.string }.first)
        }
    }

    func row(_ id: String) -> Row? { rows.first { $0.id == id } }

    struct Action: Equatable, CustomStringConvertible {
        let title: String, action: String, value: String?
        var description: String { "\(title) -> \(action)\(value.map { "=\($0)" } ?? "")" }
    }

    var actions: [Action] {
        json["actions"]?.array?.map { Action(title: $0["title"]?.string ?? "", action: $0["action"]?.string ?? "", value: $0["value"]?.string) } ?? []
    }

    /// The bus events `--trace-events` printed, as (topic, payload).
    var events: [(topic: String, payload: JSONValue)] {
        run.stderr.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("event "), let event = try? JSONParser.parse(String(line.dropFirst(6))),
                  let topic = event["topic"]?.string else { return nil }
            return (topic, event["payload"] ?? .null)
        }
    }
}
