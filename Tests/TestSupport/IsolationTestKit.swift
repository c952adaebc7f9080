import Foundation
import Glibc
import Testing
@testable import WidgetHostKit

/// Plugins, homes and terminals for the isolation tests.
enum IsolationTestKit {
    // MARK: The hostile corpus

    /// One misbehaviour of Tests/Fixtures/plugins/hostile.c: its -D switch,
    /// and what the host must say about it.
    struct HostileCase: Sendable, CustomTestStringConvertible {
        let name: String
        let defines: [String]
        /// A phrase the reason must contain.
        let reason: String
        /// Whether the plugin is stopped (its process gone), rather than one
        /// call failing or the plugin refused at load.
        let stops: Bool

        var testDescription: String { name }
    }

    /// Where the write-outside case tries to write: outside every data
    /// directory, and unique to this test run.
    static let escapePath: String = FileManager.default.temporaryDirectory.path + "/widget-host-escape-\(getpid())"

    /// The corpus, each case with its specific reason.
    static let hostileCases: [HostileCase] = [
        HostileCase(name: "crash-in-render", defines: ["-DCRASH_IN_RENDER"], reason: "SIGSEGV during render", stops: true),
        HostileCase(name: "abort-in-render", defines: ["-DABORT_IN_RENDER"], reason: "SIGABRT during render", stops: true),
        HostileCase(name: "exit-in-render", defines: ["-DEXIT_IN_RENDER"], reason: "exited with status 0 during render", stops: true),
        HostileCase(name: "loop-in-render", defines: ["-DLOOP_IN_RENDER"], reason: "timed out in render after 1s", stops: true),
        HostileCase(name: "allocate-in-render", defines: ["-DALLOCATE_IN_RENDER"],
                    reason: "out of memory during render: an allocation failed against the 1024 MiB limit", stops: true),
        HostileCase(name: "connect-in-render", defines: ["-DCONNECT_IN_RENDER"],
                    reason: "tried to open a network socket (socket(AF_INET, SOCK_STREAM))", stops: true),
        HostileCase(name: "write-outside-in-render", defines: ["-DWRITE_OUTSIDE_IN_RENDER", "-DESCAPE_PATH=\"\(escapePath)\""],
                    reason: "tried to write \(escapePath) outside its data directory", stops: true),
        HostileCase(name: "flood-in-render", defines: ["-DFLOOD_IN_RENDER"],
                    reason: "flooded the bus: more than 100 events in a second", stops: true),
        HostileCase(name: "oversized-render", defines: ["-DOVERSIZED_RENDER"],
                    reason: "the plugin wrote more than \(PluginInstance.maxRenderBytes) bytes", stops: false),
        HostileCase(name: "forge-frame", defines: ["-DFORGE_FRAME"],
                    reason: "broke the protocol: sent a message of 1073741824 bytes; the limit is \(Frame.maxPayloadBytes)", stops: true),
        HostileCase(name: "lying-descriptor", defines: ["-DLYING_DESCRIPTOR"],
                    reason: "descriptor says it is 4294967280 bytes", stops: false),
    ]

    /// A directory holding one variant of hostile.c as hostile.so, and the
    /// calm hello.c as hello.so: "the host still serves another widget".
    static func hostileDirectory(_ name: String, defines: [String]) throws -> String {
        let directory = try TestSupport.makeTemporaryDirectory("hostile-\(name)")
        try TestSupport.compileC(source: TestSupport.fixtureDirectory + "/hostile.c", flags: ["-pthread"] + defines,
                                 output: directory + "/hostile.so")
        try TestSupport.copy(try hello.get(), to: directory + "/hello.so")
        return directory
    }

    /// hello.c, compiled once.
    static let hello = Result { () throws -> String in
        let path = try TestSupport.makeTemporaryDirectory("hello") + "/hello.so"
        try TestSupport.compileHello(output: path)
        return path
    }

