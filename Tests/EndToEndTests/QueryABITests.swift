import PluginABI
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The optional `query` field of the descriptor, appended within ABI 1.0:
/// a plugin built in C answers `status`, and a descriptor whose struct_size
/// stops at `destroy` (as every 1.0 plugin built before the field) is never
/// asked, even when the bytes after it hold a function.
@Suite("Host-level queries through the C ABI")
struct QueryABITests {
    static func plugin(_ name: String, _ defines: [String] = []) throws -> String {
        let directory = try TestSupport.makeTemporaryDirectory("query-" + name)
        try TestSupport.compileHello(defines: defines, output: directory + "/hello.so")
        return directory
    }

    @Test("a C plugin answers the status query, in process and isolated", arguments: [false, true])
    func cPluginAnswers(_ isolate: Bool) throws {
        let directory = try Self.plugin("answers")
        let run = try TestSupport.runHost(["launch", "org.example.hello", "--status", "--actions", "wave,wave,rename=Ada",
                                           "--plugin-dir", directory] + (isolate ? ["--isolate"] : []))
        #expect(run.status == 0, "\(run)")
        #expect(try JSONParser.parse(run.stdout) == ["name": "Ada", "waves": 2])
    }

    @Test("a 1.0-sized descriptor is read as having no query", arguments: [false, true])
    func oldDescriptorIsNotAsked(_ isolate: Bool) throws {
        // hello.c's descriptor still holds query after destroy, but its
        // struct_size says the plugin was built before the field existed.
        let directory = try Self.plugin("old", ["-DSTRUCT_SIZE=\(WH_DESCRIPTOR_SIZE_1_0)"])
        let run = try TestSupport.runHost(["launch", "org.example.hello", "--status", "--plugin-dir", directory]
                                          + (isolate ? ["--isolate"] : []))
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("answers no status query"), "\(run)")
        let json = try TestSupport.runHost(["launch", "org.example.hello", "--format", "json", "--plugin-dir", directory]
                                           + (isolate ? ["--isolate"] : []))
        #expect(json.status == 0, "\(json)")
        #expect(try JSONParser.parse(json.stdout)["status"] == .null)
    }
}
