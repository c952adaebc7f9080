import Glibc
import PluginABI

/// One check of `widget-host validate`.
public struct CheckResult: Equatable, Sendable {
    /// A warning passes, but says what a person should know (ManifestWarnings).
    public enum Outcome: String, Sendable { case pass, fail, skip, warn }
    public let name: String
    public let outcome: Outcome
    public let detail: String?
}

/// Our clap-validator: exercises a plugin's whole contract in a child
/// process, so a plugin that crashes or hangs fails its check while the
/// validator itself carries on and reports. The child runs the plugin in
/// the cage of an isolated plugin (`ChildCage`), with a data directory
/// made for the run and removed after it, and no network: what the sandbox
/// stops is a failed check that names the call.
public struct Validator {
    public var executable: String
    public var timeout: Double
    public var discovery: Discovery
    /// Stop after the handshake, as `info` does to report the load status.
    public var loadOnly = false
    /// The cage's limits, and whether a weak cage is allowed.
    public var settings = IsolationSettings()
    /// The contracts the plugins on the search path provide, when known: a
    /// required one missing among them is a warning.
    public var providedContracts: Set<String>?

    public init(executable: String, timeout: Double, discovery: Discovery) {
        self.executable = executable
        self.timeout = timeout
        self.discovery = discovery
    }

    /// The hidden command the child runs.
    public static let childCommand = "__validate-child"

    /// What became of a plugin that never finished a check, in words.
    static func fate(_ termination: ChildProcess.Termination, report: ChildReport = ChildReport(text: ""),
                     settings: IsolationSettings = IsolationSettings()) -> String {
        if let violation = report.violation { return "the sandbox stopped the plugin: it \(violation)" }
        if let crash = report.crash, crash.errno == ENOMEM {
            return "the plugin ran out of memory: an allocation failed against the \(settings.memoryMiB) MiB limit"
        }
        return switch termination {
        case .signaled: "the plugin crashed: \(termination)"
        case .timedOut: "the plugin hung: \(termination)"
        case let .exited(code): "the plugin ended the process with exit status \(code)"
        }
    }

    public func validate(path: String) -> [CheckResult] {
        let candidate = discovery.inspect(path: path)
        if case let .rejected(reason) = candidate.status {
            return [CheckResult(name: "inspect file", outcome: .fail, detail: reason)]
        }
        var results = [CheckResult(name: "inspect file", outcome: .pass, detail: "manifest of \(candidate.manifest!.id)")]
        results += manifestChecks(candidate.manifest!)
        let data: String
        do { data = try Self.makeDataDirectory() } catch {
            return results + [CheckResult(name: "start child", outcome: .fail, detail: "cannot make a data directory: \(error)")]
        }
        defer { FileSystem.removeTree(data) }
        var arguments = [executable, Self.childCommand, path, "--data", data, "--memory-mib", String(settings.memoryMiB),
                         "--cpu-seconds", String(settings.cpuSeconds)]
        if discovery.allowInsecure { arguments.append("--allow-insecure") }
        if settings.allowWeakSandbox { arguments.append("--allow-weak-sandbox") }
        if loadOnly { arguments.append("--load-only") }
        let run: ChildProcess.Result
        do {
            run = try ChildProcess.run(arguments, timeout: timeout,
                                       environment: PluginProcess.environment(from: Environment.current, dataDirectory: data))
        } catch {
            return results + [CheckResult(name: "start child", outcome: .fail, detail: "cannot run \(executable): \(error)")]
        }
        var inFlight: String?
        var reports: [Substring] = []
        for line in String(decoding: run.standardOutput, as: UTF8.self).split(separator: "\n") {
            // The cage's own lines: what the sandbox stopped, or a crash.
            if line.hasPrefix("violation ") || line.hasPrefix("crash ") {
                reports.append(line)
                continue
            }
            guard let event = try? JSONParser.parse(String(line)), let check = event["check"]?.string else { continue }
            switch event["event"]?.string {
            case "begin": inFlight = check
            case let outcome?:
                inFlight = nil
                results.append(CheckResult(name: check, outcome: CheckResult.Outcome(rawValue: outcome) ?? .fail,
                                           detail: event["detail"]?.string))
            case nil: continue
            }
        }
        let report = ChildReport(text: reports.joined(separator: "\n"))
        if let inFlight {
            results.append(CheckResult(name: inFlight, outcome: .fail, detail: Self.fate(run.termination, report: report, settings: settings)))
        } else if report.violation != nil || run.termination != .exited(0) {
            let fate = report.violation != nil ? Self.fate(run.termination, report: report) : "the validator's child \(run.termination)"
            results.append(CheckResult(name: "child process", outcome: .fail, detail: fate))
        }
        return results
    }

