import Foundation
import Glibc

/// A tiny HTTP/1.1 server for tests, bound to 127.0.0.1 on a free port.
///
/// A background thread accepts connections; each connection gets a thread
/// that reads one request, asks the handler for a `Reply`, sends it, and
/// closes the connection (`Connection: close`). Replies can be scripted:
/// a fixed status and body, a slow response, a body of any size with any
/// framing, a response cut short, or a close without responding.
///
///     let server = try LoopbackHTTPServer { request in
///         request.path == "/price" ? .ok("{\"usd\": 1}") : .response(status: 404, body: "nope")
///     }
///     defer { server.stop() }
///     let url = server.url("/price?coin=btc")
///
/// `stop()` (or releasing the server) ends every thread promptly, even one
/// in the middle of a slow response. Its lock is a pthread mutex
/// (`ServiceTestKit.Locked`), so it is clean under `--sanitize=thread`.
final class LoopbackHTTPServer: Sendable {
    /// One request as the server read it.
    struct Request: Sendable, CustomStringConvertible {
        let method: String
        /// The request target as sent, such as `/price?coin=btc`.
        let target: String
        /// Header names lowercased, in the order received.
        let headers: [(name: String, value: String)]

        var path: String { String(target.prefix { $0 != "?" }) }
        var query: String? { target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) } }
        func header(_ name: String) -> String? { headers.first { $0.name == name.lowercased() }?.value }
        var description: String { "\(method) \(target)" }
    }

    /// How a response body is delimited.
    enum Framing: Sendable {
        case contentLength
        case chunked
        /// No length: the body ends when the connection closes.
        case untilClose
    }

    /// What the server does with a request.
    enum Reply: Sendable {
        /// A complete response, sent after waiting `delay` seconds.
        case response(status: Int, body: [UInt8], headers: [(String, String)] = [], delay: Double = 0,
                      framing: Framing = .contentLength)
        /// Headers promising `declaredLength` bytes, then only `body`, then close.
        case truncated(status: Int, declaredLength: Int, body: [UInt8])
        /// Closes the connection without sending anything, after `delay` seconds.
        case close(delay: Double = 0)
        /// Sends exactly these bytes, then closes.
        case raw([UInt8])

        static func ok(_ body: String, contentType: String = "application/json") -> Reply {
            .response(status: 200, body: Array(body.utf8), headers: [("Content-Type", contentType)])
        }

        static func response(status: Int, body: String, delay: Double = 0) -> Reply {
            .response(status: status, body: Array(body.utf8), delay: delay)
        }
    }

    typealias Handler = @Sendable (Request) -> Reply

    let port: UInt16
    private let core: Core

    /// Starts a server whose every request gets `reply`.
    convenience init(always reply: Reply) throws {
        try self.init { _ in reply }
    }

    init(handler: @escaping Handler) throws {
        core = try Core(handler: handler)
        port = core.port
        core.startThread { [core] in core.acceptLoop() }
    }

    /// Releasing the server stops it.
    deinit { core.stop() }

    /// `http://127.0.0.1:PORT` followed by `pathAndQuery`.
    func url(_ pathAndQuery: String = "/") -> String {
        "http://127.0.0.1:\(port)" + (pathAndQuery.hasPrefix("/") ? "" : "/") + pathAndQuery
    }

    /// Every request received so far, oldest first.
    var requests: [Request] { core.requests }

    /// Stops accepting, wakes every connection thread (even one in the middle
    /// of a slow reply) and waits for them. Safe to call more than once.
    func stop() { core.stop() }

    /// A URL on which nothing listens: a port that was free a moment ago.
    /// Connecting to it is refused.
    static func closedPortURL(_ pathAndQuery: String = "/") throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestSupport.Failure("socket: \(Core.errorText())") }
        defer { close(fd) }
        var address = Core.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw TestSupport.Failure("bind: \(Core.errorText())") }
        return "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))" + pathAndQuery
    }
}

/// The sockets and threads; what the threads hold, so that releasing the
/// server (not its threads) stops it.
private final class Core: Sendable {
    typealias Handler = LoopbackHTTPServer.Handler
    typealias Request = LoopbackHTTPServer.Request

    let port: UInt16
    private let handler: Handler
    private let listener: Int32
    /// Closing the write end wakes every thread (their polls see the hang-up).
    private let stopRead: Int32
    private let stopWrite: Int32
    private let threads = DispatchGroup()
    private let state = ServiceTestKit.Locked<(requests: [Request], stopped: Bool)>(([], false))

