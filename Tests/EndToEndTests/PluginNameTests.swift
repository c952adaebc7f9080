import Foundation
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// One rule for naming a plugin, everywhere: full id, last part of the id,
/// or display name, in any case; "did you mean" when nothing matches.
@Suite("Plugin names")
struct PluginNameTests {
    static func manifest(_ id: String, _ name: String) throws -> Manifest {
        try Manifest(bytes: Array("""
        {"id": "\(id)", "name": "\(name)", "version": "1.0.0", "vendor": "T", "description": "d", "abi": "1.0",
         "screens": [{"id": "main", "title": "Main"}]}
        """.utf8))
    }

    @Test("a full id, a short name or a display name, in any case, resolve to the one plugin")
    func resolves() throws {
        let manifests = [try Self.manifest("org.widgethost.trips", "My Trips"), try Self.manifest("org.widgethost.crypto", "Crypto")]
        for name in ["org.widgethost.trips", "trips", "TRIPS", "My Trips", "my trips", "Org.WidgetHost.Trips"] {
            #expect(PluginNames.resolve(name, among: manifests) == .found(try PluginID("org.widgethost.trips")), "\(name)")
        }
        #expect(PluginNames.resolve("trip", among: manifests) == .unknown)
        #expect(PluginNames.failure("My Trip", .unknown, among: manifests) == "no plugin named 'My Trip'. Did you mean: My Trips?")
        #expect(PluginNames.failure("zzzzzzzzzz", .unknown, among: manifests)
            == "no plugin named 'zzzzzzzzzz'. Plugins found: org.widgethost.crypto, org.widgethost.trips")
        #expect(PluginNames.failure("x", .unknown, among: []) == "no plugin named 'x'; no plugins were found")
    }

    @Test("a name two plugins answer to is ambiguous, whether short name or display name")
    func ambiguous() throws {
        let manifests = [try Self.manifest("org.a.same", "Shared"), try Self.manifest("org.b.same", "Other"),
                         try Self.manifest("org.c.other", "Shared")]
        let short = PluginNames.resolve("same", among: manifests)
        #expect(short == .ambiguous(["org.a.same", "org.b.same"]))
        #expect(PluginNames.failure("same", short, among: manifests).contains("is ambiguous: it could be org.a.same or org.b.same"))
        #expect(PluginNames.resolve("shared", among: manifests) == .ambiguous(["org.a.same", "org.c.other"]))
        // The full id always settles it.
        #expect(PluginNames.resolve("org.b.same", among: manifests) == .found(try PluginID("org.b.same")))
    }

    static let products = ["--plugin-dir", TestSupport.productsDirectory]

    @Test("info accepts a display name")
    func infoByDisplayName() throws {
        let run = try TestSupport.runHost(["info", "My Trips", "--json"] + Self.products)
        #expect(run.status == 0, "\(run)")
        #expect(try run.json()["id"] == .string("org.widgethost.trips"), "\(run)")
    }

    @Test("validate accepts a name as well as a path, and suggests one for a wrong name")
    func validateByName() throws {
        let byName = try TestSupport.runHost(["validate", "crypto", "--json"] + Self.products)
        #expect(byName.status == 0, "\(byName)")
        #expect(try byName.json()["path"] == .string(TestSupport.productsDirectory + "/libCryptoPlugin.so"), "\(byName)")
        #expect(try byName.json()["passed"] == .bool(true), "\(byName)")
        let wrong = try TestSupport.runHost(["validate", "crypot"] + Self.products)
        #expect(wrong.status == 1, "\(wrong)")
        #expect(wrong.stderr.contains("no plugin named 'crypot'. Did you mean: crypto"), "\(wrong)")
    }

    @Test("timeline gives 'did you mean' for a wrong name, and takes a display name")
    func timelineNames() throws {
        let wrong = try TestSupport.runHost(["timeline", "trip", "--now", "2026-06-10T09:00:00Z"] + Self.products)
        #expect(wrong.status == 1, "\(wrong)")
        #expect(wrong.stdout.isEmpty, "\(wrong)")
        #expect(wrong.stderr.contains("no plugin named 'trip'. Did you mean: trips"), "\(wrong)")
        let display = try TestSupport.runHost(["timeline", "My Trips", "--now", "2026-06-10T09:00:00Z", "--json"] + Self.products)
        #expect(display.status == 0, "\(display)")
        #expect(try display.json()["plugin"] == .string("org.widgethost.trips"), "\(display)")
    }

    @Test("launch takes a display name in any case")
    func launchByDisplayName() throws {
        let run = try TestSupport.runHost(["launch", "my trips", "--once", "--format", "json", "--now", "2026-06-10T09:00:00Z"] + Self.products)
        #expect(run.status == 0, "\(run)")
        #expect(try run.json()["plugin"] == .string("org.widgethost.trips"), "\(run)")
    }
}

@Suite("Every command the configuration affects reports a broken one")
struct BrokenConfigurationTests {
    /// A config home whose config.json holds `text`.
    static func configHome(_ text: String) throws -> String {
        let home = try TestSupport.makeTemporaryDirectory("config")
        try TestSupport.makeDirectory(home + "/widget-host")
        try TestSupport.write(Array(text.utf8), to: home + "/widget-host/config.json")
        return home
    }