    /// What the manifest alone says: unknown keys fail (unless it speaks a
    /// newer ABI than this host, whose keys the host cannot know), and each
    /// other warning is said.
    func manifestChecks(_ manifest: Manifest) -> [CheckResult] {
        let unknown = ManifestWarnings.unknownKeys(in: manifest.json).map(\.description)
        var results: [CheckResult]
        if unknown.isEmpty {
            results = [CheckResult(name: "manifest keys", outcome: .pass, detail: "every key is one the host reads")]
        } else if ManifestWarnings.unknownKeysFail(manifest) {
            results = [CheckResult(name: "manifest keys", outcome: .fail,
                                   detail: unknown.joined(separator: "; ") + "; the host ignores it, so it grants nothing")]
        } else {
            results = [CheckResult(name: "manifest keys", outcome: .warn,
                                   detail: unknown.joined(separator: "; ") + " (ABI \(manifest.abi) is newer than this host's \(ABIVersion.host))")]
        }
        let others = ManifestWarnings.warnings(for: manifest).filter { !unknown.contains($0) }
            + (providedContracts.map { ManifestWarnings.missingContracts(of: manifest, provided: $0) } ?? [])
        return results + others.map { CheckResult(name: "grants", outcome: .warn, detail: $0) }
    }

    /// A fresh directory, canonical (the sandbox compares resolved paths),
    /// the one place the plugin may write during the run.
    private static func makeDataDirectory() throws(SystemError) -> String {
        let base = Environment.current["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        var template = Array((base + "/widget-host-validate-XXXXXX").utf8CString)
        guard mkdtemp(&template) != nil else { throw SystemError(code: errno) }
        let made = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard let real = realpath(made, nil) else { throw SystemError(code: errno) }
        defer { free(real) }
        return String(cString: real)
    }
}

/// The child's side: loads the plugin into this process and reports each
/// check as a line of JSON, announcing it before it starts so the parent can
/// name the check that was running if the plugin kills the process.
public struct ValidationChild {
    let report: (JSONValue) -> Void
    let runtime: HostRuntime

    public init(runtime: HostRuntime, report: @escaping (JSONValue) -> Void) {
        self.runtime = runtime
        self.report = report
    }

    public func run(path: String, discovery: Discovery, loadOnly: Bool = false) {
        let candidate = discovery.inspect(path: path)
        guard let manifest = candidate.manifest, candidate.status == .ok else {
            finish("load", .fail, candidate.status.reason ?? "no manifest")
            return
        }
        var loaded: LoadedPlugin?
        check("load") {
            loaded = try Loader.load(path: path, manifest: manifest, serviceIDs: runtime.serviceIDs)
            return "handshake passed: entry, ABI \(manifest.abi), descriptor size, manifest match, services"
        }
        guard let plugin = loaded, !loadOnly else { return }
        var created: PluginInstance?
        check("create") {
            created = try PluginInstance(plugin: plugin, runtime: runtime)
            return nil
        }
        guard let instance = created else { return }
        for screen in manifest.screens {
            check("render \(screen.id)") { try render(instance, screen.id, offering: manifest) }
            check("refresh \(screen.id)") { try refresh(instance, screen.id, declared: manifest.refreshes) }
            for action in screen.actions {
                check("action \(screen.id)/\(action)") {
                    _ = try render(instance, screen.id)
                    // An action that needs a value may refuse none: that is an answer, not a failure.
                    let status = Self.status { () throws(PluginInstance.CallError) in try instance.handle(action: action, value: nil) }
                    if let status, status != .status(WH_INVALID_VALUE.rawValue) {
                        throw ValidationFailure("handle_action: \(status)")
                    }
                    return try render(instance, screen.id)
                }
            }
        }
        check("render an undeclared screen") {
            let status = Self.status { () throws(PluginInstance.CallError) in
                _ = try instance.render(screen: "widget-host-validate-no-such-screen")
            }
            guard status == .status(WH_UNKNOWN_SCREEN.rawValue) else {
                throw ValidationFailure("expected WH_UNKNOWN_SCREEN, got \(status.map { "\($0)" } ?? "a successful render")")
            }
            return "refused with WH_UNKNOWN_SCREEN"
        }
        for topic in manifest.subscribes {
            let sample = topic.split(separator: ".").map { $0 == "*" ? "validate" : String($0) }.joined(separator: ".")
            check("event \(sample)") {
                instance.deliver(topic: sample, payload: "{}")
                return nil
            }
        }
        check("destroy") {
            created = nil
            return nil
        }
    }

