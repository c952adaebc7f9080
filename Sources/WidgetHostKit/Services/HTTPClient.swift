import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP GET with a deadline and a cap on the body, for the plugins' http
/// service. It blocks the calling thread, which the service contract makes
/// the plugin's own.
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
        case failed(String)

        public var description: String {
            switch self {
            case let .badURL(url): "not an absolute http or https URL: \(url)"
            case let .unreachable(reason): "unreachable: \(reason)"
            case let .timeout(seconds): "no response within \(seconds.formatted1)s"
            case let .tooLarge(limit): "the response is larger than \(limit) bytes"
            case let .failed(reason): reason
            }
        }
    }

    public static let defaultTimeout = 10.0
    public static let defaultMaxBytes = 1 << 20

    public init() {}

    public func get(_ url: String, timeout: Double = defaultTimeout, maxBytes: Int = defaultMaxBytes) throws(Failure) -> Response {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), ["http", "https"].contains(scheme),
              parsed.host?.isEmpty == false else { throw .badURL(url) }
        var request = URLRequest(url: parsed, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "GET"
        let collector = Collector(maxBytes: maxBytes)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        let session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: request)
        task.resume()
        guard collector.done.wait(timeout: .now() + timeout + 0.5) == .success else {
            task.cancel()
            throw .timeout(timeout)
        }
        return try collector.result(timeout: timeout)
    }

    private final class Collector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        let maxBytes: Int
        let done = DispatchSemaphore(value: 0)
        private let state = Locked<(status: Int, body: [UInt8], overflow: Bool, error: URLError?)>((0, [], false, nil))

        init(maxBytes: Int) { self.maxBytes = maxBytes }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            let declared = response.expectedContentLength
            let tooLarge = declared > Int64(maxBytes)
            state.withLock {
                $0.status = status
                $0.overflow = tooLarge
            }
            completionHandler(tooLarge ? .cancel : .allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let overflow = state.withLock { state -> Bool in
                if state.body.count + data.count > maxBytes {
                    state.overflow = true
                } else {
                    state.body.append(contentsOf: data)
                }
                return state.overflow
            }
            if overflow { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            state.withLock { $0.error = error as? URLError ?? error.map { _ in URLError(.unknown) } }
            done.signal()
        }

        func result(timeout: Double) throws(Failure) -> Response {
            let (status, body, overflow, error) = state.withLock { $0 }
            if overflow { throw .tooLarge(maxBytes) }
            if let error {
                switch error.code {
                case .timedOut: throw .timeout(timeout)
                case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
                    throw .unreachable(error.localizedDescription)
                case .networkConnectionLost where status == 0:
                    throw .unreachable(error.localizedDescription)
                case .unsupportedURL, .badURL: throw .badURL(error.failingURL?.absoluteString ?? "")
                default: throw .failed("the connection failed: \(error.localizedDescription)")
                }
            }
            return Response(status: status, body: body)
        }
    }
}
