import Foundation
import Testing
@testable import TestSupport

/// UnitTests is what a contributor runs in seconds, so nothing in it may
/// start a process: each file is held to the markers tools/test-kind.sh uses
/// to send a file to EndToEndTests (read from the script, so the rule is
/// stated once). docs/testing.md says where a new test goes.
@Suite("Test placement")
struct TestPlacementTests {
    static func markers() throws -> NSRegularExpression {
        let script = try String(contentsOfFile: TestSupport.packageRoot + "/tools/test-kind.sh", encoding: .utf8)
        let line = try #require(script.split(separator: "\n").first { $0.hasPrefix("markers='") }, "tools/test-kind.sh states no markers")
        return try NSRegularExpression(pattern: String(line.dropFirst("markers='".count).dropLast()))
    }

    static func matches(_ pattern: NSRegularExpression, _ text: String) -> [String] {
        pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { Range($0.range, in: text).map { String(text[$0]) } }
    }

    @Test("no file in Tests/UnitTests uses what starts a process")
    func unitTestsStartNothing() throws {
        let pattern = try Self.markers()
        let directory = TestSupport.packageRoot + "/Tests/UnitTests"
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".swift") }
        #expect(files.count >= 30, "found only \(files)")
        for file in files {
            let found = Self.matches(pattern, try String(contentsOfFile: directory + "/" + file, encoding: .utf8))
            #expect(found.isEmpty, "\(file) uses \(Set(found).sorted()): it belongs in Tests/EndToEndTests (tools/test-kind.sh)")
        }
    }

    @Test("the markers catch each way a test starts a process, and pass a test that runs in process")
    func markersCatch() throws {
        let pattern = try Self.markers()
        // Each call split in two, so that this file does not match itself.
        for line in ["try TestSupport.run" + "Host([])", "try Tm" + "ux()", "try TestSupport.compile" + "C(source: s, output: o)",
                     "try ChildProcess.r" + "un([])", "try IsolationTest" + "Kit.Home()"] {
            #expect(!Self.matches(pattern, line).isEmpty, "not caught: \(line)")
        }
        #expect(Self.matches(pattern, "let outcome = try InProcessCLI.run([\"--version\"])").isEmpty)
    }
}
