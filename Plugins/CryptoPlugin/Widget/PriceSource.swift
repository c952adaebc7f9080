import Foundation
import PluginABI

/// Where prices come from. The widget depends on this, as the original view
/// depended on its contract, and resolves it optionally: a host that grants
/// no network gives a source that says so, and the widget still renders.
protocol PriceSource: Sendable {
    /// Blocks until the price is read or has failed: call it off the host's thread.
    func price(from endpoint: Endpoint) -> Result<Decimal, PriceError>
}

enum PriceSources {
    static func resolve(_ host: Host, _ configuration: CryptoConfiguration) -> any PriceSource {
        if configuration.sample { return SamplePrices() }
        guard host.service(WH_SERVICE_HTTP, as: wh_http_v1.self) != nil else { return NoNetwork() }
        return HostHTTPSource(host: host, timeoutMilliseconds: configuration.timeoutMilliseconds,
                              maxBytes: configuration.maxResponseBytes)
    }
}

/// Prices over the host's http service, the only network access the widget has.
struct HostHTTPSource: PriceSource {
    let host: Host
    let timeoutMilliseconds: UInt32
    let maxBytes: Int

    func price(from endpoint: Endpoint) -> Result<Decimal, PriceError> {
        let response: Host.HTTPResponse
        do { response = try host.get(endpoint.url, timeoutMilliseconds: timeoutMilliseconds, maxBytes: UInt64(maxBytes)) } catch {
            return .failure(self.error(error, url: endpoint.url))
        }
        guard (200...299).contains(response.status) else {
            let message = (try? JSONParser.parse(response.body)).flatMap(TickerFormat.errorMessage(in:))
            return .failure(.status(response.status, message: message))
        }
        return endpoint.format.price(from: response.body)
    }

    private func error(_ failure: Host.HTTPFailure, url: String) -> PriceError {
        switch failure {
        case .unavailable: .noNetworkService
        case .badURL: .badURL(url)
        case .unreachable: .unreachable(cause: nil)
        case .refused, .hostNotFound, .noRoute: .unreachable(cause: failure.description)
        case .denied: .denied(host: URL(string: url)?.host ?? url)
        case .timeout: .timeout(milliseconds: timeoutMilliseconds)
        case .tooLarge: .tooLarge(limit: maxBytes)
        case .failed: .connectionFailed
        }
    }
}

struct NoNetwork: PriceSource {
    func price(from endpoint: Endpoint) -> Result<Decimal, PriceError> { .failure(.noNetworkService) }
}
