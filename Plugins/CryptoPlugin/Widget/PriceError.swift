/// Why a price could not be had. Each case is a state the screen shows
/// ("Price unavailable" with `reason`), never a silent failure: the original
/// widget swallowed all of these.
enum PriceError: Error, Equatable, Sendable {
    /// The host gave no http service (the manifest asks for it optionally).
    case noNetworkService
    case badURL(String)
    /// No connection, and why when the host said (refused, no DNS, no route).
    case unreachable(cause: String?)
    /// The host refused the URL's host: the manifest does not grant it.
    case denied(host: String)
    case timeout(milliseconds: UInt32)
    /// A connection that broke off: a disconnect or a response cut short.
    case connectionFailed
    /// A non-2xx answer, with the server's own message when it gave one.
    case status(Int, message: String?)
    case tooLarge(limit: Int)
    case malformedJSON(String)
    case missingField(String)
    case notNumeric(field: String, text: String)
    case notPositive(field: String, text: String)
    /// A 2xx answer that carries the exchange's own error (Kraken does this).
    case exchangeError(String)
    case configuration(String)

    /// A stable name for scripts: the `code` of the reason's node in `--format json`, never drawn.
    var code: String {
        switch self {
        case .noNetworkService: "noNetwork"
        case .badURL: "badURL"
        case .unreachable: "unreachable"
        case .denied: "denied"
        case .timeout: "timeout"
        case .connectionFailed: "connectionFailed"
        case .status: "httpStatus"
        case .tooLarge: "tooLarge"
        case .malformedJSON: "malformedJSON"
        case .missingField: "missingField"
        case .notNumeric: "notNumeric"
        case .notPositive: "notPositive"
        case .exchangeError: "exchangeError"
        case .configuration: "configuration"
        }
    }

    /// The reason in words, for a person.
    var reason: String {
        switch self {
        case .noNetworkService: "no network access: the host did not grant the http service"
        case let .badURL(url): "not an http or https URL: \(url)"
        case let .unreachable(cause?): "could not connect to the server: \(cause)"
        case .unreachable(nil): "could not connect to the server (refused, no route or unknown host; WIDGET_HOST_LOG=info says which)"
        case let .denied(host): "denied: the widget's manifest does not grant \(host), so the host did not connect"
        case let .timeout(milliseconds): "no answer within \(Self.seconds(milliseconds))"
        case .connectionFailed: "the connection broke off before the response was complete"
        case let .status(code, message):
            "the server answered HTTP \(code)" + (message.map { ": \($0)" } ?? "")
        case let .tooLarge(limit): "the response is larger than \(limit) bytes"
        case let .malformedJSON(detail): "the response is not valid JSON (\(detail))"
        case let .missingField(path): "the response has no \(path)"
        case let .notNumeric(field, text): "\(field) is not a number: \(Self.quoted(text))"
        case let .notPositive(field, text): "\(field) is not a positive price: \(Self.quoted(text))"
        case let .exchangeError(message): "the exchange reported an error: \(message)"
        case let .configuration(message): "configuration: \(message)"
        }
    }

    private static func seconds(_ milliseconds: UInt32) -> String {
        milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }

    /// Text from a server, shortened so that a hostile body cannot fill the screen.
    static func quoted(_ text: String, limit: Int = 40) -> String {
        let short = text.count > limit ? String(text.prefix(limit)) + "…" : text
        return "\"" + short + "\""
    }
}
