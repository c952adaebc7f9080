import PluginABI

/// Asking another plugin's contract (widget_host/services/contract.h). The
/// contract's id must be in the manifest's "contracts.requires".
extension Host {
    public enum ContractFailure: Error, Equatable, CustomStringConvertible {
        /// Not declared in the manifest, or no installed plugin provides it.
        case notGranted
        /// The provider could not start, or stopped.
        case unavailable
        /// The provider is itself waiting on this ask (a cycle).
        case busy
        /// Asked outside one of the host's calls (from a background thread).
        case notNow
        /// The provider does not answer it, or failed to.
        case failed
        /// The answer did not parse (the host checks it is JSON; this is
        /// the SDK's own parser disagreeing, or it was too deep).
        case malformed(String)

        public var description: String {
            switch self {
            case .notGranted: "not granted (the manifest does not require it, or no installed plugin provides it)"
            case .unavailable: "its provider is not running"
            case .busy: "its provider is waiting on this ask already"
            case .notNow: "asked outside a call from the host"
            case .failed: "its provider failed to answer"
            case let .malformed(reason): "the answer is not usable JSON: \(reason)"
            }
        }
    }

    /// The provider's answer to contract `id`. Call it from `render`,
    /// `handle(action:)`, `on(event:)` or `init(host:)`: the host refuses an
    /// ask from a background thread (`.notNow`).
    public func ask(contract id: String) throws(ContractFailure) -> JSONValue {
        guard let table = service(id, as: wh_contract_v1.self) else { throw .notGranted }
        let sink = Sink()
        let status = sink.withOutput { table.pointee.ask(raw, table, $0) }
        switch Int(status) {
        case Int(WH_CONTRACT_OK):
            do { return try JSONParser.parse(sink.bytes) } catch { throw .malformed("\(error)") }
        case Int(WH_CONTRACT_BUSY): throw .busy
        case Int(WH_CONTRACT_NOT_NOW): throw .notNow
        case Int(WH_CONTRACT_UNAVAILABLE): throw .unavailable
        default: throw .failed
        }
    }
}
