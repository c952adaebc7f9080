import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// `widget-host install` and `uninstall`, run as a person runs them, each in
/// a fresh XDG_DATA_HOME: a valid plugin lands as ID.so, mode 0644, and
/// `list` shows it ok; an invalid file is refused and nothing is written; a
/// downgrade needs --force; uninstall removes it and refuses an unknown id.
@Suite("install and uninstall")
struct InstallCommandTests {
    struct Home {
        let root: String
        var plugins: String { root + "/data/widget-host/plugins" }
        var installed: String { plugins + "/org.example.hello.so" }

        init() throws { root = try TestSupport.makeTemporaryDirectory("install-home") }

        func run(_ arguments: [String]) throws -> TestSupport.HostRun {
            try TestSupport.runHost(arguments, environment: ["XDG_DATA_HOME": root + "/data", "HOME": root])
        }

        /// hello.c at `version`, built beside the home.
        func hello(version: String) throws -> String {
            let path = root + "/hello-\(version).so"
            try TestSupport.compileHello(defines: ["-DPLUGIN_VERSION=\"\(version)\""], output: path)
            return path
        }

        func installedVersion() throws -> String? {
            let list = try run(["list", "--json"])
            return try list.json().array?.first { $0["id"]?.string == "org.example.hello" }?["version"]?.string
        }
    }

    @Test("a valid plugin is installed atomically with safe permissions and listed ok")
    func installs() throws {
        let home = try Home()
        let run = try home.run(["install", try home.hello(version: "1.2.0"), "--yes"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("installed org.example.hello 1.2.0"))
        var info = stat()
        #expect(stat(home.installed, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o644)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.plugins) == ["org.example.hello.so"], "no temporary left")
        let list = try home.run(["list"])
        #expect(list.stdout.contains("org.example.hello") && list.stdout.contains(" ok "), "\(list)")
        #expect(try home.installedVersion() == "1.2.0")
    }

    @Test("a file that fails validation is refused and nothing is written")
    func refusesInvalid() throws {
        let home = try Home()
        let bogus = home.root + "/bogus.so"
        try TestSupport.write(Array("not a plugin".utf8), to: bogus)
        let run = try home.run(["install", bogus, "--yes"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("does not pass 'widget-host validate'"), "\(run)")
        #expect(!FileManager.default.fileExists(atPath: home.plugins + "/bogus.so"))
        #expect((try? FileManager.default.contentsOfDirectory(atPath: home.plugins))?.isEmpty ?? true)
    }

    @Test("an upgrade replaces; a downgrade is refused without --force")
    func versions() throws {
        let home = try Home()
        let older = try home.hello(version: "1.9.0"), newer = try home.hello(version: "1.10.0")
        #expect(try home.run(["install", older, "--yes"]).status == 0)
        #expect(try home.run(["install", newer, "--yes"]).status == 0)
        #expect(try home.installedVersion() == "1.10.0")
        let refused = try home.run(["install", older, "--yes"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("1.10.0 is installed, newer than 1.9.0"), "\(refused)")
        #expect(try home.installedVersion() == "1.10.0", "the refused downgrade changed nothing")
        #expect(try home.run(["install", older, "--force", "--yes"]).status == 0)
        #expect(try home.installedVersion() == "1.9.0")
    }

    @Test("uninstall removes the plugin and refuses an id that is not installed")
    func uninstalls() throws {
        let home = try Home()
        #expect(try home.run(["install", try home.hello(version: "1.0.0"), "--yes"]).status == 0)
        let removed = try home.run(["uninstall", "org.example.hello"])
        #expect(removed.status == 0, "\(removed)")
        #expect(!FileManager.default.fileExists(atPath: home.installed))
        let again = try home.run(["uninstall", "org.example.hello"])
        #expect(again.status == 1)
        #expect(again.stderr.contains("no plugin 'org.example.hello' is installed"))
    }

    @Test("versions compare number by number")
    func versionOrder() {
        #expect(InstallCommand.compareVersions("1.10.0", "1.9.3") == 1)
        #expect(InstallCommand.compareVersions("1.0", "1.0.0") == 0)
        #expect(InstallCommand.compareVersions("0.9.9", "1.0.0") == -1)
    }

    @Test("each command has --help")
    func help() throws {
        let home = try Home()
        for command in ["install", "uninstall"] {
            let run = try home.run([command, "--help"])
            #expect(run.status == 0)
            #expect(run.stdout.contains("Usage: widget-host \(command)"))
        }
    }

    @Test("install says what validate warns about (a grant of any host) before it asks, and still installs")
    func warningsBeforeTheQuestion() throws {
        let home = try Home()
        let json = home.root + "/widget.json"
        let manifest: JSONValue = [
            "abi": "1.0", "id": "org.example.hello", "name": "Hello", "version": "1.0.0", "vendor": "Example", "description": "Says hello, in C.",
            "screens": [["id": "main", "title": "Hello", "actions": ["wave", "rename"]], ["id": "about", "title": "About"]],
            "services": ["required": ["widget-host.log/1"], "optional": []],
            "topics": ["publish": [], "subscribe": ["hello.*"]],
            "http": ["hosts": ["*"]],
        ]
        try TestSupport.write(manifest.serializedBytes, to: json)
        let plugin = home.root + "/anyhost.so"
        try TestSupport.compileHello(defines: ["-DMANIFEST_FILE=\"\(json)\""], output: plugin)
        let refused = try home.run(["install", plugin])
        #expect(refused.status == 1 && refused.stderr.contains("warning: grants: http.hosts is \"*\": the plugin may reach any host"), "\(refused)")
        let run = try home.run(["install", plugin, "--yes"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("warning: grants: http.hosts is \"*\""), "\(run)")
        #expect(run.stdout.contains("http hosts: * (ANY HOST)"), "\(run)")
        let plain = try home.run(["install", try home.hello(version: "1.1.0"), "--yes"])
        #expect(plain.status == 0 && !plain.stderr.contains("warning:"), "a plugin with nothing to warn about gets no warning: \(plain)")
    }
}
