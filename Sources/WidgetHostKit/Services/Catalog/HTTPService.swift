import PluginABI

/// "widget-host.http/1", "/2" and "/3" (services/http.h): GET, within the
/// hosts the manifest declares, on every redirect hop. They differ only in
/// how a failure is answered: http/2 names why no connection was made, and
/// http/3 also answers a denied host as denied.
enum HTTPService {
    /// The most a plugin may ask for, whatever its max_bytes.
    static let maxBytes = 64 << 20

    static let get = getFunction(WH_SERVICE_HTTP, namesCauses: false)
    static let get2 = getFunction(WH_SERVICE_HTTP_2, namesCauses: true)
    static let get3 = getFunction(WH_SERVICE_HTTP_3, namesCauses: true, answersDenied: true)

    private static func getFunction(_ service: String, namesCauses: Bool, answersDenied: Bool = false) -> ServiceFunction {
        ServiceFunction(service: service, name: "get", arguments: [.text, .int, .int], writesOutput: true, runs: .offReader,
                        fallback: Int64(WH_HTTP_FAILED)) { context, arguments, out in
            let url = arguments.text(0)!, timeout = arguments.int(1), asked = arguments.int(2)
            let seconds = timeout == 0 ? HTTPClient.defaultTimeout : Double(timeout) / 1000
            let limit = min(asked == 0 ? HTTPClient.defaultMaxBytes : Int(clamping: asked), maxBytes, out!.limit)
            do {
                let response = try context.http.get(url, timeout: seconds, maxBytes: limit) {
                    HTTPAllowList.denial(of: $0, for: context.manifest)
                }
                _ = out!.write(response.body)
                return Int64(response.status)
            } catch {
                let failure = error as! HTTPClient.Failure
                if case .denied = failure {
                    context.log.warning("\(failure)")
                } else {
                    context.log.info("GET \(url): \(failure)")
                }
                switch failure {
                case .denied: return Int64(answersDenied ? WH_HTTP_DENIED : WH_HTTP_UNREACHABLE)
                case .badURL: return Int64(WH_HTTP_BAD_URL)
                case let .unreachable(cause, _): return namesCauses ? status(cause) : Int64(WH_HTTP_UNREACHABLE)
                case .timeout: return Int64(WH_HTTP_TIMEOUT)
                case .tooLarge: return Int64(WH_HTTP_TOO_LARGE)
                case .failed: return Int64(WH_HTTP_FAILED)
                }
            }
        }
    }

    private static func status(_ cause: HTTPClient.Cause) -> Int64 {
        switch cause {
        case .refused: Int64(WH_HTTP_REFUSED)
        case .hostNotFound: Int64(WH_HTTP_HOST_NOT_FOUND)
        case .noRoute: Int64(WH_HTTP_NO_ROUTE)
        case .offline, .other: Int64(WH_HTTP_UNREACHABLE)
        }
    }

    /// The three versions, one row each: one C table type, whose `get`
    /// (a C function, so capturing nothing) forwards to that version's function.
    static let descriptions = [
        ServiceDescription(WH_SERVICE_HTTP, [get], table: wh_http_v1(get: { forward(get, $0, $1, $2, $3, $4) })),
        ServiceDescription(WH_SERVICE_HTTP_2, [get2], table: wh_http_v2(get: { forward(get2, $0, $1, $2, $3, $4) })),
        ServiceDescription(WH_SERVICE_HTTP_3, [get3], table: wh_http_v3(get: { forward(get3, $0, $1, $2, $3, $4) })),
    ]

    private static func forward(
        _ function: ServiceFunction, _ host: UnsafePointer<wh_host>?, _ url: UnsafePointer<CChar>?, _ timeout: UInt32, _ maxBytes: UInt64,
        _ out: UnsafePointer<wh_output>?
    ) -> Int32 {
        guard let url = url.flatMap(ServiceValue.cString), let out else { return Int32(WH_HTTP_BAD_URL) }
        return Int32(clamping: function.call(host, [url, .int(Int64(timeout)), .int(Int64(clamping: maxBytes))], out))
    }
}
