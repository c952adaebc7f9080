import Foundation
import PluginABI
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// Swift plugins built outside this package, as a third party builds them:
/// each is its own package that depends on the SDK by `path:` through the
/// `PluginABI` and `PluginKit` products, and aliases `PluginKit` to a module
/// name of its own. Two plugins built against two different versions of the
/// SDK (the second adds a public type and changes a struct's layout, under
/// the same name) load into this one process, and each renders and acts with
/// its own version. Without the aliases both images would define
/// `PluginKit.SDKProbe` with different layouts.
///
/// Each is a `widget-host new` project: its manifest is `widget.json`,
/// embedded by WH_MANIFEST_FILE, without the optional `vendor`.
///
/// Both plugins build once, into one shared scratch directory, so the suite
/// pays for one SDK compile per version.
@Suite("Out-of-tree Swift plugins")
struct OutOfTreeSwiftPluginTests {
    struct Built {
        let alpha: String
        let beta: String
        let scratch: String
    }

    static let built = Result { () throws -> Built in
        let root = try TestSupport.makeTemporaryDirectory("out-of-tree")
        try makeSDK(at: root + "/sdk-v1", probe: """
            public struct SDKProbe {
                public var label: String
                public init() { label = "sdk 1" }
            }
            """)
        try makeSDK(at: root + "/sdk-v2", probe: """
            public enum AddedInVersion2 { case yes }
            public struct SDKProbe {
                public var extra: [Int]
                public var count: Int
                public var label: String
                public init() { extra = [7, 8]; count = 2; label = "sdk \\(count)" }
            }
            """)
        try makePlugin(at: root + "/alpha", name: "Alpha", sdk: "sdk-v1")
        try makePlugin(at: root + "/beta", name: "Beta", sdk: "sdk-v2")
        let scratch = root + "/scratch"
        for plugin in ["alpha", "beta"] { try swiftBuild(package: root + "/" + plugin, scratch: scratch) }
        return Built(alpha: scratch + "/debug/libAlpha.so", beta: scratch + "/debug/libBeta.so", scratch: scratch)
    }

    @Test("two plugins built against two SDK versions load into one process and each acts on its own state")
    func twoVersionsInOneProcess() throws {
        let built = try Self.built.get()
        let runtime = HostRuntime(storeDirectory: try TestSupport.makeTemporaryDirectory("out-of-tree-store"),
                                  log: HostLog(threshold: .warning, sink: { _ in }))
        let alpha = try launchInProcess(try IsolationTestKit.candidate(built.alpha), runtime)
        let beta = try launchInProcess(try IsolationTestKit.candidate(built.beta), runtime)
        #expect(try Self.text(alpha) == "Alpha on sdk 1: 0")
        #expect(try Self.text(beta) == "Beta on sdk 2: 0")
        try alpha.handle(action: "bump", value: nil)
        try alpha.handle(action: "bump", value: nil)
        try beta.handle(action: "bump", value: nil)
        #expect(try Self.text(alpha) == "Alpha on sdk 1: 2")
        #expect(try Self.text(beta) == "Beta on sdk 2: 1")
        // The widget has no guards: the host refuses what the manifest does not declare, before any plugin code runs.
        #expect(DeclaredActions.refusal(of: "nope", for: try #require(try IsolationTestKit.candidate(built.beta).manifest)) != nil)
        // Nor does the host's refresh reach `handle`: it goes to the widget's refresh hook, which it left as is.
        #expect(throws: WidgetCallError.status(WH_UNKNOWN_ACTION.rawValue)) { try alpha.handle(action: WH_ACTION_REFRESH, value: "main") }
        #expect(try Self.text(alpha) == "Alpha on sdk 1: 2")
        #expect(throws: WidgetCallError.status(WH_UNKNOWN_SCREEN.rawValue)) { _ = try alpha.render(screen: "other", params: [:]) }
    }

