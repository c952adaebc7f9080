import Foundation
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// HTTPClient against LoopbackHTTPServer. Every request goes to 127.0.0.1.
@Suite("HTTP client", .timeLimit(.minutes(3)))
struct HTTPClientTests {
    let client = HTTPClient()

    @Test("200 with a body")
    func ok() throws {
        let server = try LoopbackHTTPServer { request in
            .ok("{\"path\":\"\(request.path)\",\"query\":\"\(request.query ?? "")\"}")
        }
        defer { server.stop() }
        let response = try client.get(server.url("/price?coin=btc&n=2"), timeout: 10)
        #expect(response.status == 200)
        #expect(try ServiceTestKit.json(response.body) == ["path": "/price", "query": "coin=btc&n=2"])
        let requests = server.requests
        #expect(requests.count == 1)
        #expect(requests.first?.method == "GET")
        #expect(requests.first?.target == "/price?coin=btc&n=2")
    }

    @Test("redirects are followed one hop at a time, each judged by allow before it is asked")
    func redirectsJudged() throws {
        let far = try LoopbackHTTPServer(always: .ok("far"))
        defer { far.stop() }
        let near = try LoopbackHTTPServer(always: .response(status: 302, body: Array("moved".utf8), headers: [("Location", far.url("/far"))]))
        defer { near.stop() }
        var asked: [String] = []
        let followed = try client.get(near.url("/near"), timeout: 10) { asked.append($0); return nil }
        #expect(followed.status == 200 && String(decoding: followed.body, as: UTF8.self) == "far")
        #expect(asked == [near.url("/near"), far.url("/far")])

        let before = far.requests.count
        #expect(throws: HTTPClient.Failure.denied("no \(far.url("/far")) (the redirect of \(near.url("/near")))")) {
            _ = try client.get(near.url("/near"), timeout: 10) { $0 == far.url("/far") ? "no \($0)" : nil }
        }
        #expect(far.requests.count == before, "the refused hop was asked")
    }

    @Test("a redirect loop ends after the most redirects, with a reason")
    func redirectLoop() throws {
        let server = try LoopbackHTTPServer(always: .response(status: 302, body: [], headers: [("Location", "/again")]))
        defer { server.stop() }
        #expect(throws: HTTPClient.Failure.failed("more than \(HTTPClient.maxRedirects) redirects")) {
            _ = try client.get(server.url("/"), timeout: 10)
        }
        #expect(server.requests.count == HTTPClient.maxRedirects + 1)
    }

    @Test("non-2xx statuses are returned with their body", arguments: [404, 500, 503, 400, 418])
    func errorStatus(status: Int) throws {
        let server = try LoopbackHTTPServer(always: .response(status: status, body: "body of \(status)"))
        defer { server.stop() }
        let response = try client.get(server.url("/x"), timeout: 10)
        #expect(response.status == status)
        #expect(String(decoding: response.body, as: UTF8.self) == "body of \(status)")
    }

    @Test("an empty body and a binary body arrive exactly")
    func bodies() throws {
        let binary = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let server = try LoopbackHTTPServer { request in
            request.path == "/empty" ? .response(status: 204, body: []) : .response(status: 200, body: binary)
        }
        defer { server.stop() }
        let empty = try client.get(server.url("/empty"), timeout: 10)
        #expect(empty.status == 204)
        #expect(empty.body.isEmpty)
        let full = try client.get(server.url("/binary"), timeout: 10)
        #expect(full.body == binary)
    }

    @Test("chunked and close-delimited bodies are read completely",
          arguments: [LoopbackHTTPServer.Framing.chunked, .untilClose, .contentLength])
    func framing(framing: LoopbackHTTPServer.Framing) throws {
        let body = Array(String(repeating: "0123456789", count: 5000).utf8)
        let server = try LoopbackHTTPServer(always: .response(status: 200, body: body, framing: framing))
        defer { server.stop() }
        let response = try client.get(server.url("/"), timeout: 10)
        #expect(response.status == 200)
        #expect(response.body == body)
    }

    @Test("a body at exactly the limit is accepted")
    func atLimit() throws {
        let body = [UInt8](repeating: 0x61, count: 1000)
        let server = try LoopbackHTTPServer(always: .response(status: 200, body: body))
        defer { server.stop() }
        #expect(try client.get(server.url("/"), timeout: 10, maxBytes: 1000).body == body)
    }

    @Test("a server slower than the timeout gives .timeout")
    func timeout() throws {
        let server = try LoopbackHTTPServer(always: .response(status: 200, body: "late", delay: 30))
        defer { server.stop() }
        #expect(throws: HTTPClient.Failure.timeout(0.5)) { try client.get(server.url("/slow"), timeout: 0.5) }
    }

    @Test("a server that accepts and never answers gives .timeout")
    func silentServer() throws {
        let server = try LoopbackHTTPServer(always: .close(delay: 30))
        defer { server.stop() }
        #expect(throws: HTTPClient.Failure.timeout(0.5)) { try client.get(server.url("/"), timeout: 0.5) }
    }

    @Test("a body over the limit gives .tooLarge, however it is framed",
          arguments: [LoopbackHTTPServer.Framing.contentLength, .chunked, .untilClose])
    func tooLarge(framing: LoopbackHTTPServer.Framing) throws {
        let server = try LoopbackHTTPServer(always: .response(status: 200, body: [UInt8](repeating: 0x62, count: 200_000),
                                                              framing: framing))
        defer { server.stop() }
        #expect(throws: HTTPClient.Failure.tooLarge(50_000)) { try client.get(server.url("/big"), timeout: 10, maxBytes: 50_000) }
    }

    @Test("a refused connection (nothing listens on the port) says 'connection refused', not 'network unreachable'")
    func refused() throws {
        let url = try LoopbackHTTPServer.closedPortURL("/nothing")
        let error = #expect(throws: HTTPClient.Failure.self) { try client.get(url, timeout: 10) }
        guard case .unreachable(.refused, _)? = error else {
            Issue.record("expected .unreachable(.refused), got \(String(describing: error))")
            return
        }
        #expect(error?.description.hasPrefix("connection refused") == true, "\(String(describing: error))")
    }

    @Test("https to a server that speaks plain HTTP is a TLS failure, named as one")
    func tlsFailure() throws {
        // A listener that answers the TLS hello with plain HTTP, at once.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0,
                                  sin_addr: in_addr(s_addr: UInt32(0x7F00_0001).bigEndian), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        try #require(bound && listen(listener, 1) == 0)
        let answered = DispatchSemaphore(value: 0)
        Thread {
            let connection = accept(listener, nil, nil)
            var hello = [UInt8](repeating: 0, count: 4096)
            _ = recv(connection, &hello, hello.count, 0)
            let reply = Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8)
            _ = send(connection, reply, reply.count, Int32(MSG_NOSIGNAL))
            close(connection)
            answered.signal()
        }.start()
        let url = "https://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/"
        defer { answered.wait() }
        let error = #expect(throws: HTTPClient.Failure.self) { try client.get(url, timeout: 10) }
        guard case let .failed(reason)? = error else {
            Issue.record("expected .failed, got \(String(describing: error))")
            return
        }
        #expect(reason.hasPrefix("TLS failure: "), "\(reason)")
    }

    @Test("libcurl's codes and the errno behind them map to the real cause",
          arguments: [(Int32(6), Int32(0), "DNS failure"), (7, ECONNREFUSED, "connection refused"), (7, ENETUNREACH, "no route"),
                      (7, EHOSTUNREACH, "no route"), (7, 0, "could not connect"), (5, 0, "DNS failure"), (35, 0, "TLS failure"),
                      (60, 0, "TLS failure"), (28, 0, "no response within"), (56, 0, "the connection failed")])
    func causes(code: Int32, osErrno: Int32, prefix: String) {
        let failure = HTTPClient.failure(code: code, osErrno: osErrno, reason: "detail", url: "http://x/", maxBytes: 1, timeout: 2)
        #expect(failure.description.hasPrefix(prefix), "\(code)/\(osErrno): \(failure)")
    }

    @Test("a URL that is not absolute http(s) gives .badURL without connecting anywhere",
          arguments: ["ftp://x", "not a url", "", "http://", "https://", "file:///etc/passwd", "mailto:a@b.c",
                      "127.0.0.1:80/x", "/relative/path", "gopher://127.0.0.1/"])
    func badURL(url: String) throws {
        #expect(throws: HTTPClient.Failure.badURL(url)) { try client.get(url, timeout: 2) }
    }

    @Test("a connection closed mid-response is a failure, not a crash")
    func truncatedResponse() throws {
        let server = try LoopbackHTTPServer(always: .truncated(status: 200, declaredLength: 10_000, body: Array("only part".utf8)))
        defer { server.stop() }
        let error = #expect(throws: HTTPClient.Failure.self) { try client.get(server.url("/cut"), timeout: 10) }
        // http.h: a broken connection is WH_HTTP_FAILED.
        guard case .failed? = error else {
            Issue.record("expected .failed for a response cut short, got \(String(describing: error))")
            return
        }
    }

    @Test("a connection closed without any response is a failure, not a crash")
    func closedWithoutResponse() throws {
        let server = try LoopbackHTTPServer(always: .close())
        defer { server.stop() }
        let error = #expect(throws: HTTPClient.Failure.self) { try client.get(server.url("/"), timeout: 10) }
        switch error {
        case .failed?, .unreachable?: break
        default: Issue.record("expected .failed or .unreachable, got \(String(describing: error))")
        }
        #expect(server.requests.count >= 1, "the server did receive the request")
    }

    @Test("garbage instead of HTTP is a failure, not a crash")
    func garbage() throws {
        let server = try LoopbackHTTPServer(always: .raw(Array("this is not HTTP at all\r\n\r\n".utf8)))
        defer { server.stop() }
        #expect(throws: HTTPClient.Failure.self) { try client.get(server.url("/"), timeout: 10) }
    }

    @Test("many requests in parallel each get their own answer")
    func parallel() throws {
        let server = try LoopbackHTTPServer { request in .ok("{\"n\":\"\(request.query ?? "")\"}") }
        defer { server.stop() }
        let answers = ServiceTestKit.Locked<[String: String]>([:])
        let finished = ServiceTestKit.onThreads(6) { thread in
            for index in 0..<5 {
                let key = "\(thread)-\(index)"
                let body = (try? client.get(server.url("/?\(key)"), timeout: 20)).map { String(decoding: $0.body, as: UTF8.self) }
                answers.withLock { $0[key] = body ?? "failed" }
            }
        }
        #expect(finished)
        let got = answers.value
        #expect(got.count == 30)
        for (key, body) in got { #expect(body == "{\"n\":\"\(key)\"}") }
    }

    @Test("the loopback server stops promptly even in the middle of a slow reply")
    func serverStops() throws {
        let server = try LoopbackHTTPServer(always: .response(status: 200, body: "x", delay: 60))
        let client = self.client
        let url = server.url("/")
        let result = ServiceTestKit.Locked<String>("")
        let requestThread = DispatchSemaphore(value: 0)
        Thread {
            do { _ = try client.get(url, timeout: 120) } catch { result.set("\(error)") }
            requestThread.signal()
        }.start()
        for _ in 0..<3000 where server.requests.isEmpty { usleep(10_000) }
        #expect(server.requests.count == 1)
        #expect(ServiceTestKit.finishes(within: 30) { server.stop() }, "stop() must not wait for the slow reply")
        #expect(requestThread.wait(timeout: .now() + 60) == .success)
        #expect(!result.value.isEmpty, "the client sees the closed connection as a failure")
    }
}
