/// One HTTP/1.1 request as the server read it: the method, the target
/// split into path and query, the headers (names lower-cased) and the body.
public struct HTTPRequest: Sendable {
    public let method: String
    public let path: String
    public let query: String?
    public let headers: [(name: String, value: String)]
    public let body: [UInt8]

    public func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }

    /// The `key=value` pairs of the query or of a form body, percent-decoded.
    public static func form(_ text: String) -> [(String, String)] {
        text.split(separator: "&").map { pair in
            let sides = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (percentDecoded(sides[0]), sides.count == 2 ? percentDecoded(sides[1]) : "")
        }
    }

    /// `+` is a space in forms; an invalid escape stays as written.
    public static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), input.count >= 2, let high = hexValue(input[input.startIndex]),
                      let low = hexValue(input[input.startIndex + 1]) {
                bytes.append(high << 4 | low)
                input = input.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// What the server answers: a whole response, or an event stream that the
/// connection's thread feeds until the client goes away.
public enum HTTPResponse: Sendable {
    case full(status: Int, headers: [(String, String)], body: [UInt8])
    case events(headers: [(String, String)], stream: @Sendable (EventStream) -> Void)

    public static func text(_ status: Int, _ text: String, headers: [(String, String)] = []) -> HTTPResponse {
        .full(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers, body: Array((text + "\n").utf8))
    }

    public static func redirect(to location: String, headers: [(String, String)] = []) -> HTTPResponse {
        .full(status: 303, headers: [("Location", location)] + headers, body: [])
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 303: "See Other"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 421: "Misdirected Request"
        case 422: "Unprocessable Content"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        // A status without a phrase here is a mistake (HTTPMessageTests finds
        // every status the server sends); clients read the number, not this.
        default: "Unknown"
        }
    }
}

/// Where an event stream writes: false once the client is gone.
public protocol EventStream: Sendable {
    func send(_ bytes: [UInt8]) -> Bool
}
