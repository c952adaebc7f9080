import Glibc
import HostShim

/// A small HTTP/1.1 server on our own sockets: one thread accepts, one
/// thread serves each connection (at most `maxConnections` at once; the
/// next gets 503), each connection carries one request (`Connection:
/// close`) or one event stream. A request must arrive whole within
/// `requestTimeout` seconds, however slowly its bytes trickle in.
public final class HTTPServer: Sendable {
    public struct Settings: Sendable {
        public var limits = RequestParser.Limits()
        public var requestTimeout = 10.0
        public var maxConnections = 64
        public init() {}
    }

    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    public let address: String
    public let port: Int
    private let socket: Int32
    private let settings: Settings
    private let handler: Handler
    private let open = AtomicCell<Int>(0)
    private let stopped = AtomicCell<Bool>(false)
    private let stopPipe: (read: Int32, write: Int32)

    /// Binds `address:port` (port 0: any free port) and starts serving.
    public init(address: String, port: Int, settings: Settings = Settings(), handler: @escaping Handler) throws(SystemError) {
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
        guard inet_pton(AF_INET, address, &socketAddress.sin_addr) == 1 else { throw SystemError(code: EINVAL) }
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemError(code: errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            let code = errno
            close(fd)
            throw SystemError(code: code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &socketAddress) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        var fds: [Int32] = [0, 0]
        guard wh_shim_pipe_cloexec(&fds) == 0 else {
            close(fd)
            throw SystemError(code: errno)
        }
        self.address = address
        self.port = Int(UInt16(bigEndian: socketAddress.sin_port))
        self.socket = fd
        self.settings = settings
        self.handler = handler
        self.stopPipe = (fds[0], fds[1])
        guard Threads.start(name: "http-accept", { [self] in acceptLoop() }) else {
            close(fd)   // the loop would have; the stop pipe goes with deinit
            throw SystemError(code: EAGAIN)
        }
    }

    /// Connections being served now.
    public var openConnections: Int { open.load(ordering: .relaxed) }

    /// Stops accepting; connections in progress finish on their own.
    public func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
    }

    // The stop pipe outlives the loop: `stop()` may write to it after the
    // loop has seen `stopped` and ended, and a descriptor closed by then
    // could already be someone else's. The loop's thread holds the server,
    // so this runs after it.
    deinit {
        close(stopPipe.read)
        close(stopPipe.write)
    }

    private func acceptLoop() {
        defer { close(socket) }
        while !stopped.load(ordering: .relaxed) {
            var fds = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0), pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { return }
            if fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }
            let client = accept(socket, nil, nil)
            guard client >= 0 else {
                // Out of descriptors or the like: wait a moment rather than spin.
                if errno != EINTR && errno != EAGAIN && errno != ECONNABORTED { usleep(10_000) }
                continue
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            Connection.setSendTimeout(client, seconds: settings.requestTimeout)
            guard open.add(1, ordering: .relaxed).newValue <= settings.maxConnections else {
                Connection(fd: client).respond(.text(503, "too many connections; try again"), head: false)
                close(client)
                open.subtract(1, ordering: .relaxed)
                continue
            }
            let started = Threads.start(name: "http-conn") { [self] in
                serve(Connection(fd: client))
                close(client)
                open.subtract(1, ordering: .relaxed)
            }
            if !started {
                Connection(fd: client).respond(.text(503, "the server is busy; try again"), head: false)
                close(client)
                open.subtract(1, ordering: .relaxed)
            }
        }
    }

    private func serve(_ connection: Connection) {
        let parser = RequestParser(limits: settings.limits)
        let deadline = Clock.now + settings.requestTimeout
        var received: [UInt8] = []
        while true {
            switch parser.parse(received) {
            case let .refused(status, reason):
                connection.respond(.text(status, reason, headers: status == 405 ? [("Allow", "GET, HEAD, POST")] : []), head: false)
                connection.drain(before: Clock.now + 1)
                return
            case let .request(request):
                connection.respond(handler(request), head: request.method == "HEAD")
                return
            case .incomplete:
                switch connection.receive(before: deadline) {
                case let .bytes(bytes): received += bytes
                case .closed: return
                case .timedOut:
                    connection.respond(.text(408, "the request did not arrive within \(settings.requestTimeout) s"), head: false)
                    return
                }
            }
        }
    }
}

/// One client's socket: receiving within a deadline, and writing a whole
/// response (never raising SIGPIPE when the client has gone).
struct Connection: EventStream {
    let fd: Int32

    enum Received { case bytes([UInt8]), closed, timedOut }

    static func setSendTimeout(_ fd: Int32, seconds: Double) {
        var time = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    func receive(before deadline: Double) -> Received {
        let remaining = deadline - Clock.now
        guard remaining > 0 else { return .timedOut }
        var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pollFD, 1, Int32(max(remaining * 1000, 1)))
        if ready == 0 { return .timedOut }
        if ready < 0 { return errno == EINTR ? .bytes([]) : .closed }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let count = recv(fd, &buffer, buffer.count, 0)
        if count < 0 && errno == EINTR { return .bytes([]) }
        return count > 0 ? .bytes(Array(buffer[0..<count])) : .closed
    }

    /// After a refusal the client may still be sending (a 100 KB header):
    /// closing with its bytes unread would reset the connection and lose
    /// our answer, so end our side and read what comes, briefly.
    func drain(before deadline: Double) {
        shutdown(fd, Int32(SHUT_WR))
        var total = 0
        while total < 1 << 20, case let .bytes(bytes) = receive(before: deadline) { total += max(bytes.count, 1) }
    }

    func respond(_ response: HTTPResponse, head: Bool) {
        switch response {
        case let .full(status, headers, body):
            let lines = ["HTTP/1.1 \(status) \(HTTPResponse.reason(status))", "Content-Length: \(body.count)", "Connection: close"]
                + (Self.commonHeaders + headers).map { "\($0.0): \($0.1)" }
            _ = send(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + (head ? [] : body))
        case let .events(headers, stream):
            let lines = ["HTTP/1.1 200 OK", "Content-Type: text/event-stream", "Cache-Control: no-store", "Connection: close"]
                + (Self.commonHeaders + headers).map { "\($0.0): \($0.1)" }
            guard send(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)), !head else { return }
            stream(self)
        }
    }

    /// Sent with every answer: nothing of ours is framed, sniffed or
    /// referred onward.
    static let commonHeaders = [("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer")]

    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }
}
