import Foundation
import Synchronization
import Glibc
import Testing
import WidgetHostKit
@testable import TestSupport

/// The server under attack over loopback: each hostile request gets its
/// refusal, and the server then still answers a good one.
@Suite(.serialized)
struct WebServerAttackTests {
    let secret = "0123456789abcdef0123456789abcdef"

    /// A gated server whose one page says "hello"; short timeout, small cap.
    func server(timeout: Double = 1, maxConnections: Int = 16) throws -> HTTPServer {
        var settings = HTTPServer.Settings()
        settings.requestTimeout = timeout
        settings.maxConnections = maxConnections
        let box = GateBox()
        let server = try HTTPServer(address: "127.0.0.1", port: 0, settings: settings) { request in
            guard let gate = box.gate else { return .text(503, "starting") }
            if case let .refuse(response) = gate.check(request) { return response }
            return .text(200, "hello \(request.method) \(request.path)")
        }
        box.gate = WebGate(secret: secret, host: "127.0.0.1:\(server.port)")
        return server
    }

    final class GateBox: @unchecked Sendable { var gate: WebGate? }

    func good(_ server: HTTPServer) -> String {
        "GET /page HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nCookie: \(WebGate.cookie)=\(secret)\r\n\r\n"
    }

    func expectServes(_ server: HTTPServer) throws {
        let response = try RawHTTPClient.exchange(port: server.port, good(server))
        #expect(response.status == 200)
        #expect(response.body.contains("hello GET /page"))
    }

    @Test func goodRequestIsServed() throws {
        let server = try server()
        defer { server.stop() }
        try expectServes(server)
    }

    @Test(arguments: ["GARBAGE\r\n\r\n", "GET\r\n\r\n", "GET /a b HTTP/1.1\r\n\r\n", "GET nopath HTTP/1.1\r\nHost: x\r\n\r\n",
                      "GET / HTTP/9.9\r\nHost: x\r\n\r\n", "get / HTTP/1.1\r\nHost: x\r\n\r\n", "GET / HTTP/1.1\r\nno colon here\r\n\r\n",
                      "GET / HTTP/1.1\r\n\r\n", "\u{00}\u{01}\u{02}\r\n\r\n"])
    func malformedRequestIs400(request: String) throws {
        let server = try server()
        defer { server.stop() }
        let response = try RawHTTPClient.exchange(port: server.port, request)
        #expect(response.status == 400, "\(request.debugDescription) got \(response.text.prefix(80).debugDescription)")
        try expectServes(server)
    }

