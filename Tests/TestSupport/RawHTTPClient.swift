import Foundation
import Glibc

/// A client that writes whatever bytes a test says (well formed or not) to
/// a loopback port and reads the whole answer: how the attack tests talk.
struct RawHTTPClient {
    let fd: Int32

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
            throw RawError(description: "connect failed: \(errno)")
        }
    }

    struct RawError: Error, CustomStringConvertible { let description: String }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Everything the server sends until it closes, or until `seconds` pass.
    func receiveAll(seconds: Double = 10) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = now() + seconds
        while now() < deadline {
            var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pollFD, 1, Int32(max((deadline - now()) * 1000, 1))) > 0 else { break }
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads up to the first event (a blank line) of an event stream.
    func receiveEvent(seconds: Double, after seen: inout String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = now() + seconds
        while now() < deadline {
            if let end = seen.range(of: "\n\n") {
                let event = String(seen[..<end.lowerBound])
                seen = String(seen[end.upperBound...])
                return event
            }
            var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pollFD, 1, Int32(max((deadline - now()) * 1000, 1))) > 0 else { break }
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            seen += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        return nil
    }

    func close() { _ = Glibc.close(fd) }

    private func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// One request, one answer: a fresh connection each time.
    static func exchange(port: Int, _ request: String, seconds: Double = 10) throws -> RawResponse {
        let client = try RawHTTPClient(port: port)
        defer { client.close() }
        client.send(request)
        return RawResponse(client.receiveAll(seconds: seconds))
    }
}

/// An answer split into status, headers and body.
struct RawResponse {
    let text: String
    let status: Int?
    let headers: [(String, String)]
    let body: String

    init(_ text: String) {
        self.text = text
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts.first ?? ""
        let lines = head.components(separatedBy: "\r\n")
        status = lines.first.flatMap { line in line.split(separator: " ").dropFirst().first.flatMap { Int($0) } }
        headers = lines.dropFirst().compactMap { line in
            line.firstIndex(of: ":").map { (line[..<$0].lowercased(), line[line.index(after: $0)...].trimmingCharacters(in: .whitespaces)) }
        }
        body = parts.dropFirst().joined(separator: "\r\n\r\n")
    }

    func header(_ name: String) -> String? { headers.first { $0.0 == name }?.1 }
}
