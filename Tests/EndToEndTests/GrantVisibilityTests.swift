import Foundation
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

private typealias Kit = IsolationTestKit

/// hostile.c with one more manifest field, in a plugin directory of its own (beside hello).
private func hostile(_ name: String, field: String = "", defines: [String] = []) throws -> String {
    try Kit.hostileDirectory("grants-\(name)", defines: (field.isEmpty ? [] : ["-DEXTRA_FIELD=\", \(field.replacingOccurrences(of: "\"", with: "\\\""))\""])
        + defines)
}

private func manifest(_ extra: String, abi: String = "1.0") throws -> Manifest {
    try Manifest(bytes: Array((#"{"abi": "\#(abi)", "id": "org.example.m", "name": "M", "version": "1.0.0", "screens": [{"id": "main"}]"#
        + extra + "}").utf8))
}

@Suite("Grants a person can read: unknown keys, wide grants, missing contracts, refused actions, the log")
struct GrantVisibilityTests {
    // MARK: Unknown keys

    @Test("an unknown key is named with the closest known key, at any level")
    func unknownKeys() throws {
        let found = ManifestWarnings.unknownKeys(in: try manifest(#", "htpp": {"hosts": ["*"]}, "http": {"hosts": [], "host": []}, "#
            + #""store": {"grups": {}}, "colour": 1"#).json).map(\.description)
        #expect(found == [#"unknown manifest key "htpp" (did you mean "http"?)"#, #"unknown manifest key "colour""#,
                          #"unknown manifest key "http.host" (did you mean "http.hosts"?)"#,
                          #"unknown manifest key "store.grups" (did you mean "store.groups"?)"#], "\(found)")
        #expect(ManifestWarnings.unknownKeys(in: try manifest(#", "http": {"hosts": []}"#).json).isEmpty)
    }

    @Test("validate fails an unknown key, unless the manifest speaks a newer ABI minor than the host")
    func unknownKeyFailsValidation() throws {
        let validator = Validator(executable: "/bin/false", timeout: 1, discovery: Discovery(availableServices: []))
        let current = validator.manifestChecks(try manifest(#", "htpp": {}"#))
        #expect(current.first?.outcome == .fail && current.first?.detail?.contains(#"did you mean "http"?"#) == true, "\(current)")
        let newer = validator.manifestChecks(try manifest(#", "htpp": {}"#, abi: "\(ABIVersion.host.major).\(ABIVersion.host.minor + 1)"))
        #expect(newer.first?.outcome == .warn, "\(newer)")
        #expect(validator.manifestChecks(try manifest("")).map(\.outcome) == [.pass])
    }

    @Test("a misspelt \"htpp\" is warned about in list, info and validate, and validate fails")
    func misspeltGrantEverywhere() throws {
        let directory = try hostile("htpp", field: #""htpp": {"hosts": ["api.example.com"]}"#)
        let home = try Kit.Home()
        let warning = #"unknown manifest key "htpp" (did you mean "http"?)"#
        let list = try home.run(["list", "--plugin-dir", directory])
        #expect(list.stdout.contains("hostile.so: warning: \(warning)"), "\(list)")
        let json = try home.run(["list", "--plugin-dir", directory, "--json"])
        #expect(json.stdout.contains(#"unknown manifest key \"htpp\""#), "\(json)")
        let info = try home.run(["info", "hostile", "--plugin-dir", directory])
        #expect(info.stdout.contains(warning), "\(info)")
        let validate = try home.run(["validate", "hostile", "--plugin-dir", directory])
        #expect(validate.status == 1 && validate.stdout.contains("FAIL  manifest keys: \(warning)"), "\(validate)")
    }

    // MARK: Wide grants and the grants in words

    @Test("info shows every grant in words, and \"*\" is flagged in info, list and validate")
    func anyHostFlagged() throws {
        let directory = try hostile("any-host", defines: ["-DHTTP_IN_RENDER", #"-DHTTP_HOSTS="\"*\"""#])
        let home = try Kit.Home()
        let info = try home.run(["info", "hostile", "--plugin-dir", directory])
        #expect(info.stdout.contains("http hosts:") && info.stdout.contains("* (ANY HOST)"), "\(info)")
        #expect(info.stdout.contains("store groups:") && info.stdout.contains("topics:") && info.stdout.contains("contracts:"), "\(info)")
        let flag = "http.hosts is \"*\": the plugin may reach any host on the network"
        #expect(info.stdout.contains(flag), "\(info)")
        #expect(try home.run(["list", "--plugin-dir", directory]).stdout.contains(flag))
        let validate = try home.run(["validate", "hostile", "--plugin-dir", directory])
        #expect(validate.stdout.contains("WARN  grants: \(flag)"), "\(validate)")
    }

    @Test("a required contract no plugin provides is a warning in list, info, validate and launch")
    func missingContract() throws {
        let directory = try hostile("missing-contract", field: #""contracts": {"requires": ["org.example.absent/1"]}"#)
        let home = try Kit.Home()
        let warning = "requires contract org.example.absent/1, which no installed plugin provides"
        #expect(try home.run(["list", "--plugin-dir", directory]).stdout.contains(warning))
        #expect(try home.run(["info", "hostile", "--plugin-dir", directory]).stdout.contains(warning))
        #expect(try home.run(["validate", "hostile", "--plugin-dir", directory]).stdout.contains("WARN  grants: \(warning)"))
        let launch = try home.run(["launch", "hostile", "--plugin-dir", directory, "--once", "--format", "json"])
        #expect(launch.stderr.contains("warning: org.example.hostile: \(warning)"), "\(launch)")
    }

    // MARK: Actions

    @Test("a C plugin's undeclared action is refused by the host before it reaches the plugin", arguments: [false, true])
    func undeclaredActionRefused(_ isolated: Bool) throws {
        let directory = try hostile("undeclared-action", defines: ["-DUNDECLARED_ACTION"])
        let run = try Kit.Home().run(["launch", "hostile", "--plugin-dir", directory, "--once", "--format", "json", "--actions", "steal"]
            + (isolated ? ["--isolate"] : []))
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("refused action 'steal' is not declared by any screen of org.example.hostile's manifest"), "\(run)")
        let texts = try Kit.screen(run)["view"]?["children"]?.array?.compactMap { $0["text"]?.string }
        #expect(texts == ["actions received: 0"], "\(run)")
    }

    @Test("the host's own actions pass; others need a screen that declares them")
    func hostActionsPass() throws {
        let declared = try Manifest(bytes: Array((#"{"abi": "1.0", "id": "org.example.m", "name": "M", "version": "1.0.0", "#
            + #""screens": [{"id": "a", "actions": ["go"]}, {"id": "b"}]}"#).utf8))
        #expect(DeclaredActions.refusal(of: "go", for: declared) == nil)
        #expect(DeclaredActions.refusal(of: "widget-host.refresh", for: declared) == nil)
        #expect(DeclaredActions.refusal(of: "steal", for: declared) != nil)
    }

    @Test("validate fails a screen whose view offers an undeclared action, naming the fix")
    func validateNamesTheFix() throws {
        let directory = try hostile("undeclared-action-validate", defines: ["-DUNDECLARED_ACTION"])
        let run = try Kit.Home().run(["validate", "hostile", "--plugin-dir", directory])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.contains(#"FAIL  render main: the view offers "steal", which no screen of the manifest declares"#), "\(run)")
        #expect(run.stdout.contains(#"add "steal" to the "actions" of screen "main" in the manifest"#), "\(run)")
    }

    // MARK: The log

    @Test("on a terminal, a plugin's denial shows in the footer, and goes to the log file under XDG_STATE_HOME")
    func denialInFooterAndFile() throws {
        let directory = try hostile("footer", defines: ["-DHTTP_IN_RENDER", "-DHTTP_NO_HOSTS", #"-DHTTP_URL="http://127.0.0.1:9/""#])
        let home = try Kit.Home()
        let terminal = try Tmux([TestSupport.widgetHost, "launch", "hostile", "--plugin-dir", directory],
                                environment: home.environment.merging(["TERM": "xterm"]) { $1 }, settings: Kit.terminal)
        defer { terminal.kill() }
        let screen = try terminal.waitFor("the denial in the footer") { $0.contains("! hostile: denied GET http://127.0.0.1:9/") }
        #expect(screen.contains("http status -2"), "\(screen)")
        try terminal.send("q")
        try terminal.waitFor("the program to exit") { _ in try terminal.exited() }
        let file = try String(contentsOfFile: home.root + "/state/widget-host/widget-host.log", encoding: .utf8)
        #expect(file.contains("org.example.hostile: denied GET http://127.0.0.1:9/: 127.0.0.1 is not among the hosts its manifest declares (none)"),
                "\(file)")
    }

    @Test("a source logging in a loop is held to its lines a second, and the drop is said once the second is over")
    func rateLimited() throws {
        let recorder = LogRecorder()
        let file = try TestSupport.makeTemporaryDirectory("log-file") + "/state/widget-host/widget-host.log"
        let log = HostLog(threshold: .info, sink: recorder.sink, file: LogFile(path: file))
        // Within one second (retried if the loop straddles a second's edge).
        var kept = 0
        for _ in 0..<3 {
            let before = recorder.recorded.count
            for index in 0..<5000 { log.log(.info, "org.example.loud", "line \(index)") }
            // The loop's own lines: a retry's first line also brings the last try's drop notice.
            kept = recorder.recorded[before...].filter { !$0.contains("lines dropped") }.count
            if kept == HostLog.linesPerSecond { break }
            usleep(1_100_000)
        }
        #expect(kept == HostLog.linesPerSecond)
        log.log(.info, "org.example.quiet", "another source is not held back")
        #expect(recorder.recorded.last?.contains("another source is not held back") == true)
        usleep(1_100_000)
        log.log(.warning, "org.example.loud", "after the second")
        #expect(recorder.recorded.suffix(2).first?.contains("org.example.loud: \(5000 - HostLog.linesPerSecond) lines dropped") == true,
                "\(recorder.recorded.suffix(3))")
        #expect(log.latestNotice(from: "org.example.loud") == "after the second")
        let written = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        #expect(written == recorder.recorded.map { Substring($0) })
        var info = stat()
        #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }
}
