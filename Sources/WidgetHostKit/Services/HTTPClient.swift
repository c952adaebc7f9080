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

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case badURL(String)
        case unreachable(String)
        case timeout(Double)
        case tooLarge(Int)
        /// A hop the caller's `allow` refused, in its words.
        case denied(String)
        case failed(String)

        public var description: String {
            switch self {
            case let .badURL(url): "not an absolute http or https URL: \(url)"
            case let .unreachable(reason): "unreachable: \(reason)"
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
        if let offline { throw .unreachable(offline) }
        let body = Body(limit: maxBytes)
        var status = 0
        var message = [CChar](repeating: 0, count: 512)
        var location = [CChar](repeating: 0, count: 4096)
        let code = withExtendedLifetime(body) {
            wh_shim_http_get(url, max(Int(timeout * 1000), 1), { context, data, length in
                Unmanaged<Body>.fromOpaque(context!).takeUnretainedValue().append(data, length) ? 0 : 1
            }, Unmanaged.passUnretained(body).toOpaque(), &status, &location, location.count, &message, message.count)
        }
        let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        switch code {
        case 0:
            let redirect = String(decoding: location.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return (Response(status: status, body: body.bytes), redirect.isEmpty ? nil : redirect)
        case _ where body.overflowed: throw .tooLarge(maxBytes)
        case CURLCode.unsupportedProtocol, CURLCode.malformedURL: throw .badURL(url)
        case CURLCode.cannotResolveProxy, CURLCode.cannotResolveHost, CURLCode.cannotConnect: throw .unreachable(reason)
        case CURLCode.timedOut: throw .timeout(original)
        case CURLCode.fileTooLarge: throw .tooLarge(maxBytes)
        case CURLCode.gotNothing: throw .failed("the server closed the connection without answering")
        default: throw .failed("the connection failed: \(reason.isEmpty ? "libcurl error \(code)" : reason)")
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
