import Foundation
import Glibc
import PluginABI
import Testing
@testable import WidgetHostKit
@testable import TestSupport

private typealias Kit = IsolationTestKit

/// The issue's proof: a corpus of hostile plugins, built here from
/// hostile.c, each contained with its specific reason, and after each one
/// the same host still serves another widget.
@Suite("Isolation: the hostile corpus")
struct IsolationHostileCorpusTests {
    /// A render deadline of one second keeps the endless loop's case short.
    /// The flood's limit is lowered with it: isolated, each event is a round
    /// trip, and a loaded machine must still fit more than the limit into the
    /// one second the rate is counted over (the default's 1,000 is held by
    /// NoisyPluginTests).
    private static let settings = #"{"deadlines": {"render": 1}, "limits": {"eventsPerSecond": 100}}"#

    @Test("launch --isolate --once shows each case's specific reason", arguments: Kit.hostileCases)
    func reason(_ item: IsolationTestKit.HostileCase) throws {
        let directory = try Kit.hostileDirectory(item.name, defines: item.defines)
        let home = try Kit.Home()
        let config = try home.config(Self.settings)
        let run = try home.run(["launch", "hostile", "--plugin-dir", directory, "--isolate", "--once", "--format", "json", "--config", config])
        #expect(run.status == 0, "\(run)")
        let screen = try Kit.screen(run)
        let error = try #require(screen["error"]?.string, "no error shown: \(run)")
        #expect(error.contains(item.reason), "\(run)")
        if item.stops {
            #expect(error.hasPrefix("widget hostile stopped: "), "\(run)")
        }
        if item.name == "write-outside-in-render" {
            #expect(access(Kit.escapePath, F_OK) != 0, "the plugin wrote \(Kit.escapePath)")
        }
    }

    @Test("in the same run, after each case, the host still serves another widget", arguments: Kit.hostileCases)
    func hostSurvives(_ item: IsolationTestKit.HostileCase) throws {
        let directory = try Kit.hostileDirectory(item.name, defines: item.defines)
        let home = try Kit.Home()
        let config = try home.config(Self.settings)
        // Open hello, visit the hostile widget (it renders while the run
        // settles), come back, and render hello again.
        let run = try home.run(["launch", "hello", "--plugin-dir", directory, "--isolate", "--once", "--format", "json",
                                "--config", config, "--actions", "widget://org.example.hostile,back"])
        #expect(run.status == 0, "\(run)")
        let screen = try Kit.screen(run)
        #expect(screen["plugin"]?.string == "org.example.hello", "\(run)")
        #expect(screen["error"] == .null, "\(run)")
        #expect(screen["view"]?["text"]?.string == "Hello, world! Waves: 0", "\(run)")
        if item.stops {
            #expect(run.stderr.contains("org.example.hostile: stopped: \(item.reason)"), "\(run)")
        }
    }

    @Test("in process, the lying descriptor is refused with the same reason")
    func lyingDescriptorInProcess() throws {
        let item = try #require(Kit.hostileCases.first { $0.name == "lying-descriptor" })
        let directory = try Kit.hostileDirectory(item.name, defines: item.defines)
        let run = try Kit.Home().run(["launch", "hostile", "--plugin-dir", directory, "--once", "--format", "json"])
        #expect(try Kit.screen(run)["error"]?.string?.contains(item.reason) == true, "\(run)")
    }

    @Test("a calm plugin may write in its own data directory, which the host made for it")
    func writesInside() throws {
        let directory = try Kit.hostileDirectory("write-inside", defines: ["-DWRITE_INSIDE"])
        let home = try Kit.Home()
        let run = try home.run(["launch", "hostile", "--plugin-dir", directory, "--isolate", "--once", "--format", "json"])
        #expect(try Kit.screen(run)["view"]?["text"]?.string == "wrote inside", "\(run)")
        #expect(access(home.root + "/data/widget-host/data/org.example.hostile/written-inside", F_OK) == 0)
    }

