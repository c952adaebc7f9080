import Glibc
import HostShim

/// HTTP GET with a deadline and a cap on the body, for the plugins' http
/// service, through libcurl (HostShim's http_get.c says why not URLSession).
/// It blocks the calling thread, which the service contract makes the
/// plugin's own, in poll(): waiting costs no CPU.
public final class HTTPClient: Sendable {
    public struct Response: Sendable, Equatable {
        public let status: Int
        public let body: [UInt8]
    }

    /// Why no connection was made, as precisely as libcurl and the system say.
    public enum Cause: String, Sendable, Equatable {
        case refused = "connection refused"
        case hostNotFound = "DNS failure: the host name could not be resolved"
        case noRoute = "no route to the host (network unreachable)"
        case offline = "no network"
        case other = "could not connect"
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case badURL(String)
        /// No connection: the cause, and libcurl's own message.
        case unreachable(Cause, String)
        case timeout(Double)
        case tooLarge(Int)
        /// A hop the caller's `allow` refused, in its words.
        case denied(String)
        case failed(String)

        public var description: String {
            switch self {
            case let .badURL(url): "not an absolute http or https URL: \(url)"
            case let .unreachable(cause, detail): cause.rawValue + (detail.isEmpty ? "" : " (\(detail))")
            case let .timeout(seconds): "no response within \(seconds.formatted1)s"
            case let .tooLarge(limit): "the response is larger than \(limit) bytes"
            case let .denied(reason): reason
            case let .failed(reason): reason
            }
        }
    }

    public static let defaultTimeout = 10.0
    public static let defaultMaxBytes = 1 << 20
    /// The most redirects one GET follows.
    public static let maxRedirects = 5

    /// Why every request fails at once, for a client with no network (the
    /// caged checks of `validate`, whose sandbox refuses sockets).
    private let offline: String?

    public init() { offline = nil }

    public init(offline reason: String) { offline = reason }

    /// GETs `url`, following redirects one hop at a time: `allow` judges
    /// every URL, the first and each a redirect points at, and returns why
    /// one may not be visited (nil if it may). The timeout covers all hops.
    public func get(_ url: String, timeout: Double = defaultTimeout, maxBytes: Int = defaultMaxBytes,
                    allow: (String) -> String? = { _ in nil }) throws(Failure) -> Response {
        let deadline = Clock.now + timeout
        var next = url, previous: String?
        for _ in 0...Self.maxRedirects {
            if let denial = allow(next) { throw .denied(denial + (previous.map { " (the redirect of \($0))" } ?? "")) }
            let (response, redirect) = try hop(next, timeout: max(deadline - Clock.now, 0.001), maxBytes: maxBytes, original: timeout)
            guard let redirect, (300..<400).contains(response.status) else { return response }
            (previous, next) = (next, redirect)
        }
        throw .failed("more than \(Self.maxRedirects) redirects")
    }

    /// One request, and where its answer redirects to, if anywhere.
    private func hop(_ url: String, timeout: Double, maxBytes: Int, original: Double) throws(Failure) -> (Response, String?) {
        guard Self.isAbsoluteHTTP(url) else { throw .badURL(url) }
        if let offline { throw .unreachable(.offline, offline) }
        let body = Body(limit: maxBytes)
        var status = 0
        var message = [CChar](repeating: 0, count: 512)
        var location = [CChar](repeating: 0, count: 4096)
        var osErrno = 0
        let code = withExtendedLifetime(body) {
            wh_shim_http_get(url, max(Int(timeout * 1000), 1), { context, data, length in
                Unmanaged<Body>.fromOpaque(context!).takeUnretainedValue().append(data, length) ? 0 : 1
            }, Unmanaged.passUnretained(body).toOpaque(), &status, &location, location.count, &message, message.count, &osErrno)
        }
        let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard code == 0 else {
            if body.overflowed { throw .tooLarge(maxBytes) }
            throw Self.failure(code: code, osErrno: Int32(truncatingIfNeeded: osErrno), reason: reason, url: url,
                               maxBytes: maxBytes, timeout: original)
        }
        let redirect = String(decoding: location.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (Response(status: status, body: body.bytes), redirect.isEmpty ? nil : redirect)
    }

    /// libcurl's error code (and the system's errno behind it) as a failure
    /// that names the real cause: a refused connection is not an unreachable
    /// network, and a TLS handshake that fails is neither.
    static func failure(code: Int32, osErrno: Int32, reason: String, url: String, maxBytes: Int, timeout: Double) -> Failure {
        switch code {
        case CURLCode.unsupportedProtocol, CURLCode.malformedURL: return .badURL(url)
        case CURLCode.cannotResolveProxy, CURLCode.cannotResolveHost: return .unreachable(.hostNotFound, reason)
        case CURLCode.cannotConnect:
            switch osErrno {
            case ECONNREFUSED: return .unreachable(.refused, reason)
            case ENETUNREACH, EHOSTUNREACH, ENETDOWN, EHOSTDOWN: return .unreachable(.noRoute, reason)
            default: return .unreachable(.other, reason)
            }
        case CURLCode.timedOut: return .timeout(timeout)
        case CURLCode.fileTooLarge: return .tooLarge(maxBytes)
        case CURLCode.gotNothing: return .failed("the server closed the connection without answering")
        case _ where CURLCode.tls.contains(code):
            return .failed("TLS failure: \(reason.isEmpty ? "libcurl error \(code)" : reason)")
        default: return .failed("the connection failed: \(reason.isEmpty ? "libcurl error \(code)" : reason)")
        }
    }

    /// `http://HOST...` or `https://HOST...`, with a host.
    static func isAbsoluteHTTP(_ url: String) -> Bool {
        let lowered = url.lowercased()
        guard let rest = ["http://", "https://"].first(where: lowered.hasPrefix).map({ url.dropFirst($0.count) }) else { return false }
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !host.isEmpty && !url.contains(where: { $0 == " " || $0.isNewline })
    }

    /// libcurl's error codes (CURLcode) that the host tells apart.
    private enum CURLCode {
        static let unsupportedProtocol: Int32 = 1, malformedURL: Int32 = 3, cannotResolveProxy: Int32 = 5
        static let cannotResolveHost: Int32 = 6, cannotConnect: Int32 = 7, timedOut: Int32 = 28
        static let gotNothing: Int32 = 52, fileTooLarge: Int32 = 63
        /// The handshake, the certificate, its verification or the TLS library:
        /// SSL_CONNECT_ERROR, SSL_ENGINE_*, SSL_CERTPROBLEM, SSL_CIPHER,
        /// PEER_FAILED_VERIFICATION, USE_SSL_FAILED, SSL_CACERT_BADFILE,
        /// SSL_SHUTDOWN_FAILED, SSL_CRL_BADFILE, SSL_ISSUER_ERROR,
        /// SSL_PINNEDPUBKEYNOTMATCH, SSL_INVALIDCERTSTATUS, SSL_CLIENTCERT.
        static let tls: Set<Int32> = [35, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91, 98]
    }

    /// The body as it arrives, refused past the limit.
    private final class Body {
        let limit: Int
        private(set) var bytes: [UInt8] = []
        private(set) var overflowed = false

        init(limit: Int) { self.limit = limit }

        func append(_ data: UnsafePointer<CChar>?, _ length: Int) -> Bool {
            guard bytes.count + length <= limit else {
                overflowed = true
                return false
            }
            if let data { bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length)) }
            return true
        }
    }
}