    @Test("list reports a malformed default configuration file, still lists, and exits 1")
    func listReportsBrokenFile() throws {
        let home = try Self.configHome("{\"plugins\": {oops}}")
        let run = try TestSupport.runHost(["list", "--plugin-dir", TestSupport.productsDirectory], environment: ["XDG_CONFIG_HOME": home])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("configuration \(home)/widget-host/config.json"), "\(run)")
        #expect(run.stdout.contains("org.widgethost.trips"), "the list is still printed: \(run)")
    }

    @Test("list reports a missing --config file and a bad --set")
    func listReportsBadOptions() throws {
        let missing = try TestSupport.runHost(["list", "--config", "/nonexistent/widget-host.json"])
        #expect(missing.status == 1, "\(missing)")
        #expect(missing.stderr.contains("/nonexistent/widget-host.json"), "\(missing)")
        let badSet = try TestSupport.runHost(["list", "--set", "novalue"])
        #expect(badSet.status == 1, "\(badSet)")
        #expect(!badSet.stderr.isEmpty, "\(badSet)")
    }

    @Test("list warns about configuration names that match no plugin, as launch does")
    func listWarnsAboutNames() throws {
        let home = try Self.configHome(#"{"plugins": {"crytpo": {}}}"#)
        let run = try TestSupport.runHost(["list", "--set", "trip.x=1", "--plugin-dir", TestSupport.productsDirectory],
                                          environment: ["XDG_CONFIG_HOME": home])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("section for 'crytpo', which is no plugin found (did you mean 'crypto'?)"), "\(run)")
        #expect(run.stderr.contains("--set names 'trip', which is no plugin found (did you mean 'trips'?)"), "\(run)")
    }

    @Test("a good configuration gives list no word and exit 0")
    func listWithGoodConfiguration() throws {
        let home = try Self.configHome(#"{"plugins": {"crypto": {"refreshSeconds": 60}}}"#)
        let run = try TestSupport.runHost(["list", "--plugin-dir", TestSupport.productsDirectory], environment: ["XDG_CONFIG_HOME": home])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.isEmpty, "\(run)")
    }

    @Test("timeline and the home screen report a broken configuration", arguments: [["timeline", "trips"], []])
    func othersReportBrokenFile(_ arguments: [String]) throws {
        let home = try Self.configHome("[1,")
        let run = try TestSupport.runHost(arguments + ["--plugin-dir", TestSupport.productsDirectory], environment: ["XDG_CONFIG_HOME": home])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("configuration \(home)/widget-host/config.json"), "\(run)")
    }
}

@Suite("A refused copy replaced by a later one is said")
struct ReplacedCopyTests {
    /// A directory holding hello.so, refused as writable by others.
    static func refusedCopy(_ label: String) throws -> String {
        let directory = try TestSupport.makeTemporaryDirectory(label)
        try TestSupport.compileHello(output: directory + "/hello.so")
        try TestSupport.setMode(directory + "/hello.so", 0o666)
        return directory
    }

    @Test("a --plugin-dir copy refused as unsafe, with another copy of its id later on the path: list and a warning say so")
    func refusedCopyReplaced() throws {
        let first = try Self.refusedCopy("refused")
        let second = try TestSupport.makeTemporaryDirectory("used")
        try TestSupport.compileHello(output: second + "/hello.so")

        let run = try TestSupport.runHost(["list", "--json", "--plugin-dir", first, "--plugin-dir", second])
        #expect(run.status == 0, "\(run)")
        guard case let .array(entries) = try run.json() else { throw TestSupport.Failure("not an array: \(run)") }
        let refused = try #require(entries.first { $0["path"] == .string(first + "/hello.so") })
        #expect(refused["status"] == .string("rejected"))
        let reason = try #require(refused["reason"]?.string)
        #expect(reason.contains("writable by others"), "\(reason)")
        #expect(reason.contains("\(second)/hello.so, which has the same id, is used instead"), "\(reason)")
        let used = try #require(entries.first { $0["path"] == .string(second + "/hello.so") })
        #expect(used["status"] == .string("ok"))
        #expect(run.stderr.contains("warning: \(first)/hello.so (org.example.hello) was refused"), "\(run)")
        #expect(run.stderr.contains("\(second)/hello.so, another copy of the same id, is used instead"), "\(run)")

        // Text form says it too.
        let text = try TestSupport.runHost(["list", "--plugin-dir", first, "--plugin-dir", second])
        #expect(text.stdout.contains("is used instead"), "\(text)")

        // So do the other commands that search, and they take the copy that is used.
        let info = try TestSupport.runHost(["info", "hello", "--json", "--plugin-dir", first, "--plugin-dir", second])
        #expect(info.status == 0, "\(info)")
        #expect(try info.json()["path"] == .string(second + "/hello.so"), "\(info)")
        #expect(info.stderr.contains("another copy of the same id, is used instead"), "\(info)")
        let launch = try TestSupport.runHost(["launch", "hello", "--once", "--plugin-dir", first, "--plugin-dir", second])
        #expect(launch.status == 0, "\(launch)")
        #expect(launch.stderr.contains("another copy of the same id, is used instead"), "\(launch)")
    }

    @Test("a refused copy with no other copy of its id gives no such note")
    func refusedAlone() throws {
        let directory = try Self.refusedCopy("alone")
        let run = try TestSupport.runHost(["list", "--plugin-dir", directory])
        #expect(run.status == 0, "\(run)")
        #expect(!run.stdout.contains("used instead") && !run.stderr.contains("used instead"), "\(run)")
        #expect(run.stdout.contains("writable by others"), "\(run)")
    }

    @Test("launch of a name whose only copy was refused says why, not 'no plugin named'")
    func launchRefused() throws {
        let directory = try Self.refusedCopy("refusedlaunch")
        let run = try TestSupport.runHost(["launch", "hello", "--once", "--plugin-dir", directory])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("org.example.hello cannot be used: \(directory)/hello.so is rejected"), "\(run)")
        #expect(run.stderr.contains("writable by others"), "\(run)")
    }
}