    @Test("each image holds the SDK under its own module name, never as PluginKit")
    func aliasedModules() throws {
        let built = try Self.built.get()
        for (path, module) in [(built.alpha, "AlphaPluginKit"), (built.beta, "BetaPluginKit")] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(bytes.range(of: Data("\(module.count)\(module)".utf8)) != nil, "\(path) lacks \(module)")
            #expect(bytes.range(of: Data("$s9PluginKit".utf8)) == nil, "\(path) defines the plain PluginKit module")
        }
    }

    /// The one text node of the widget's main screen.
    static func text(_ instance: any WidgetInstance) throws -> String? {
        let node = try ViewDescription.parse(try instance.render(screen: "main", params: [:])).root
        guard case let .text(text, _, _) = node else { return nil }
        return text
    }

    // MARK: Making the packages

    /// A copy of the SDK (PluginABI and PluginKit) with one extra file, as
    /// a package of its own, with the Package.swift `new` writes for it.
    static func makeSDK(at directory: String, probe: String) throws {
        try FileManager.default.createDirectory(atPath: directory + "/Sources", withIntermediateDirectories: true)
        for target in ["PluginABI", "PluginKit"] {
            try run(["/bin/cp", "-RL", TestSupport.packageRoot + "/Sources/" + target, directory + "/Sources/"])
        }
        try write(directory + "/Sources/PluginKit/SDKProbe.swift", probe)
        try write(directory + "/Package.swift", NewProject.sdkPackage)
    }

    /// The project `widget-host new` makes against `sdk`, with a widget that
    /// also shows the SDK's SDKProbe: one screen, one state-changing action.
    static func makePlugin(at directory: String, name: String, sdk: String) throws {
        let made = try TestSupport.runHost(["new", "org.example." + name.lowercased(), "--dir", directory,
                                            "--sdk", (directory as NSString).deletingLastPathComponent + "/" + sdk])
        guard made.status == 0 else { throw TestSupport.Failure("\(made)") }
        try write(directory + "/Sources/\(name)/\(name).swift", """
            import \(name)Manifest
            import PluginABI
            import PluginKit

            @_cdecl("widget_host_entry")
            public func widgetHostEntry() -> UnsafePointer<wh_plugin_descriptor>? {
                exportWidget(manifest: wh_manifest_json()) { _ in Counter() }
            }

            final class Counter: Widget {
                var count = 0

                func render(screen: String, params: JSONValue) throws(WidgetError) -> String {
                    Text("\(name) on \\(SDKProbe().label): \\(count)").screen
                }

                func handle(action: String, value: String?) throws(WidgetError) {
                    count += 1  // no guard: the host refuses undeclared actions
                }
            }

            """)
    }

    static func swiftBuild(package: String, scratch: String) throws {
        try run([try executable("swift"), "build", "--package-path", package, "--scratch-path", scratch], timeout: 900)
    }

    static func write(_ path: String, _ text: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try TestSupport.write(Array(text.utf8), to: path)
    }

    static func run(_ arguments: [String], timeout: Double = 120, environment: [String: String] = [:]) throws {
        let result = try ChildProcess.run(arguments, timeout: timeout,
                                          environment: ProcessInfo.processInfo.environment.merging(environment) { _, new in new })
        guard result.termination == .exited(0) else {
            throw TestSupport.Failure("\(arguments.joined(separator: " ")): \(result.termination)\n"
                + String(decoding: result.standardOutput + result.standardError, as: UTF8.self).suffix(4000))
        }
    }

    /// `name` found on PATH, as an absolute path (ChildProcess does not search).
    static func executable(_ name: String) throws -> String {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        let candidates = directories.map { directory -> String in "\(directory)/\(name)" }
        guard let found = candidates.first(where: { path in access(path, X_OK) == 0 }) else {
            throw TestSupport.Failure("no '\(name)' on PATH")
        }
        return found
    }
}