    /// A plugin's candidate as discovery makes it.
    static func candidate(_ path: String) throws -> PluginCandidate {
        let candidate = Discovery(availableServices: Set(ServiceTable.all.map(\.id))).inspect(path: path)
        guard candidate.status == .ok else { throw TestSupport.Failure("\(path): \(candidate.status)") }
        return candidate
    }

    // MARK: Homes

    /// A fresh home for one test: its own data (plugin data directories),
    /// state (the quarantine file) and config directories.
    struct Home {
        let root: String

        init() throws {
            root = try TestSupport.makeTemporaryDirectory("isolation-home")
        }

        var environment: [String: String] {
            var variables = ["HOME": root, "XDG_DATA_HOME": root + "/data", "XDG_CONFIG_HOME": root + "/config",
                             "XDG_STATE_HOME": root + "/state"]
            for name in ["PATH", "LD_LIBRARY_PATH"] {
                if let value = ProcessInfo.processInfo.environment[name] { variables[name] = value }
            }
            return variables
        }

        /// A config file with these "host" settings.
        func config(_ host: String) throws -> String {
            let path = root + "/config.json"
            try TestSupport.write(Array("{\"host\": \(host)}".utf8), to: path)
            return path
        }

        func run(_ arguments: [String], timeout: Double = 60) throws -> TestSupport.HostRun {
            try TestSupport.runHost(arguments, environment: environment, timeout: timeout)
        }

        /// An isolated launcher that runs the built `widget-host` as its children.
        func launcher(_ configure: (inout PluginRunSettings) -> Void = { _ in }) -> IsolatedLauncher {
            var settings = PluginRunSettings()
            settings.mode = .always
            configure(&settings)
            return IsolatedLauncher(executable: TestSupport.widgetHost, settings: settings, environment: environment)
        }

        func runtime(_ recorder: LogRecorder) -> HostRuntime {
            HostRuntime(storeDirectory: root + "/data/widget-host/shared", log: HostLog(threshold: .debug, sink: recorder.sink))
        }
    }

    /// A C fixture (`Tests/Fixtures/plugins/NAME.c`) compiled into a plugin of its own.
    static func fixture(_ name: String) throws -> (path: String, candidate: PluginCandidate) {
        let path = try TestSupport.makeTemporaryDirectory(name) + "/\(name).so"
        try TestSupport.compileC(source: TestSupport.fixtureDirectory + "/\(name).c", output: path)
        return (path, try candidate(path))
    }

    /// One plugin started twice, in process and isolated, each with a runtime
    /// of its own (the same configuration, separate stores) logging at debug.
    struct BothModes {
        let inProcess: any WidgetInstance
        let isolated: any WidgetInstance
        let inRuntime: HostRuntime
        let isolatedRuntime: HostRuntime
        let inLog = LogRecorder()
        let isolatedLog = LogRecorder()

        init(fixture name: String, config: HostConfig) throws {
            let (path, candidate) = try IsolationTestKit.fixture(name)
            let home = try Home()
            inRuntime = HostRuntime(config: config, storeDirectory: home.root + "/in/shared", log: HostLog(threshold: .debug, sink: inLog.sink))
            isolatedRuntime = HostRuntime(config: config, storeDirectory: home.root + "/isolated/shared",
                                          log: HostLog(threshold: .debug, sink: isolatedLog.sink))
            let loaded = try Loader.load(path: path, manifest: candidate.manifest!, serviceIDs: inRuntime.serviceIDs)
            inProcess = try PluginInstance(plugin: loaded, runtime: inRuntime)
            isolated = try home.launcher().launch(candidate, isolatedRuntime)
        }
    }

    /// The JSON `launch --format json` printed.
    static func screen(_ run: TestSupport.HostRun) throws -> JSONValue {
        try run.json()
    }

    /// The terminal of the interactive tests (`r` restarts, plugins appear
    /// and reload live): 100 columns, and waits of 300 polls.
    static let terminal = Tmux.Settings(columns: 100, attempts: 300)

    /// Polls `condition` up to `attempts` times, 50 ms apart.
    static func eventually(_ attempts: Int = 200, _ condition: () -> Bool) -> Bool {
        for _ in 0..<attempts {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }
}