    @Test("http reaches only the hosts the manifest declares, in process and isolated alike", arguments: [false, true])
    func declaredHosts(_ isolated: Bool) throws {
        let directory = try Kit.hostileDirectory("http", defines: ["-DHTTP_IN_RENDER"])
        let run = try Kit.Home().run(["launch", "hostile", "--plugin-dir", directory, "--once", "--format", "json"] + (isolated ? ["--isolate"] : []))
        #expect(try Kit.screen(run)["view"]?["text"]?.string == "http status \(WH_HTTP_UNREACHABLE_VALUE)", "\(run)")
        #expect(run.stderr.contains("denied GET http://127.0.0.1:9/: 127.0.0.1 is not among the hosts its manifest declares (allowed.example)"), "\(run)")
    }

    @Test("a manifest that declares no hosts reaches none: the listener sees nothing, http/3 answers denied, http/1 as before",
          arguments: [(false, WH_SERVICE_HTTP_3), (true, WH_SERVICE_HTTP_3), (false, WH_SERVICE_HTTP), (true, WH_SERVICE_HTTP)])
    func noHostsReachesNone(_ isolated: Bool, _ service: String) throws {
        let listener = try LoopbackHTTPServer(always: .ok("secret"))
        defer { listener.stop() }
        let url = listener.url("/secret")
        let directory = try Kit.hostileDirectory("http-no-hosts-\(service.last!)-\(listener.port)",
                                                 defines: ["-DHTTP_IN_RENDER", "-DHTTP_NO_HOSTS", "-DHTTP_URL=\"\(url)\"",
                                                           "-DHTTP_SERVICE_ID=\"\(service)\""])
        let run = try Kit.Home().run(["launch", "hostile", "--plugin-dir", directory, "--once", "--format", "json"] + (isolated ? ["--isolate"] : []))
        let status = service == WH_SERVICE_HTTP_3 ? WH_HTTP_DENIED : WH_HTTP_UNREACHABLE_VALUE
        #expect(try Kit.screen(run)["view"]?["text"]?.string == "http status \(status)", "\(run)")
        #expect(listener.requests.isEmpty, "a plugin that declares no hosts reached the listener")
        #expect(run.stderr.contains("denied GET \(url): 127.0.0.1 is not among the hosts its manifest declares (none)"), "\(run)")
    }
}

private let WH_HTTP_UNREACHABLE_VALUE = -2

/// The same containment seen from inside a host: the test process itself
/// drives a session with the isolated launcher, and lives on.
@Suite("Isolation: a session with isolated plugins")
struct IsolationSessionTests {
    private func session(_ directory: String, home: Kit.Home, recorder: LogRecorder,
                         _ configure: (inout PluginRunSettings) -> Void = { _ in }) -> WidgetSession {
        let search = SearchPath(directories: [.init(path: directory, origin: "test", explicit: true)])
        let report = Discovery(availableServices: Set(ServiceTable.all.map(\.id))).scan(search)
        return WidgetSession(runtime: home.runtime(recorder), plugins: report.plugins, launcher: home.launcher(configure).launcher)
    }

    private func text(_ screen: RenderedScreen?) -> String? {
        guard case let .success(view)? = screen?.view else { return nil }
        return view.json["text"]?.string
    }

    @Test("a crash in render is shown, the next widget is served, and r starts it again")
    func crashThenRestart() throws {
        let directory = try Kit.hostileDirectory("crash-once", defines: ["-DCRASH_ONCE"])
        let home = try Kit.Home()
        let recorder = LogRecorder()
        let session = session(directory, home: home, recorder: recorder)
        try session.open(NavigationTarget(plugin: "hostile", screen: nil))
        let crashed = try #require(session.render())
        #expect(crashed.view == .failure(RenderFailure(description: "widget hostile stopped: SIGSEGV during render")))
        // Still stopped until someone asks for it again.
        #expect(session.render()?.view == .failure(RenderFailure(description: "widget hostile stopped: SIGSEGV during render")))

        try session.open(NavigationTarget(plugin: "hello", screen: nil))
        #expect(text(session.render()) == "Hello, world! Waves: 0")

        try session.open(NavigationTarget(plugin: "hostile", screen: nil))
        session.restartIfStopped(try PluginID("org.example.hostile"))
        #expect(text(session.render()) == "Hostile: calm, version 1")
        #expect(recorder.recorded.contains { $0.contains("org.example.hostile: stopped: SIGSEGV during render") })
    }

