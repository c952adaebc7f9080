import Foundation
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// Issue 23, the escapes through `validate` and `install` (3, 4, 5, 9): a
/// plugin that prints passing lines does not pass, the installed bytes are
/// the validated ones, a shipped id is not taken silently, and an unsafe
/// plugin directory is refused before anything is written.
@Suite("Escapes: validate and install")
struct EscapeInstallTests {
    typealias Home = InstallCommandTests.Home

    static func forger(in directory: String) throws -> String {
        let path = directory + "/forger.so"
        try TestSupport.compileC(source: TestSupport.fixtureDirectory + "/escapes.c", flags: ["-DFORGE_VALIDATION"], output: path)
        return path
    }

    @Test("a plugin that prints passing lines and crashes at every render fails validate, and install refuses it")
    func forgedReports() throws {
        let home = try Home()
        let forger = try Self.forger(in: home.root)
        let run = try home.run(["validate", forger, "--json"])
        #expect(run.status == 1, "\(run)")
        let checks = try #require(try run.json()["checks"]?.array, "\(run)")
        let failed = try #require(checks.first { $0["result"]?.string == "fail" }, "no check failed: \(run)")
        #expect(failed["check"]?.string == "render main", "\(run)")
        #expect(failed["detail"]?.string == "the plugin crashed: killed by SIGSEGV", "\(run)")
        #expect(!checks.contains { $0["check"]?.string == "destroy" }, "a forged check was counted: \(run)")
        let install = try home.run(["install", forger, "--yes"])
        #expect(install.status == 1, "\(install)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: home.plugins))?.isEmpty ?? true, "something was installed")
    }

    @Test("a source replaced during validation: the installed file holds the bytes that were validated")
    func sourceSwappedDuringInstall() throws {
        let home = try Home()
        // Each render takes 300 ms, so the staged copy lives long enough to be seen and swapped under.
        let source = home.root + "/hello-slow.so"
        try TestSupport.compileHello(defines: ["-DSLOW_RENDER_MS=300"], output: source)
        let original = try TestSupport.readBytes(source)
        let forger = try Self.forger(in: home.root)
        var install = try SpawnedProcess.start([TestSupport.widgetHost, "install", source, "--yes"],
                                               environment: SpawnedProcess.hostEnvironment(home: home.root))
        // Once the private copy exists, put the hostile file where the source was.
        let staged = IsolationTestKit.eventually(600) {
            ((try? FileManager.default.contentsOfDirectory(atPath: home.plugins)) ?? []).contains { $0.hasPrefix(".install.") }
        }
        #expect(rename(forger, source) == 0)
        #expect(install.wait() == .exited(0))
        #expect(staged, "the install never staged a copy")
        #expect(try TestSupport.readBytes(home.installed) == original, "the installed bytes are not the ones validated")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.plugins) == ["org.example.hello.so"], "no staging left")
    }

    @Test("installing a shipped plugin's id is refused, naming the copy it would shadow; --force installs it")
    func shippedIDNotTaken() throws {
        let home = try Home()
        let impostor = home.root + "/impostor.so"
        try TestSupport.compileHello(defines: ["-DPLUGIN_ID=\"org.widgethost.crypto\"", "-DPLUGIN_VERSION=\"0.0.1\"",
                                               "-DPLUGIN_NAME=\"Crypto\""], output: impostor)
        let refused = try home.run(["install", impostor, "--yes"])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("org.widgethost.crypto is already provided by Crypto"), "\(refused)")
        #expect(refused.stderr.contains("libCryptoPlugin.so"), "\(refused)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: home.plugins))?.isEmpty ?? true)
        let forced = try home.run(["install", impostor, "--force", "--yes"])
        #expect(forced.status == 0, "\(forced)")
        #expect(FileManager.default.fileExists(atPath: home.plugins + "/org.widgethost.crypto.so"))
    }

    @Test("a plugin directory others can write is refused before anything is written, with the fix")
    func unsafeDirectory() throws {
        let home = try Home()
        try FileManager.default.createDirectory(atPath: home.plugins, withIntermediateDirectories: true)
        try TestSupport.setMode(home.plugins, 0o777)
        let run = try home.run(["install", try home.hello(version: "1.0.0"), "--yes"])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("is writable by others (mode 0777)"), "\(run)")
        #expect(run.stderr.contains("fix it with: chmod o-w \(home.plugins)"), "\(run)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.plugins).isEmpty, "something was written")
    }

    @Test("a source file anyone may write is copied into a 0644 file of our own, not refused")
    func worldWritableSource() throws {
        let home = try Home()
        let source = try home.hello(version: "1.0.0")
        try TestSupport.setMode(source, 0o666)
        let run = try home.run(["install", source, "--yes"])
        #expect(run.status == 0, "\(run)")
        var info = stat()
        #expect(stat(home.installed, &info) == 0 && info.st_mode & 0o777 == 0o644)
    }

    @Test("uninstall resolves a short name as every other command does")
    func uninstallByShortName() throws {
        let home = try Home()
        #expect(try home.run(["install", try home.hello(version: "1.0.0"), "--yes"]).status == 0)
        let removed = try home.run(["uninstall", "hello"])
        #expect(removed.status == 0, "\(removed)")
        #expect(!FileManager.default.fileExists(atPath: home.installed))
    }

    @Test("install shows the grants; without a terminal it needs --yes; an upgrade that asks for more says what is new")
    func grantsShownAndConfirmed() throws {
        let home = try Home()
        let hello = try home.hello(version: "1.0.0")
        let unconfirmed = try home.run(["install", hello])
        #expect(unconfirmed.status == 1, "\(unconfirmed)")
        #expect(unconfirmed.stdout.contains("Hello (org.example.hello 1.0.0) is granted:"), "\(unconfirmed)")
        #expect(unconfirmed.stderr.contains("confirm these grants with --yes"), "\(unconfirmed)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: home.plugins))?.isEmpty ?? true, "installed unconfirmed")
        #expect(try home.run(["install", hello, "--yes"]).status == 0)

        let greedy = home.root + "/greedy.so"
        try TestSupport.compileHello(defines: ["-DPLUGIN_VERSION=\"1.1.0\"", "-DSUBSCRIBE_TOPIC=\"store.changed\""], output: greedy)
        let upgrade = try home.run(["install", greedy, "--yes"])
        #expect(upgrade.status == 0, "\(upgrade)")
        #expect(upgrade.stdout.contains("new since 1.0.0:"), "\(upgrade)")
        #expect(upgrade.stdout.contains("subscribes: store.changed"), "\(upgrade)")
    }
}