    @Test(arguments: ["PUT", "DELETE", "OPTIONS", "TRACE", "CONNECT", "PATCH"])
    func otherMethodsAre405(method: String) throws {
        let server = try server()
        defer { server.stop() }
        let response = try RawHTTPClient.exchange(port: server.port, "\(method) / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
        #expect(response.status == 405)
        #expect(response.header("allow") == "GET, HEAD, POST")
        try expectServes(server)
    }

    @Test func hundredKilobyteHeadersAre431() throws {
        let server = try server()
        defer { server.stop() }
        let filler = (0..<1000).map { "X-Filler-\($0): \(String(repeating: "a", count: 90))\r\n" }.joined()
        #expect(filler.utf8.count > 100_000)
        let response = try RawHTTPClient.exchange(port: server.port, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\(filler)\r\n")
        #expect(response.status == 431)
        try expectServes(server)
    }

    @Test func longRequestLineIs414() throws {
        let server = try server()
        defer { server.stop() }
        let response = try RawHTTPClient.exchange(port: server.port, "GET /\(String(repeating: "a", count: 20_000)) HTTP/1.1\r\n\r\n")
        #expect(response.status == 414)
        try expectServes(server)
    }

    @Test func oversizedBodyIs413() throws {
        let server = try server()
        defer { server.stop() }
        let head = "POST / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Length: 10000000\r\n\r\n"
        let client = try RawHTTPClient(port: server.port)
        defer { client.close() }
        client.send(head)
        client.send(String(repeating: "b", count: 200_000))
        let response = RawResponse(client.receiveAll())
        #expect(response.status == 413)
        try expectServes(server)
    }

    @Test func chunkedBodyIs501() throws {
        let server = try server()
        defer { server.stop() }
        let request = "POST / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
        #expect(try RawHTTPClient.exchange(port: server.port, request).status == 501)
        try expectServes(server)
    }

    /// A byte a second never finishes a request within the 1 s timeout:
    /// 408, and the connection is let go.
    @Test func oneByteASecondTimesOut() throws {
        let server = try server(timeout: 1)
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        defer { client.close() }
        let request = Array(good(server).utf8)
        let started = Date()
        var answer = ""
        for byte in request {
            guard client.send([byte]) else { break }
            answer = client.receiveAll(seconds: 0.6)
            if !answer.isEmpty { break }
            usleep(400_000)
        }
        #expect(RawResponse(answer).status == 408)
        #expect(Date().timeIntervalSince(started) < 5)
        try expectServes(server)
    }

    /// 200 clients connect and say nothing: the cap (16 here) holds the
    /// first, the rest get 503 at once; the held ones time out (408), and
    /// a good request is served again.
    @Test func twoHundredIdleConnectionsHitTheCap() throws {
        let server = try server(timeout: 1, maxConnections: 16)
        defer { server.stop() }
        let clients = try (0..<200).map { _ in try RawHTTPClient(port: server.port) }
        defer { clients.forEach { $0.close() } }
        let answers = clients.map { RawResponse($0.receiveAll(seconds: 3)).status }
        // Which connections land in a freed slot depends on timing; every one is answered, and most at once with 503.
        #expect(answers.allSatisfy { $0 == 503 || $0 == 408 })
        #expect(answers.filter { $0 == 408 }.count >= 16)
        #expect(answers.filter { $0 == 503 }.count >= 100)
        try expectServes(server)
    }

    /// The issue's attack at its size: 500 connections at once against the
    /// default cap, half saying nothing and half trickling a request a byte
    /// each 200 ms. The cap holds the first; the rest get 503 at once; the
    /// held ones time out with 408 (none completes a request); a good request
    /// meanwhile is answered, not left hanging; once they are gone the
    /// server serves the next good request.
    @Test func fiveHundredIdleAndSlowConnections() throws {
        let cap = HTTPServer.Settings().maxConnections
        let server = try server(timeout: 2, maxConnections: cap)
        defer { server.stop() }
        let clients = try (0..<500).map { _ in try RawHTTPClient(port: server.port) }
        defer { clients.forEach { $0.close() } }
        let slow = clients.indices.filter { $0 % 2 == 1 }
        let request = Array(good(server).utf8)
        // A slow client stops sending once answered (sending to a closed socket could reset it before its answer is read).
        func answered(_ client: RawHTTPClient) -> Bool {
            var pollFD = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
            return poll(&pollFD, 1, 0) > 0
        }
        var whileFull: Int?
        for byte in request.prefix(15) {
            for index in slow where !answered(clients[index]) { clients[index].send([byte]) }
            if whileFull == nil { whileFull = try RawHTTPClient.exchange(port: server.port, good(server)).status }
            usleep(200_000)
        }
        let answers = clients.map { RawResponse($0.receiveAll(seconds: 30)).status }
        #expect(answers.allSatisfy { $0 == 503 || $0 == 408 }, "statuses: \(Dictionary(grouping: answers, by: { $0 }).mapValues(\.count))")
        #expect(answers.filter { $0 == 408 }.count >= cap / 2, "the held connections time out")
        #expect(answers.filter { $0 == 503 }.count >= 500 - 2 * cap, "past the cap, 503 at once")
        #expect(slow.contains { answers[$0] == 408 } && clients.indices.contains { $0 % 2 == 0 && answers[$0] == 408 }, "idle and slow both held")
        // 503 while the cap is full; 200 if a busy machine let the held ones time out first: answered either way, never hung.
        #expect(whileFull == 503 || whileFull == 200, "a good request meanwhile got \(String(describing: whileFull))")
        try expectServes(server)
    }

    /// 200 good requests at once: each is answered (200, or 503 past the
    /// cap), none hangs, and the server serves the next.
    @Test func twoHundredConcurrentRequests() throws {
        let server = try server(timeout: 5, maxConnections: 64)
        defer { server.stop() }
        let request = good(server)
        let statuses = Mutex<[Int?]>([])
        DispatchQueue.concurrentPerform(iterations: 200) { _ in
            let status = try? RawHTTPClient.exchange(port: server.port, request).status
            statuses.withLock { $0.append(status ?? nil) }
        }
        let all = statuses.withLock { $0 }
        #expect(all.count == 200)
        #expect(all.allSatisfy { $0 == 200 || $0 == 503 })
        #expect(all.contains(200))
        try expectServes(server)
    }

    @Test func missingOrWrongSecretIs403() throws {
        let server = try server()
        defer { server.stop() }
        let host = "Host: 127.0.0.1:\(server.port)"
        #expect(try RawHTTPClient.exchange(port: server.port, "GET / HTTP/1.1\r\n\(host)\r\n\r\n").status == 403)
        #expect(try RawHTTPClient.exchange(port: server.port, "GET /?secret=wrong HTTP/1.1\r\n\(host)\r\n\r\n").status == 403)
        let wrongCookie = "Cookie: \(WebGate.cookie)=\(secret.dropLast())0"
        #expect(try RawHTTPClient.exchange(port: server.port, "GET / HTTP/1.1\r\n\(host)\r\n\(wrongCookie)\r\n\r\n").status == 403)
        try expectServes(server)
    }

    /// The secret in the address is traded for a strict cookie, and the
    /// redirect drops it from the address.
    @Test func secretInAddressSetsStrictCookie() throws {
        let server = try server()
        defer { server.stop() }
        let response = try RawHTTPClient.exchange(port: server.port, "GET /w/x?a=1&secret=\(secret) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
        #expect(response.status == 303)
        #expect(response.header("location") == "/w/x?a=1")
        let cookie = try #require(response.header("set-cookie"))
        #expect(cookie.hasPrefix("\(WebGate.cookie)=\(secret);"))
        #expect(cookie.contains("SameSite=Strict") && cookie.contains("HttpOnly"))
    }

    @Test(arguments: ["evil.example:80", "localhost.evil.example", "127.0.0.1", "127.0.0.1:1"])
    func foreignHostIs421(host: String) throws {
        let server = try server()
        defer { server.stop() }
        let response = try RawHTTPClient.exchange(port: server.port, "GET / HTTP/1.1\r\nHost: \(host)\r\nCookie: \(WebGate.cookie)=\(secret)\r\n\r\n")
        #expect(response.status == 421)
        try expectServes(server)
    }

    /// A POST with the cookie but without the secret in its form (what a
    /// forged form on another page would send) is refused.
    @Test func postWithoutFormSecretIs403() throws {
        let server = try server()
        defer { server.stop() }
        let head = "POST /w/x HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nCookie: \(WebGate.cookie)=\(secret)\r\n"
        let forged = "action=buy"
        #expect(try RawHTTPClient.exchange(port: server.port, head + "Content-Length: \(forged.utf8.count)\r\n\r\n\(forged)").status == 403)
        let real = "action=buy&secret=\(secret)"
        #expect(try RawHTTPClient.exchange(port: server.port, head + "Content-Length: \(real.utf8.count)\r\n\r\n\(real)").status == 200)
    }

    @Test func parserBoundsAreConfigurable() {
        var limits = RequestParser.Limits()
        limits.body = 4
        let parser = RequestParser(limits: limits)
        guard case .refused(413, _) = parser.parse(Array("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello".utf8)) else {
            Issue.record("a 5-byte body passed a 4-byte limit")
            return
        }
        guard case let .request(request) = parser.parse(Array("POST /p?q=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n\r\nabcd".utf8)) else {
            Issue.record("a 4-byte body was refused")
            return
        }
        #expect(request.path == "/p" && request.query == "q=1" && request.body == Array("abcd".utf8))
        guard case .incomplete = parser.parse(Array("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n\r\nab".utf8)) else {
            Issue.record("half a body counted as a request")
            return
        }
    }
}