    @Test("a plugin that dies between calls is noticed, and the screen is asked to redraw")
    func idleCrash() throws {
        let directory = try Kit.hostileDirectory("crash-later", defines: ["-DCRASH_LATER"])
        let home = try Kit.Home()
        let session = session(directory, home: home, recorder: LogRecorder())
        try session.open(NavigationTarget(plugin: "hostile", screen: nil))
        #expect(text(session.render()) == "Hostile: calm, version 1")
        #expect(session.wakeup.wait(seconds: 10), "no wake-up came when the plugin died")
        #expect(Kit.eventually { session.render()?.view == .failure(RenderFailure(description: "widget hostile stopped: SIGSEGV")) })
    }

    @Test("a plugin that rings the host's doorbell with nothing to read is stopped")
    func ringFlood() throws {
        let directory = try Kit.hostileDirectory("ring-flood", defines: ["-DRING_FLOOD"])
        let home = try Kit.Home()
        let session = session(directory, home: home, recorder: LogRecorder())
        try session.open(NavigationTarget(plugin: "hostile", screen: nil))
        let limit = PluginRunSettings().maxServiceCallsPerSecond
        #expect(Kit.eventually {
            session.render()?.view == .failure(RenderFailure(
                description: "widget hostile stopped: flooded the host: rang its doorbell more than \(limit) times in a second with nothing to read"))
        }, "\(String(describing: session.render()?.view))")
    }

    @Test("a plugin that spins on a thread of its own is stopped by its CPU limit")
    func cpuLimit() throws {
        let directory = try Kit.hostileDirectory("spin-later", defines: ["-DSPIN_LATER"])
        let home = try Kit.Home()
        let session = session(directory, home: home, recorder: LogRecorder()) { $0.cpuSeconds = 1 }
        try session.open(NavigationTarget(plugin: "hostile", screen: nil))
        #expect(text(session.render()) == "Hostile: calm, version 1")
        // A second of CPU time, not of the clock: on two cores shared with the rest of
        // the suite (and a build) the spinning thread gets its second late, so wait up to a minute.
        #expect(Kit.eventually(1200) {
            session.render()?.view == .failure(RenderFailure(description: "widget hostile stopped: used up its 1 s of CPU time (SIGXCPU)"))
        })
    }

    @Test("the isolated child reports the sandbox it got: on this kernel, all of it")
    func sandboxReported() throws {
        let directory = try Kit.hostileDirectory("calm", defines: [])
        let home = try Kit.Home()
        let instance = try home.launcher().launch(try Kit.candidate(directory + "/hostile.so"), home.runtime(LogRecorder()))
        let sandbox = try #require((instance as? IsolatedInstance)?.sandbox)
        #expect(sandbox["no_new_privs"] == .bool(true))
        #expect(sandbox["seccomp"] == .bool(true), "\(sandbox.serialized)")
        #expect((sandbox["landlock"]?.int64 ?? 0) >= 1, "\(sandbox.serialized)")
    }

    @Test("a plugin that cannot be started says why, and the host carries on")
    func cannotStart() throws {
        let home = try Kit.Home()
        var launcher = home.launcher()
        launcher.executable = "/nonexistent/widget-host"
        let directory = try Kit.hostileDirectory("calm-missing-host", defines: [])
        #expect {
            _ = try launcher.launch(try Kit.candidate(directory + "/hostile.so"), home.runtime(LogRecorder()))
        } throws: { error in
            "\(error)".contains("cannot start a process for it")
        }
    }

    @Test("three crashes quarantine the plugin; a changed file runs again")
    func quarantineEndToEnd() throws {
        let directory = try Kit.hostileDirectory("crash-quarantine", defines: ["-DCRASH_IN_RENDER"])
        let home = try Kit.Home()
        for _ in 0..<3 {
            let run = try home.run(["launch", "hostile", "--plugin-dir", directory, "--isolate", "--once", "--format", "json"])
            #expect(try Kit.screen(run)["error"]?.string == "widget hostile stopped: SIGSEGV during render", "\(run)")
        }
        let refused = try home.run(["launch", "hostile", "--plugin-dir", directory, "--isolate", "--once", "--format", "json"])
        #expect(try Kit.screen(refused)["error"]?.string?.contains(
            "could not start: quarantined: it stopped 3 times in 5 minutes (last: SIGSEGV during render)") == true, "\(refused)")

        let list = try home.run(["list", "--plugin-dir", directory, "--json"])
        let entries = try #require(try JSONParser.parse(list.stdout).array)
        let hostile = try #require(entries.first { $0["id"]?.string == "org.example.hostile" })
        #expect(hostile["status"]?.string == "quarantined")
        #expect(hostile["reason"]?.string?.contains("SIGSEGV during render") == true)
        let info = try home.run(["info", "hostile", "--plugin-dir", directory])
        #expect(info.stdout.contains("status:") && info.stdout.contains("quarantined: it stopped 3 times"), "\(info)")
        let quarantined = try home.run(["quarantine", "list"])
        #expect(quarantined.stdout.contains("org.example.hostile") && quarantined.stdout.contains("quarantined"), "\(quarantined)")

        // Rebuilt (here: replaced by the calm build): it runs again.
        try TestSupport.compileC(source: TestSupport.fixtureDirectory + "/hostile.c", flags: ["-pthread"],
                                 output: directory + "/hostile.so.new")
        guard rename(directory + "/hostile.so.new", directory + "/hostile.so") == 0 else { throw TestSupport.Failure("rename") }
        let rebuilt = try home.run(["launch", "hostile", "--plugin-dir", directory, "--isolate", "--once", "--format", "json"])
        #expect(try Kit.screen(rebuilt)["view"]?["text"]?.string == "Hostile: calm, version 1", "\(rebuilt)")
    }

    @Test("quarantine lift lets it run again; lifting what is not there is an error")
    func liftCommand() throws {
        let directory = try Kit.hostileDirectory("crash-lift", defines: ["-DCRASH_IN_RENDER"])
        let home = try Kit.Home()
        for _ in 0..<3 { _ = try home.run(["launch", "hostile", "--plugin-dir", directory, "--isolate", "--once"]) }
        let lifted = try home.run(["quarantine", "lift", "hostile"])
        #expect(lifted.status == 0 && lifted.stdout.contains("lifted the quarantine of org.example.hostile"), "\(lifted)")
        let again = try home.run(["launch", "hostile", "--plugin-dir", directory, "--isolate", "--once", "--format", "json"])
        #expect(try Kit.screen(again)["error"]?.string == "widget hostile stopped: SIGSEGV during render", "\(again)")
        let missing = try home.run(["quarantine", "lift", "org.example.nothing"])
        #expect(missing.status == 1 && missing.stderr.contains("no plugin named 'org.example.nothing' has a crash record"), "\(missing)")
        let usage = try home.run(["quarantine", "free", "x"])
        #expect(usage.status == 2, "\(usage)")
    }
}

