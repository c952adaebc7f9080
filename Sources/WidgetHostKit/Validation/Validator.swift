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
/// validator itself carries on and reports. The child is an isolated
/// plugin's (`PluginHostChild`: its cage, a data directory made for the run
/// and removed after it, no network); this process drives it call by call
/// over the host link and judges every answer itself. No report comes from
/// the child: a plugin that prints passing lines, or writes frames of its
/// own, can only answer the call in flight, and the answer is checked here.
public struct Validator {
    public var executable: String
    public var timeout: Double
    public var discovery: Discovery
    /// Stop after the handshake, as `info` does to report the load status.
    public var loadOnly = false
    /// The cage's limits, and whether a weak cage is allowed.
    public var settings = PluginRunSettings()
    /// The contracts the plugins on the search path provide, when known: a
    /// required one missing among them is a warning.
    public var providedContracts: Set<String>?

    public init(executable: String, timeout: Double, discovery: Discovery) {
        self.executable = executable
        self.timeout = timeout
        self.discovery = discovery
    }

    /// What became of a plugin that stopped during a check, in words: `reason`
    /// is the isolated plugin's stop reason, `report` what its cage reported.
    static func fate(_ reason: String, termination: ChildProcess.Termination?, report: ChildReport,
                     settings: PluginRunSettings = PluginRunSettings()) -> String {
        if let violation = report.violation { return "the sandbox stopped the plugin: it \(violation)" }
        if let crash = report.crash, crash.errno == ENOMEM {
            return "the plugin ran out of memory: an allocation failed against the \(settings.memoryMiB) MiB limit"
        }
        if reason.hasPrefix("timed out") { return "the plugin hung: \(reason)" }
        return switch termination {
        case let .signaled(signal)?: "the plugin crashed: \(ChildProcess.Termination.signaled(signal))"
        case let .exited(code)?: "the plugin ended the process with exit status \(code)"
        case .timedOut?, nil: "the plugin was stopped: \(reason)"
        }
    }

