import PluginABI

/// "widget-host.http/1" (services/http.h): GET, within the hosts the
/// manifest declares, on every redirect hop.
enum HTTPService {
    /// The most a plugin may ask for, whatever its max_bytes.
    static let maxBytes = 64 << 20

    static let get = ServiceFunction(service: WH_SERVICE_HTTP, name: "get", arguments: [.text, .int, .int], writesOutput: true, blocks: true,
                                     fallback: Int64(WH_HTTP_FAILED)) { context, arguments, out in
        let url = arguments.text(0)!, timeout = arguments.int(1), asked = arguments.int(2)
        let seconds = timeout == 0 ? HTTPClient.defaultTimeout : Double(timeout) / 1000
        let limit = min(asked == 0 ? HTTPClient.defaultMaxBytes : Int(clamping: asked), maxBytes, out!.limit)
        do {
            let response = try context.runtime.http.get(url, timeout: seconds, maxBytes: limit) {
                HTTPAllowList.denial(of: $0, for: context.manifest, log: context.runtime.log)
            }
            _ = out!.write(response.body)
            return Int64(response.status)
        } catch {
            let failure = error as! HTTPClient.Failure
            if case .denied = failure {
                context.runtime.log.log(.warning, context.pluginID.value, "\(failure)")
            } else {
                context.runtime.log.log(.info, context.pluginID.value, "GET \(url): \(failure)")
            }
            switch failure {
            case .denied: return Int64(WH_HTTP_UNREACHABLE)
            case .badURL: return Int64(WH_HTTP_BAD_URL)
            case .unreachable: return Int64(WH_HTTP_UNREACHABLE)
            case .timeout: return Int64(WH_HTTP_TIMEOUT)
            case .tooLarge: return Int64(WH_HTTP_TOO_LARGE)
            case .failed: return Int64(WH_HTTP_FAILED)
            }
        }
    }

    static let description = ServiceDescription(WH_SERVICE_HTTP, [get], table: wh_http_v1(
        get: { host, url, timeout, maxBytes, out in
            guard let url, let out else { return Int32(WH_HTTP_BAD_URL) }
            return Int32(clamping: get.call(host, [.cString(url), .int(Int64(timeout)), .int(Int64(clamping: maxBytes))], out))
        }))
}
