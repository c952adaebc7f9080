import Glibc

/// The launcher for `--isolate` and `"isolation": "always"`: each plugin in
/// a sandboxed child process of its own, with a data directory of its own
/// (`$XDG_DATA_HOME/widget-host/data/PLUGIN-ID/`, the one place it may
/// write), under the crash-loop breaker.
public struct IsolatedLauncher: Sendable {
    /// The `widget-host` executable the children run (`/proc/self/exe` in
    /// the program itself; tests and the benchmark name the built product).
    public var executable: String
    public var settings: PluginRunSettings
    public var environment: [String: String]
    public var quarantine: QuarantineStore

    public init(executable: String, settings: PluginRunSettings, environment: [String: String]) {
        self.executable = executable
        self.settings = settings
        self.environment = environment
        quarantine = QuarantineStore(environment: environment)
    }

    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    public var launcher: WidgetLauncher {
        { candidate, runtime in try launch(candidate, runtime) }
    }

    public func launch(_ candidate: PluginCandidate, _ runtime: HostRuntime) throws -> any WidgetInstance {
        guard let manifest = candidate.manifest else { throw Refusal(description: "\(candidate.path) has no manifest") }
        let id = manifest.id.value
        do {
            if let reason = try quarantine.quarantineReason(path: candidate.path) { throw Refusal(description: reason) }
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            runtime.resolve(HostLog.self).log(.warning, "quarantine", "\(error); starting \(id) anyway")
        }
        let dataDirectory = try Self.dataDirectory(for: manifest.id, environment: environment)
        let quarantine = self.quarantine, path = candidate.path, log = runtime.resolve(HostLog.self)
        return try IsolatedInstance(
            candidate: candidate, runtime: runtime, executable: executable, settings: settings,
            dataDirectory: dataDirectory, environment: environment,
            onStop: { reason in
                do {
                    if try quarantine.recordCrash(path: path, pluginID: id, reason: reason) {
                        log.log(.warning, id, "quarantined after \(QuarantineStore.crashLimit) stops in 5 minutes; "
                            + "lift it with: widget-host quarantine lift \(id)")
                    }
                } catch {
                    log.log(.warning, "quarantine", "\(error)")
                }
            })
    }

    /// Where each isolated plugin's own directory is made.
    public static func dataDirectories(_ environment: [String: String]) -> String {
        UserDirectories.data(environment) + "/widget-host/data"
    }

    /// The plugin's own directory, made (mode 0700) if need be, canonical,
    /// since the sandbox compares paths by their text.
    public static func dataDirectory(for id: PluginID, environment: [String: String]) throws(Refusal) -> String {
        let path = dataDirectories(environment) + "/" + id.value
        var built = ""
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o700) != 0 && errno != EEXIST {
                throw Refusal(description: "cannot create its data directory \(built): \(SystemError(code: errno))")
            }
        }
        guard let real = realpath(path, nil) else {
            throw Refusal(description: "cannot resolve its data directory \(path): \(SystemError(code: errno))")
        }
        defer { free(real) }
        return String(cString: real)
    }
}