    /// Renders `screen` and parses it as launch would; with `manifest`,
    /// fails a view that offers an action the host would refuse.
    private func render(_ instance: PluginInstance, _ screen: String, offering manifest: Manifest? = nil) throws -> String {
        let bytes: [UInt8]
        do { bytes = try instance.render(screen: screen) } catch { throw ValidationFailure("render: \(error)") }
        // The host's own parser, so that validate fails what launch would refuse.
        let view: ViewScreen
        do { view = try ViewDescription.parse(bytes) } catch { throw ValidationFailure(error.description) }
        if let manifest, let problem = DeclaredActions.problem(offering: view.root.actions, on: screen, for: manifest) {
            throw ValidationFailure(problem)
        }
        return "\(bytes.count) bytes of JSON"
    }

    /// The host's refresh must not count as a person's action: a widget
    /// whose screen it changes must say it fetches (`"refreshes": true`).
    /// A screen that changes between two plain renders (a clock) is not compared.
    private func refresh(_ instance: PluginInstance, _ screen: String, declared: Bool) throws -> String {
        let before = try renderedBytes(instance, screen), again = try renderedBytes(instance, screen)
        let status = Self.status { () throws(PluginInstance.CallError) in try instance.handle(action: WH_ACTION_REFRESH, value: screen) }
        if let status, status != .status(WH_UNKNOWN_ACTION.rawValue) { throw ValidationFailure("handle_action(\(WH_ACTION_REFRESH)): \(status)") }
        let after = try renderedBytes(instance, screen)
        if declared { return "declares \"refreshes\": true" }
        guard before == again else { return "the screen changes by itself; not compared" }
        guard after == again else {
            throw ValidationFailure("\(WH_ACTION_REFRESH) changed what \(screen) shows, so it counts the host's refresh (the r key) as an action: "
                + "a Swift widget fetches in refresh(screen:), never in handle(action:); a C widget returns WH_UNKNOWN_ACTION for "
                + "WH_ACTION_REFRESH; a widget that does fetch then declares \"refreshes\": true in widget.json")
        }
        return status == nil ? "answered, screen unchanged" : "nothing to refresh"
    }

    private func renderedBytes(_ instance: PluginInstance, _ screen: String) throws -> [UInt8] {
        do { return try instance.render(screen: screen) } catch { throw ValidationFailure("render: \(error)") }
    }

    /// The error a call ended with, or nil if it succeeded.
    private static func status(_ call: () throws(PluginInstance.CallError) -> Void) -> PluginInstance.CallError? {
        do { try call() } catch { return error }
        return nil
    }

    /// Announces a check, runs it, and reports its outcome with any detail.
    private func check(_ name: String, _ body: () throws -> String?) {
        report(["event": "begin", "check": .string(name)])
        do {
            finish(name, .pass, try body())
        } catch {
            finish(name, .fail, "\(error)")
        }
    }

    private func finish(_ name: String, _ outcome: CheckResult.Outcome, _ detail: String?) {
        report(["event": .string(outcome.rawValue), "check": .string(name), "detail": .optional(detail)])
    }
}

struct ValidationFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