/// What happens on a kernel that lacks a sandbox feature, shown by leaving
/// it out on request (WIDGET_HOST_SANDBOX_SKIP): the host says so once and
/// refuses to run plugins in the weaker cage, unless --allow-weak-sandbox
/// is given; then it goes on with what is available.
@Suite("Isolation: a sandbox without some feature")
struct IsolationMissingFeatureTests {
    private func run(_ name: String, _ defines: [String], skip: String, visit: Bool = false, weak: Bool = true) throws -> TestSupport.HostRun {
        let directory = try Kit.hostileDirectory("skip-\(skip)-\(name)", defines: defines)
        var home = try Kit.Home().environment
        home["WIDGET_HOST_SANDBOX_SKIP"] = skip
        let arguments = visit
            ? ["launch", "hello", "--actions", "widget://org.example.hostile,back"]
            : ["launch", "hostile"]
        return try TestSupport.runHost(arguments + ["--plugin-dir", directory, "--isolate", "--once", "--format", "json"]
                                       + (weak ? ["--allow-weak-sandbox"] : []), environment: home)
    }

    @Test("without Landlock or seccomp, --isolate refuses the plugin before any of its code runs, and says why once",
          arguments: ["landlock", "seccomp"])
    func refusedWithoutFeature(_ skip: String) throws {
        let escape = Kit.escapePath + "-refused-\(skip)"
        let run = try run("refused", ["-DWRITE_OUTSIDE_IN_RENDER", "-DESCAPE_PATH=\"\(escape)\""], skip: skip, visit: true, weak: false)
        let feature = skip == "landlock" ? "Landlock" : "seccomp"
        let error = try #require(try Kit.screen(run)["error"]?.string, "\(run)")
        #expect(error.contains("refused: the sandbox on this system is incomplete (without \(feature) (skipped on request))"), "\(run)")
        #expect(error.contains("--allow-weak-sandbox runs plugins in what there is"), "\(run)")
        let notice = "the sandbox is without \(feature) (skipped on request); isolated plugins are refused"
        #expect(run.stderr.components(separatedBy: notice).count == 2, "said other than once: \(run)")
        #expect(access(escape, F_OK) != 0)
    }

