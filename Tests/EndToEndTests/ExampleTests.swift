import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The examples in Examples/, as a third party writes them from the docs:
/// each builds outside the root package (its products in a temporary
/// directory, never in the source tree), validates, and counts; and each
/// stays as small as it claims, its manifest included.
@Suite("Examples")
struct ExampleTests {
    static let examples = TestSupport.packageRoot + "/Examples"

    /// Every line of the files a person writes for the widget: its manifest and its code.
    static func lines(_ paths: [String]) throws -> Int {
        try paths.reduce(0) { total, path in
            total + (try String(contentsOfFile: examples + "/" + path, encoding: .utf8)).split(separator: "\n", omittingEmptySubsequences: false).count - 1
        }
    }

    @Test("the counter is at most 25 lines in Swift and 35 in C, each with its manifest")
    func sizes() throws {
        #expect(try Self.lines(["CounterSwift/widget.json", "CounterSwift/Sources/CounterManifest/manifest.c",
                                "CounterSwift/Sources/CounterManifest/include/CounterManifest.h",
                                "CounterSwift/Sources/Counter/Counter.swift"]) <= 25)
        #expect(try Self.lines(["CounterC/widget.json", "CounterC/counter.c"]) <= 35)
    }

    @Test("both counters build out of tree, validate, and count up and down")
    func counters() throws {
        let products = try TestSupport.makeTemporaryDirectory("examples")
        let scratch = products + "/swift-build"
        try OutOfTreeSwiftPluginTests.swiftBuild(package: Self.examples + "/CounterSwift", scratch: scratch)
        try FileManager.default.copyItem(atPath: scratch + "/debug/libCounter.so", toPath: products + "/counter-swift.so")
        // The C example as its Makefile builds it, under -Werror, into the temporary directory.
        try OutOfTreeSwiftPluginTests.run(["/bin/sh", "-c", "cd \"$1\" && cc -shared -fPIC -Wall -Wextra -Werror -I \"$2\" counter.c -o \"$3\"",
                                           "sh", Self.examples + "/CounterC", TestSupport.includeDirectory, products + "/counter-c.so"])
        for (file, id) in [("counter-swift.so", "org.example.counter-swift"), ("counter-c.so", "org.example.counter-c")] {
            let validated = try TestSupport.runHost(["validate", products + "/" + file])
            #expect(validated.status == 0, "\(validated)")
            let shown = try TestSupport.runHost(["launch", id, "--plugin-dir", products, "--actions", "up,up,down,up,up", "--once", "--format", "json"])
            #expect(shown.status == 0, "\(shown)")
            #expect(shown.stdout.contains("\"text\":\"3\""), "\(id): \(shown)")
        }
    }
}
