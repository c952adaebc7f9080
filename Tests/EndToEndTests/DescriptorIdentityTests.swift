import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// A C descriptor may leave its identity to the manifest (WH_DESCRIPTOR), so
/// a C author writes the id, name, version and screens once (issue 13).
@Suite("Descriptor identity from the manifest")
struct DescriptorIdentityTests {
    @Test("a WH_DESCRIPTOR plugin passes validate and launches in process and isolated, named by its manifest")
    func identityFromManifest() throws {
        let directory = try TestSupport.makeTemporaryDirectory("identity")
        let plugin = directory + "/identity.so"
        try TestSupport.compileC(source: TestSupport.fixtureDirectory + "/identity.c", output: plugin)

        let validated = try TestSupport.runHost(["validate", plugin])
        #expect(validated.termination == .exited(0), "\(validated)")
        #expect(!validated.stdout.contains("FAIL"), "\(validated)")

        let listed = try TestSupport.runHost(["list", "--plugin-dir", directory, "--json"]).json()
        let row = try #require(listed.array?.first { $0["id"]?.string == "org.example.identity" }, "\(listed)")
        #expect(row["status"]?.string == "ok" && row["version"]?.string == "2.1.0")

        for mode in [[], ["--isolate"]] {
            let run = try TestSupport.runHost(["launch", "identity", "--plugin-dir", directory, "--once", "--screen", "more"] + mode)
            #expect(run.termination == .exited(0) && run.stdout.contains("more"), "\(run)")
        }
    }

    @Test("a descriptor that states part of its identity is refused, saying which field is missing")
    func partialIdentity() throws {
        let directory = try TestSupport.makeTemporaryDirectory("identity-partial")
        let plugin = directory + "/identity.so"
        try TestSupport.compileC(source: TestSupport.fixtureDirectory + "/identity.c", flags: ["-DPARTIAL"], output: plugin)

        let validated = try TestSupport.runHost(["validate", plugin])
        #expect(validated.termination == .exited(1), "\(validated)")
        #expect(validated.stdout.contains("id is NULL"), "\(validated)")

        // launch shows the refusal as its error panel.
        let run = try TestSupport.runHost(["launch", "identity", "--plugin-dir", directory, "--once"])
        #expect(run.stdout.contains("invalid descriptor: id is NULL"), "\(run)")
    }
}
