/// Reads one HTTP/1.1 request from the bytes received so far, within
/// bounds: a request line, the header block and a body each have a limit,
/// and anything that breaks the grammar or a limit is refused with its
/// status before more is read. Pure, so it is tested without sockets.
public struct RequestParser: Sendable {
    public struct Limits: Sendable {
        public var requestLine = 8 * 1024
        public var headers = 16 * 1024
        public var body = 64 * 1024
        public init() {}
    }

    public enum Outcome: Sendable {
        case incomplete
        case request(HTTPRequest)
        case refused(status: Int, reason: String)
    }

    public static let methods: Set<String> = ["GET", "POST", "HEAD"]
    public let limits: Limits

    public init(limits: Limits = Limits()) { self.limits = limits }

    public func parse(_ bytes: [UInt8]) -> Outcome {
        guard let lineEnd = find(crlf, in: bytes, from: 0) else {
            let tooLong = Outcome.refused(status: 414, reason: "the request line is longer than \(limits.requestLine) bytes")
            return bytes.count > limits.requestLine ? tooLong : .incomplete
        }
        guard lineEnd <= limits.requestLine else { return .refused(status: 414, reason: "the request line is longer than \(limits.requestLine) bytes") }
        let headerStart = lineEnd + 2
        let blockEnd = headerStart + 2 <= bytes.count && bytes[headerStart] == 13 && bytes[headerStart + 1] == 10
            ? headerStart : find(crlf + crlf, in: bytes, from: lineEnd).map { $0 + 2 }
        guard let headerEnd = blockEnd else {
            let tooLong = Outcome.refused(status: 431, reason: "the headers are longer than \(limits.headers) bytes")
            return bytes.count - headerStart > limits.headers ? tooLong : .incomplete
        }
        guard headerEnd - headerStart <= limits.headers else { return .refused(status: 431, reason: "the headers are longer than \(limits.headers) bytes") }
        guard let line = String(validating: bytes[0..<lineEnd], as: UTF8.self) else { return .refused(status: 400, reason: "the request line is not UTF-8") }
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1].hasPrefix("/"),
              parts[0].allSatisfy({ $0.isASCII && $0.isUppercase }), !parts[0].isEmpty,
              parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0",
              parts[1].utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return .refused(status: 400, reason: "a request line is METHOD /path HTTP/1.1")
        }
        guard Self.methods.contains(String(parts[0])) else { return .refused(status: 405, reason: "only GET, HEAD and POST are served") }
        var headers: [(name: String, value: String)] = []
        if headerEnd > headerStart {
            guard let block = String(validating: bytes[headerStart..<headerEnd - 2], as: UTF8.self) else {
                return .refused(status: 400, reason: "the headers are not UTF-8")
            }
            for field in block.split(separator: "\r\n", omittingEmptySubsequences: false) {
                guard let colon = field.firstIndex(of: ":"), colon != field.startIndex,
                      field[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_".contains($0)) }) else {
                    return .refused(status: 400, reason: "a header is not 'Name: value'")
                }
                let value = field[field.index(after: colon)...].trimmingSpaces
                headers.append((field[..<colon].lowercased(), value))
            }
        }
        guard headers.filter({ $0.name == "host" }).count == 1 else { return .refused(status: 400, reason: "a request needs exactly one Host header") }
        guard !headers.contains(where: { $0.name == "transfer-encoding" }) else {
            return .refused(status: 501, reason: "chunked bodies are not accepted; send Content-Length")
        }
        let lengths = headers.filter { $0.name == "content-length" }.map(\.value)
        var length = 0
        if let text = lengths.first {
            guard lengths.allSatisfy({ $0 == text }), let number = Int(text), number >= 0, text.allSatisfy(\.isNumber) else {
                return .refused(status: 400, reason: "Content-Length is not a number")
            }
            length = number
        }
        guard length <= limits.body else { return .refused(status: 413, reason: "the body is larger than \(limits.body) bytes") }
        let bodyStart = headerEnd + 2
        guard bytes.count >= bodyStart + length else { return .incomplete }
        let target = parts[1]
        let question = target.firstIndex(of: "?")
        return .request(HTTPRequest(method: String(parts[0]), path: String(target[..<(question ?? target.endIndex)]),
                                    query: question.map { String(target[target.index(after: $0)...]) }, headers: headers,
                                    body: Array(bytes[bodyStart..<bodyStart + length])))
    }

    private let crlf: [UInt8] = [13, 10]

    private func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0] && bytes[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
