import PluginABI

/// Who can start a contract's provider and ask it: the session that runs the
/// widgets (`WidgetSession`), or a test's stand-in.
public protocol ContractProviders: AnyObject {
    /// The plugin that provides `contract`, if one is installed. Any thread
    /// (a plugin's `get_service` asks it).
    func provider(of contract: String) -> PluginID?
    /// The provider's answer to the query `contract` (starting it first if
    /// it is not running), or why there is none. Only on the thread that
    /// drives the session, which is where an ask arrives ([in-call]).
    func answer(_ contract: String, from provider: PluginID) -> Result<[UInt8], ContractFailure>
}

public enum ContractFailure: Error, Equatable, CustomStringConvertible {
    /// It could not start, or it stopped.
    case unavailable(String)
    /// It does not answer the query, failed, or answered other than JSON.
    case failed(String)

    public var description: String {
        switch self {
        case let .unavailable(reason), let .failed(reason): reason
        }
    }
}

/// Routes a consumer's ask of a contract to the plugin that provides it. A
/// host service like any other, held by the registry; the session attaches
/// itself as the `ContractProviders`.
///
/// What it refuses, so that a provider is never called twice at once (the
/// rule every plugin is written to): an ask of a provider that is itself
/// part of an ask in flight (a cycle, or a plugin asking itself). The
/// [in-call] rule is checked where the ask is made (the C edge, and for an
/// isolated plugin the host's proxy).
public final class ContractBroker: Sendable {
    private struct State {
        weak var providers: (any ContractProviders)?
        /// The plugins in an ask in flight: those asking and those answering.
        var involved: Set<PluginID> = []
    }

    private let state = Locked(State())

    public init() {}

    public func attach(_ providers: any ContractProviders) {
        state.withLock { $0.providers = providers }
    }

    /// Whether some installed plugin provides `contract`.
    func isProvided(_ contract: String) -> Bool {
        state.withLock { $0.providers }?.provider(of: contract) != nil
    }

    /// Asks `contract` for `caller`: the provider's JSON, or a contract.h status.
    func ask(_ contract: String, for caller: PluginID) -> Result<[UInt8], AskError> {
        guard let providers = state.withLock({ $0.providers }), let provider = providers.provider(of: contract) else {
            return .failure(AskError(status: WH_CONTRACT_UNAVAILABLE, reason: "no installed plugin provides it"))
        }
        let entered = state.withLock { state -> [PluginID]? in
            guard provider != caller, !state.involved.contains(provider) else { return nil }
            return [caller, provider].filter { state.involved.insert($0).inserted }
        }
        guard let entered else {
            let reason = provider == caller ? "a plugin cannot ask its own contract" : "\(provider) is waiting on this ask already (a cycle)"
            return .failure(AskError(status: WH_CONTRACT_BUSY, reason: reason))
        }
        defer { state.withLock { state in for id in entered { state.involved.remove(id) } } }
        switch providers.answer(contract, from: provider) {
        case let .success(bytes):
            // The bytes are judged, not a repaired copy: what is delivered is the bytes.
            guard let text = String(validating: bytes, as: UTF8.self) else {
                return .failure(AskError(status: WH_CONTRACT_FAILED, reason: "\(provider) answered with bytes that are not UTF-8"))
            }
            if let problem = JSONValidator.problem(in: text) {
                return .failure(AskError(status: WH_CONTRACT_FAILED, reason: "\(provider) answered with something other than JSON: \(problem)"))
            }
            return .success(bytes)
        case let .failure(.unavailable(reason)):
            return .failure(AskError(status: WH_CONTRACT_UNAVAILABLE, reason: reason))
        case let .failure(.failed(reason)):
            return .failure(AskError(status: WH_CONTRACT_FAILED, reason: reason))
        }
    }

    struct AskError: Error {
        let status: Int32
        let reason: String

        init(status: some BinaryInteger, reason: String) {
            self.status = Int32(status)
            self.reason = reason
        }
    }
}
