import Glibc
import PluginABI

/// A widget whose plugin runs in a sandboxed child process of its own
/// (`PluginHostChild`), driven over a socketpair. To a session it is any
/// other `WidgetInstance`: the same calls, the same errors, and, when the
/// process dies or is killed, `WidgetCallError.stopped` with the reason.
///
/// Host services reach the plugin through the host-side `PluginContext`,
/// so its grants are checked here, in the host; bus events wait in that
/// context's mailbox until `pump()` sends them across.
public final class IsolatedInstance: WidgetInstance {
    public let pluginID: PluginID
    let connection: IsolatedConnection

    /// Why a plugin could not be started in its process.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `candidate` in a new child: `executable __plugin-host`, then
    /// the load handshake and `create` there, within the create deadline.
    /// `onStop` hears of every unexpected end, with its reason. Unless
    /// `creating`, the plugin is neither loaded nor created: `load()` and
    /// `create()` follow (the validator's checks, one at a time).
    public init(
        candidate: PluginCandidate, runtime: HostRuntime, executable: String, settings: PluginRunSettings,
        dataDirectory: String, environment: [String: String], creating: Bool = true,
        onStop: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        guard let manifest = candidate.manifest else { throw StartError(description: "\(candidate.path) has no manifest") }
        pluginID = manifest.id
        let arguments = ["--data", dataDirectory, "--memory-mib", String(settings.memoryMiB),
                         "--cpu-seconds", String(settings.cpuSeconds)]
            + (settings.allowWeakSandbox ? ["--allow-weak-sandbox"] : []) + [candidate.path]
        let process: PluginProcess
        do {
            process = try PluginProcess(executable: executable, arguments: arguments,
                                        environment: PluginProcess.environment(from: environment, dataDirectory: dataDirectory))
        } catch {
            throw StartError(description: "cannot start a process for it: \(error)")
        }
        let context = PluginContext(manifest: manifest, runtime: runtime, maxEventsPerSecond: settings.maxEventsPerSecond)
        connection = IsolatedConnection(process: process, context: context, settings: settings, onStop: onStop)
        manifestJSON = manifest.json
        guard creating else { return }
        do { try create() } catch {
            connection.close()
            throw error
        }
    }

    private let manifestJSON: JSONValue

    /// The load handshake in the child, against the manifest the host read.
    func load() throws {
        try started(.load(manifest: manifestJSON))
    }

    /// The load handshake if not yet made, then the plugin's `create`.
    func create() throws {
        try started(.create(manifest: manifestJSON))
    }

    private func started(_ call: ChildCall) throws {
        switch try connection.call(call).answer {
        case .createFailed: throw WidgetCallError.createFailed
        case let .loadFailed(reason): throw StartError(description: reason)
        case .status, .overflowed, nil: return
        }
    }

    deinit { connection.close() }

    /// The sandbox the child applied, as it reported it.
    public var sandbox: JSONValue? { connection.sandbox }

    public func render(screen: String, params: JSONValue) throws(WidgetCallError) -> [UInt8] {
        try output(of: connection.call(.render(screen: screen, params: params)))
    }

    public func query(_ id: String) throws(WidgetCallError) -> [UInt8] {
        try output(of: connection.call(.query(id)))
    }

    public func handle(action: String, value: String?) throws(WidgetCallError) {
        try check(try connection.call(.action(action, value: value)))
    }

    public func onWake(_ handler: @escaping @Sendable () -> Void) {
        connection.context.onWake(handler)
    }

    /// Sends the events waiting in the host-side mailbox, in order. A plugin
    /// that dies on one is reported by the next render.
    @discardableResult
    public func pump() -> Int {
        var count = 0
        while let event = connection.context.nextEvent() {
            do {
                _ = try connection.call(.event(topic: event.topic, payload: event.payload))
            } catch {
                break
            }
            count += 1
        }
        return count
    }

    private func check(_ answer: Frame) throws(WidgetCallError) {
        switch answer.answer {
        case let .status(status):
            let code = UInt32(bitPattern: status)
            guard code == WH_OK.rawValue else { throw .status(code) }
        case .overflowed: throw .outputTooLarge(PluginInstance.maxRenderBytes)
        case .loadFailed, .createFailed, nil:
            throw .stopped(connection.stop("broke the protocol: a call's answer without a status"))
        }
    }

    /// A render's or a query's output, once its answer is checked.
    private func output(of answer: Frame) throws(WidgetCallError) -> [UInt8] {
        try check(answer)
        return answer.body
    }
}
