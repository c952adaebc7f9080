import Foundation
import Testing
@testable import WidgetHostKit

/// `widget-host new`, followed as a stranger would: scaffold a C and a Swift
/// plugin outside the repository, build each with the commands `new`
/// printed, install them, see them `ok` in `list`, validate them, and launch
/// each with its action, in process and with --isolate. `new` refuses a bad
/// id and a non-empty directory.
@Suite("widget-host new")
struct NewCommandTests {
    struct Home {
        let root: String
        var environment: [String: String] { ["XDG_DATA_HOME": root + "/data", "HOME": root] }

        init() throws { root = try TestSupport.makeTemporaryDirectory("new-home") }

        func run(_ arguments: [String]) throws -> TestSupport.HostRun {
            try TestSupport.runHost(arguments, environment: environment, timeout: 120)
        }

        func new(_ arguments: [String]) throws -> TestSupport.HostRun {
            try run(["new"] + arguments + ["--sdk", TestSupport.packageRoot])
        }
    }

    static func run(_ arguments: [String], timeout: Double = 900) throws {
        try OutOfTreeSwiftPluginTests.run([try OutOfTreeSwiftPluginTests.executable(arguments[0])] + arguments.dropFirst(),
                                          timeout: timeout)
    }

    @Test("a C and a Swift plugin: scaffold, build, install, list, validate, launch in process and isolated")
    func endToEnd() throws {
        let home = try Home()
        let c = home.root + "/counter", swift = home.root + "/clicker"
        let madeC = try home.new(["counter", "--c", "--dir", c])
        #expect(madeC.status == 0, "\(madeC)")
        #expect(madeC.stdout.contains("make check") && madeC.stdout.contains("launch counter"))
        try Self.run(["make", "-C", c, "check"])
        let madeSwift = try home.new(["clicker", "--dir", swift])
        #expect(madeSwift.status == 0, "\(madeSwift)")
        #expect(madeSwift.stdout.contains("swift build") && madeSwift.stdout.contains("launch clicker"))
        try Self.run(["swift", "build", "--package-path", swift])
        for plugin in [c + "/counter.so", swift + "/.build/debug/libClicker.so"] {
            let installed = try home.run(["install", plugin])
            #expect(installed.status == 0, "\(installed)")
        }
        let list = try home.run(["list", "--json"]).json()
        for id in ["org.example.counter", "org.example.clicker"] {
            let row = list.array?.first { $0["id"]?.string == id }
            #expect(row?["status"]?.string == "ok", "\(id) in \(list)")
            #expect(try home.run(["validate", home.root + "/data/widget-host/plugins/\(id).so"]).status == 0)
            for isolation in [[], ["--isolate"]] {
                let shown = try home.run(["launch", id, "--actions", "bump", "--once", "--format", "json"] + isolation)
                #expect(shown.status == 0, "\(shown)")
                #expect(shown.stdout.contains("Pressed 1 times"), "\(id) \(isolation): \(shown)")
            }
        }
    }

    @Test("a bad id, a module name that is not a word, and a non-empty directory are refused")
    func refusals() throws {
        let home = try Home()
        let bad = try home.new(["Bad Name", "--dir", home.root + "/bad"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("illegal character"), "\(bad)")
        #expect(!FileManager.default.fileExists(atPath: home.root + "/bad"))
        let digit = try home.new(["org.example.9lives", "--dir", home.root + "/nine"])
        #expect(digit.status == 2)
        let full = home.root + "/full"
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        try TestSupport.write(Array("keep".utf8), to: full + "/notes.txt")
        let refused = try home.new(["hello", "--dir", full])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("exists and is not empty"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: full) == ["notes.txt"])
        #expect(try home.run(["new", "--help"]).stdout.contains("Usage: widget-host new"))
    }
}
