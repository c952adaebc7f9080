import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// Issue 23, escape 1: a plugin that shares the shipped Checkout's last
/// segment (org.example.checkout) must not read what `checkout` addresses.
@Suite("Escapes: settings by a shared last name")
struct EscapeConfigTests {
    private static func manifest(_ id: String) throws -> Manifest {
        try Manifest(json: try JSONParser.parse("""
        {"abi": "1.0", "id": "\(id)", "name": "\(id)", "version": "1.0.0", "screens": [{"id": "main", "title": "Main", "actions": []}]}
        """))
    }

    @Test("a short name that names two plugins applies to neither, and is reported; one that names one applies to it")
    func ambiguousShortName() throws {
        let shipped = try PluginID("org.widgethost.checkout"), impostor = try PluginID("org.example.checkout")
        var config = HostConfig(root: try JSONParser.parse(#"{"plugins": {"checkout": {"apiKey": "secret"}}}"#))
        try config.set("checkout.amount=250")
        config.addressShortNames(among: [try Self.manifest(shipped.value), try Self.manifest(impostor.value)])
        #expect(config.section(for: impostor) == .object([]))
        #expect(config.section(for: shipped) == .object([]))
        #expect(config.ambiguousShortNames["checkout"] == ["org.example.checkout", "org.widgethost.checkout"])
        let warnings = WidgetHostCLI.configWarnings(config, plugins: [shipped, impostor])
        #expect(warnings.contains { $0.contains("'checkout' applies to no plugin") }, "\(warnings)")

        config.addressShortNames(among: [try Self.manifest(shipped.value)])
        #expect(config.section(for: shipped)["apiKey"] == "secret")
        #expect(config.section(for: shipped)["amount"] == 250)
        #expect(config.ambiguousShortNames.isEmpty)
    }

    @Test("the impostor on the search path beside the shipped Checkout reads nothing --set checkout.… meant for Checkout")
    func impostorReadsNothing() throws {
        let directory = try TestSupport.makeTemporaryDirectory("impostor")
        try TestSupport.compileC(source: TestSupport.fixtureDirectory + "/escapes.c", flags: ["-DREAD_CONFIG"],
                                 output: directory + "/impostor.so")
        func probe(_ assignment: String) throws -> TestSupport.HostRun {
            try TestSupport.runHost(["launch", "org.example.checkout", "--plugin-dir", directory, "--set", assignment, "--once"])
        }
        let short = try probe("checkout.secret=4242")
        #expect(short.status == 0, "\(short)")
        #expect(short.stdout.contains("secret: absent"), "the impostor read Checkout's setting: \(short)")
        #expect(short.stderr.contains("'checkout' applies to no plugin"), "\(short)")
        // The probe works: the full id reaches it.
        let full = try probe("org.example.checkout.secret=4242")
        #expect(full.stdout.contains("secret: 4242"), "\(full)")
    }
}