    public func validate(path: String) -> [CheckResult] {
        let candidate = discovery.inspect(path: path)
        guard case .ok = candidate.status, let manifest = candidate.manifest else {
            return [CheckResult(name: "inspect file", outcome: .fail, detail: candidate.status.reason ?? "no manifest")]
        }
        var results = [CheckResult(name: "inspect file", outcome: .pass, detail: "manifest of \(manifest.id)")]
        results += manifestChecks(manifest)
        let data: String
        do { data = try Self.makeDataDirectory() } catch {
            return results + [CheckResult(name: "start child", outcome: .fail, detail: "cannot make a data directory: \(error)")]
        }
        defer { FileSystem.removeTree(data) }
        var settings = self.settings
        // Every call may take the whole time; the run as a whole is held to it between checks.
        for call in PluginRunSettings.Call.allCases { settings.deadlines[call] = timeout }
        let runtime = HostRuntime(storeDirectory: data + "/store", log: HostLog(threshold: .error, sink: { _ in }),
                                  http: HTTPClient(offline: "validate runs plugins without a network"))
        let instance: IsolatedInstance
        do {
            instance = try IsolatedInstance(candidate: candidate, runtime: runtime, executable: executable, settings: settings,
                                            dataDirectory: data, environment: Environment.current, creating: false)
        } catch {
            return results + [CheckResult(name: "start child", outcome: .fail, detail: "cannot run \(executable): \(error)")]
        }
        var run = ValidationRun(instance: instance, settings: settings, timeout: timeout)
        run.all(manifest, loadOnly: loadOnly)
        instance.connection.close()
        results += run.results
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

/// The checks, made from the host's side: each call's answer judged here.
/// A plugin that stops fails the check it stopped in, and no check follows.
struct ValidationRun {
    let instance: IsolatedInstance
    let settings: PluginRunSettings
    let timeout: Double
    let started = Clock.now
    var results: [CheckResult] = []
    var stopped = false

    init(instance: IsolatedInstance, settings: PluginRunSettings, timeout: Double) {
        self.instance = instance
        self.settings = settings
        self.timeout = timeout
    }

    mutating func all(_ manifest: Manifest, loadOnly: Bool) {
        let instance = self.instance, runEnds = started + timeout
        let loaded = check("load") {
            try instance.load()
            return "handshake passed: entry, ABI \(manifest.abi), descriptor size, manifest match, services"
        }
        // Nothing can be called in a plugin that did not load or create.
        guard loaded, !loadOnly else { return }
        guard check("create", { try instance.create(); return nil }) else { return }
        for screen in manifest.screens {
            check("render \(screen.id)") { try Self.render(instance, screen.id, offering: manifest) }
            check("refresh \(screen.id)") {
                try Self.refresh(instance, screen.id, declared: manifest.refreshes, loadedBy: min(runEnds, Clock.now + Self.loadingWait))
            }
            for action in screen.actions {
                check("action \(screen.id)/\(action)") {
                    _ = try Self.render(instance, screen.id)
                    // An action that needs a value may refuse none: that is an answer, not a failure.
                    do { try instance.handle(action: action, value: nil) } catch let error as WidgetCallError {
                        if case .stopped = error { throw error }
                        if error != .status(WH_INVALID_VALUE.rawValue) { throw ValidationFailure("handle_action: \(error)") }
                    }
                    return try Self.render(instance, screen.id)
                }
            }
        }
        check("render an undeclared screen") {
            do { _ = try instance.render(screen: "widget-host-validate-no-such-screen", params: [:]) } catch let error as WidgetCallError {
                if error == .status(WH_UNKNOWN_SCREEN.rawValue) { return "refused with WH_UNKNOWN_SCREEN" }
                if case .stopped = error { throw error }
                throw ValidationFailure("expected WH_UNKNOWN_SCREEN, got \(error)")
            }
            throw ValidationFailure("expected WH_UNKNOWN_SCREEN, got a successful render")
        }
        for topic in manifest.subscribes {
            let sample = topic.split(separator: ".").map { $0 == "*" ? "validate" : String($0) }.joined(separator: ".")
            check("event \(sample)") {
                _ = try instance.connection.call(.event(topic: sample, payload: "{}"))
                return nil
            }
        }
        check("destroy") {
            try instance.connection.destroy()
            return nil
        }
    }

    /// Renders `screen` and parses it as launch would; with `manifest`,
    /// fails a view that offers an action the host would refuse.
    private static func render(_ instance: IsolatedInstance, _ screen: String, offering manifest: Manifest? = nil) throws -> String {
        let bytes: [UInt8]
        do { bytes = try instance.render(screen: screen, params: [:]) } catch {
            if case .stopped = error { throw error }
            throw ValidationFailure("render: \(error)")
        }
        // The host's own parser, so that validate fails what launch would refuse.
        let view: ViewScreen
        do { view = try ViewDescription.parse(bytes) } catch { throw ValidationFailure(error.description) }
        if let manifest, let problem = DeclaredActions.problem(offering: view.root.actions, on: screen, for: manifest) {
            throw ValidationFailure(problem)
        }
        return "\(bytes.count) bytes of JSON"
    }

    /// How long the refresh check waits for a loading screen to load.
    static let loadingWait = 5.0

    /// The host's refresh must not count as a person's action: a widget
    /// whose screen it changes must say it fetches (`"refreshes": true`).
    /// A screen that changes between two plain renders (a clock) is not compared,
    /// and one still loading is waited for first, as `launch --once` waits:
    /// a load landing between two renders is the widget's own change, not the refresh's.
    private static func refresh(_ instance: IsolatedInstance, _ screen: String, declared: Bool, loadedBy deadline: Double) throws -> String {
        var before = try renderedBytes(instance, screen)
        while isLoading(before) && Clock.now < deadline {
            usleep(10_000)
            before = try renderedBytes(instance, screen)
        }
        let again = try renderedBytes(instance, screen)
        var status: WidgetCallError?
        do { try instance.handle(action: WH_ACTION_REFRESH, value: screen) } catch {
            if case .stopped = error { throw error }
            status = error
        }
        if let status, status != .status(WH_UNKNOWN_ACTION.rawValue) { throw ValidationFailure("handle_action(\(WH_ACTION_REFRESH)): \(status)") }
        let after = try renderedBytes(instance, screen)
        if declared { return "declares \"refreshes\": true" }
        guard !isLoading(before) else { return "still loading after \(loadingWait.formatted1)s; not compared" }
        guard before == again else { return "the screen changes by itself; not compared" }
        guard after == again else {
            throw ValidationFailure("\(WH_ACTION_REFRESH) changed what \(screen) shows, so it counts the host's refresh (the r key) as an action: "
                + "a Swift widget fetches in refresh(screen:), never in handle(action:); a C widget returns WH_UNKNOWN_ACTION for "
                + "WH_ACTION_REFRESH; a widget that does fetch then declares \"refreshes\": true in widget.json")
        }
        return status == nil ? "answered, screen unchanged" : "nothing to refresh"
    }

    /// An indeterminate progress anywhere on the screen: the widget says it is loading.
    private static func isLoading(_ bytes: [UInt8]) -> Bool {
        (try? ViewDescription.parse(bytes))?.root.containsIndeterminateProgress ?? false
    }

    private static func renderedBytes(_ instance: IsolatedInstance, _ screen: String) throws -> [UInt8] {
        do { return try instance.render(screen: screen, params: [:]) } catch {
            if case .stopped = error { throw error }
            throw ValidationFailure("render: \(error)")
        }
    }

    /// Runs a check unless the plugin has stopped or the run is out of time,
    /// and records its outcome with any detail; true if it passed.
    @discardableResult
    private mutating func check(_ name: String, _ body: () throws -> String?) -> Bool {
        guard !stopped else { return false }
        guard Clock.now - started <= timeout else {
            stopped = true
            results.append(CheckResult(name: name, outcome: .fail, detail: "the plugin hung: the checks took over \(timeout.formatted1)s in all"))
            return false
        }
        do {
            results.append(CheckResult(name: name, outcome: .pass, detail: try body()))
            return true
        } catch let WidgetCallError.stopped(reason) {
            stopped = true
            let connection = instance.connection
            let (termination, report) = connection.ending(within: 2)
            results.append(CheckResult(name: name, outcome: .fail,
                                       detail: Validator.fate(reason, termination: termination, report: report, settings: settings)))
        } catch {
            results.append(CheckResult(name: name, outcome: .fail, detail: "\(error)"))
        }
        return false
    }
}

struct ValidationFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
