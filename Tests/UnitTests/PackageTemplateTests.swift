import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// A Swift plugin's Package.swift and the SDK's are written once, in
/// NewProject (what `widget-host new` writes). The example projects and the
/// guide show them; these tests hold each copy to that one source, so that
/// changing the template without its copies (or a copy alone) fails here.
@Suite("Package.swift templates")
struct PackageTemplateTests {
    static let source = "Sources/WidgetHostKit/CLI/NewProject.swift"

    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: TestSupport.packageRoot + "/" + path, encoding: .utf8)
    }

    @Test("Examples/CounterSwift/Package.swift is what `new` writes for a plugin named Counter")
    func counterExample() throws {
        #expect(try Self.read("Examples/CounterSwift/Package.swift") == NewProject.swiftPackage(module: "Counter"),
                "copy NewProject.swiftPackage(module: \"Counter\") from \(Self.source)")
    }

    @Test("Examples/WidgetHostSDK/Package.swift is the SDK manifest `new` writes")
    func sdkExample() throws {
        #expect(try Self.read("Examples/WidgetHostSDK/Package.swift") == NewProject.sdkPackage, "copy NewProject.sdkPackage from \(Self.source)")
    }

    @Test("the guide shows the Package.swift `new hello` writes")
    func guide() throws {
        let page = try Self.read("docs/writing-plugins.md")
        let blocks = page.components(separatedBy: "```swift\n").dropFirst().compactMap { $0.components(separatedBy: "```\n").first }
        let shown = blocks.first { $0.contains("let package = Package(") }
        #expect(shown == NewProject.swiftPackage(module: "Hello"), "docs/writing-plugins.md: copy NewProject.swiftPackage(module: \"Hello\")")
    }

    @Test("a project's files hold the two templates, the plugin's under its own name")
    func scaffold() throws {
        let project = try NewProject.swift(id: try PluginID("org.example.tally"), module: "Tally", sdk: TestSupport.packageRoot)
        let files = Dictionary(project.files.map { ($0.0, String(decoding: $0.1, as: UTF8.self)) }, uniquingKeysWith: { first, _ in first })
        #expect(files["Package.swift"] == NewProject.swiftPackage(module: "Tally"))
        #expect(files["Package.swift"]?.contains("\"PluginKit\": \"TallyPluginKit\"") == true)
        #expect(files["WidgetHostSDK/Package.swift"] == NewProject.sdkPackage)
    }
}