    init(handler: @escaping Handler) throws {
        self.handler = handler
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestSupport.Failure("socket: \(Self.errorText())") }
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let text = Self.errorText()
            close(fd)
            throw TestSupport.Failure("bind/listen on 127.0.0.1: \(text)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        var stopPipe: [Int32] = [0, 0]
        guard pipe(&stopPipe) == 0 else {
            close(fd)
            throw TestSupport.Failure("pipe: \(Self.errorText())")
        }
        for end in stopPipe { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        listener = fd
        stopRead = stopPipe[0]
        stopWrite = stopPipe[1]
    }

    var requests: [Request] { state.withLock { $0.requests } }

    func stop() {
        let first = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        close(stopWrite)
        threads.wait()
        close(listener)
        close(stopRead)
    }

    // MARK: Threads

    func startThread(_ body: @escaping @Sendable () -> Void) {
        threads.enter()
        let thread = Thread { [threads] in
            body()
            threads.leave()
        }
        thread.start()
    }

    func acceptLoop() {
        while true {
            var polls = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: stopRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&polls, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || polls[1].revents != 0 { return }
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED || errno == EAGAIN { continue }
                return
            }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            // A client that stops reading cannot block a sending thread forever.
            var limit = timeval(tv_sec: 10, tv_usec: 0)
            _ = setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            startThread { [self] in
                serve(connection)
                close(connection)
            }
        }
    }

    private func serve(_ connection: Int32) {
        guard let request = readRequest(connection) else { return }
        state.withLock { $0.requests.append(request) }
        switch handler(request) {
        case let .response(status, body, headers, delay, framing):
            guard wait(delay) else { return }
            var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\nConnection: close\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            switch framing {
            case .contentLength: head += "Content-Length: \(body.count)\r\n\r\n"
            case .chunked: head += "Transfer-Encoding: chunked\r\n\r\n"
            case .untilClose: head += "\r\n"
            }
            guard send(Array(head.utf8), to: connection) else { return }
            if framing == .chunked {
                var offset = 0
                while offset < body.count {
                    let chunk = body[offset..<min(offset + 16384, body.count)]
                    guard send(Array(String(chunk.count, radix: 16).utf8) + [13, 10] + chunk + [13, 10], to: connection) else { return }
                    offset += chunk.count
                }
                _ = send(Array("0\r\n\r\n".utf8), to: connection)
            } else {
                _ = send(body, to: connection)
            }
        case let .truncated(status, declaredLength, body):
            let head = "HTTP/1.1 \(status) \(Self.reason(status))\r\nConnection: close\r\nContent-Length: \(declaredLength)\r\n\r\n"
            _ = send(Array(head.utf8) + body, to: connection)
        case let .close(delay):
            _ = wait(delay)
        case let .raw(bytes):
            _ = send(bytes, to: connection)
        }
        shutdown(connection, Int32(SHUT_WR))
    }

    /// Reads up to the end of the request head; nil if the client went away
    /// or the server is stopping.
    private func readRequest(_ connection: Int32) -> Request? {
        var bytes: [UInt8] = []
        let end: [UInt8] = [13, 10, 13, 10]
        while bytes.count < 64 << 10 {
            var polls = [pollfd(fd: connection, events: Int16(POLLIN), revents: 0), pollfd(fd: stopRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&polls, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || polls[1].revents != 0 { return nil }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            bytes += chunk[0..<count]
            if let range = bytes.firstRange(of: end) {
                let head = String(decoding: bytes[..<range.lowerBound], as: UTF8.self)
                var lines = head.components(separatedBy: "\r\n")
                let requestLine = lines.removeFirst().split(separator: " ")
                guard requestLine.count >= 2 else { return nil }
                let headers = lines.compactMap { line -> (name: String, value: String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                }
                return Request(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers)
            }
        }
        return nil
    }

    /// Waits `seconds`, or less if the server stops; false if it stopped.
    private func wait(_ seconds: Double) -> Bool {
        guard seconds > 0 else { return true }
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return true }
            var polls = [pollfd(fd: stopRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&polls, 1, Int32(min(remaining, 1) * 1000) + 1)
            if ready > 0 { return false }
        }
    }

    /// Sends everything; false if the peer went away.
    private func send(_ bytes: [UInt8], to connection: Int32) -> Bool {
        bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let count = Glibc.send(connection, raw.baseAddress! + done, raw.count - done, Int32(MSG_NOSIGNAL))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
    }

    static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian   // 127.0.0.1
        return address
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}