    @Test("without Landlock, info and validate refuse to run the plugin unless --allow-weak-sandbox", arguments: ["info", "validate"])
    func checksRefusedWithoutLandlock(_ command: String) throws {
        let directory = try Kit.hostileDirectory("skip-landlock-\(command)", defines: [])
        var environment = try Kit.Home().environment
        environment["WIDGET_HOST_SANDBOX_SKIP"] = "landlock"
        let refused = try TestSupport.runHost([command, directory + "/hostile.so"], environment: environment)
        #expect(refused.stdout.contains("refused: the sandbox on this system is incomplete (without Landlock (skipped on request))"),
                "\(refused)")
        let allowed = try TestSupport.runHost([command, directory + "/hostile.so", "--allow-weak-sandbox"], environment: environment)
        #expect(!allowed.stdout.contains("refused: the sandbox"), "\(allowed)")
        #expect(allowed.stdout.contains(command == "info" ? "ok" : "valid:"), "\(allowed)")
    }

    @Test("without Landlock (allowed), seccomp still stops a write outside the data directory, judged by its path; said once")
    func withoutLandlock() throws {
        let escape = Kit.escapePath + "-no-landlock"
        let run = try run("write-outside", ["-DWRITE_OUTSIDE_IN_RENDER", "-DESCAPE_PATH=\"\(escape)\""], skip: "landlock", visit: true)
        #expect(run.stderr.contains("org.example.hostile: stopped: tried to write \(escape) outside its data directory"), "\(run)")
        #expect(access(escape, F_OK) != 0)
        let notice = "the sandbox is without Landlock (skipped on request); isolated plugins run with what is available"
        #expect(run.stderr.components(separatedBy: notice).count == 2, "said other than once: \(run)")
        #expect(try Kit.screen(run)["view"]?["text"]?.string == "Hello, world! Waves: 0")
    }

    @Test("without Landlock (allowed), writing inside the data directory still works")
    func insideWithoutLandlock() throws {
        let run = try run("write-inside", ["-DWRITE_INSIDE"], skip: "landlock")
        #expect(try Kit.screen(run)["view"]?["text"]?.string == "wrote inside", "\(run)")
    }

    @Test("without seccomp (allowed), Landlock still refuses the write and the connection, though it cannot say so")
    func withoutSeccomp() throws {
        let escape = Kit.escapePath + "-no-seccomp"
        let write = try run("write-outside", ["-DWRITE_OUTSIDE_IN_RENDER", "-DESCAPE_PATH=\"\(escape)\""], skip: "seccomp")
        // The plugin carries on, its open refused.
        #expect(try Kit.screen(write)["view"]?["text"]?.string == "open returned -1", "\(write)")
        #expect(access(escape, F_OK) != 0, "the write outside got through")
        #expect(write.stderr.contains("the sandbox is without seccomp (skipped on request)"), "\(write)")
    }
}
