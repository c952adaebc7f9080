import Glibc

/// Who may talk to the server: a request must name the bound address in
/// `Host` (a page on another site that rebinds its DNS name to 127.0.0.1
/// sends its own name) and carry the secret, first in the address printed
/// at start (answered with a cookie and a redirect that drops it from the
/// address), then in the cookie; a POST carries it in its form too, so no
/// other page can submit one even if a browser sent our cookie along.
public struct WebGate: Sendable {
    public static let cookie = "widget_host_secret"
    public static let parameter = "secret"
    public let secret: String
    public let host: String

    public init(secret: String, host: String) {
        self.secret = secret
        self.host = host
    }

    /// 24 random bytes as 48 hex digits, from the kernel; nil if it gives none.
    public static func randomSecret() -> String? {
        let fd = Glibc.open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 24)
        guard read(fd, &bytes, bytes.count) == bytes.count else { return nil }
        return bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    public enum Verdict: Sendable {
        case pass
        case refuse(HTTPResponse)
    }

    public func check(_ request: HTTPRequest) -> Verdict {
        guard request.header("host") == host else { return .refuse(.text(421, "this server answers only to Host: \(host)")) }
        let fromQuery = request.query.map(HTTPRequest.form)?.first { $0.0 == Self.parameter }?.1
        if let fromQuery {
            guard Self.same(fromQuery, secret) else { return .refuse(.text(403, "wrong secret")) }
            if request.method == "GET" || request.method == "HEAD" {
                // Keep the secret out of history and logs: set the cookie, then the same address without it.
                let rest = HTTPRequest.form(request.query ?? "").filter { $0.0 != Self.parameter }
                let location = request.path + (rest.isEmpty ? "" : "?" + rest.map { "\(WebURL.escape($0.0))=\(WebURL.escape($0.1))" }.joined(separator: "&"))
                return .refuse(.redirect(to: location, headers: [("Set-Cookie", setCookie)]))
            }
        }
        let cookies = (request.header("cookie") ?? "").split(separator: ";").map { $0.trimmingSpaces }
        let fromCookie = cookies.first { $0.hasPrefix(Self.cookie + "=") }.map { String($0.dropFirst(Self.cookie.count + 1)) }
        guard fromQuery != nil || fromCookie.map({ Self.same($0, secret) }) == true else {
            return .refuse(.text(403, "open the address widget-host serve printed (it carries the secret)"))
        }
        if request.method == "POST" {
            let fromForm = HTTPRequest.form(String(decoding: request.body, as: UTF8.self)).first { $0.0 == Self.parameter }?.1
            guard let fromForm, Self.same(fromForm, secret) else { return .refuse(.text(403, "an action must carry the secret in its form")) }
        }
        return .pass
    }

    public var setCookie: String { "\(Self.cookie)=\(secret); Path=/; SameSite=Strict; HttpOnly" }

    /// Compares in time independent of where the strings differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// Percent-escaping for the addresses the page writes.
enum WebURL {
    static func escape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let character = Character(Unicode.Scalar(byte))
            if byte < 0x80 && (character.isLetter || character.isNumber || "-._~".contains(character)) {
                out.append(character)
            } else {
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }
}
