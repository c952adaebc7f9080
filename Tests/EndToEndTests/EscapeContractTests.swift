import Glibc
import PluginABI
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// Issue 23, escapes 2 and 7, through contracts (escapes.c): a consumer that
/// keeps asking a slow provider cannot hold a call past its ceiling, and an
/// answer that is not UTF-8 is refused, not repaired and delivered.
@Suite("Escapes: contract asks")
struct EscapeContractTests {
    /// A directory with escapes.c built as `provider` and `consumer`.
    static func pair(provider: String, consumer: String) throws -> String {
        let directory = try TestSupport.makeTemporaryDirectory("escape-contracts")
        let source = TestSupport.fixtureDirectory + "/escapes.c"
        try TestSupport.compileC(source: source, flags: ["-D\(provider)"], output: directory + "/provider.so")
        try TestSupport.compileC(source: source, flags: ["-D\(consumer)"], output: directory + "/consumer.so")
        return directory
    }

    static func session(_ directory: String, isolated: Bool, log: LogRecorder,
                        settings: (inout PluginRunSettings) -> Void = { _ in }) throws -> WidgetSession {
        let home = try IsolationTestKit.Home()
        let search = SearchPath(directories: [.init(path: directory, origin: "test", explicit: true)])
        let report = Discovery(availableServices: Set(ServiceTable.all.map(\.id))).scan(search)
        #expect(report.plugins.filter { $0.status == .ok }.count == 2, "\(report.plugins.map(\.status))")
        let launcher: WidgetLauncher = isolated ? home.launcher(settings).launcher : launchInProcess
        let session = WidgetSession(runtime: home.runtime(log), plugins: report.plugins, launcher: launcher)
        try session.open(NavigationTarget(plugin: "org.example.asker", screen: "main"))
        return session
    }

    @Test("a render that asks a slow provider forever is stopped at its ceiling, twice its deadline")
    func askForever() throws {
        let log = LogRecorder()
        let session = try Self.session(try Self.pair(provider: "SLOW_PROVIDER", consumer: "ASK_FOREVER"), isolated: true, log: log) {
            $0.deadlines[.render] = 1
        }
        let started = Clock.now
        let rendered = session.render()
        let spent = Clock.now - started
        guard case let .failure(failure)? = rendered?.view else {
            Issue.record("the render did not fail: \(String(describing: rendered)) \(log.recorded)")
            return
        }
        #expect(failure.description.contains("timed out in render after 2s, its ceiling with the time it waited on the host"),
                "\(failure)")
        // Without a ceiling the host never came back; with it, the ceiling and one last ask (0.4 s), on a busy machine.
        #expect(spent < 30, "the host's thread was held \(spent)s")
    }

    @Test("an answer that is not UTF-8 is refused as failed, in process and isolated", arguments: [false, true])
    func invalidUTF8(isolated: Bool) throws {
        let log = LogRecorder()
        let session = try Self.session(try Self.pair(provider: "BAD_UTF8_PROVIDER", consumer: "ASK_ONCE"), isolated: isolated, log: log)
        guard case let .success(view)? = session.render()?.view else {
            Issue.record("no view: \(String(describing: session.render())) \(log.recorded)")
            return
        }
        #expect(view.json["text"]?.string == "status \(WH_CONTRACT_FAILED)", "\(view.json.serialized)")
        #expect(log.recorded.joined(separator: "\n").contains("answered with bytes that are not UTF-8"), "\(log.recorded)")
    }

    @Test("the broker refuses invalid UTF-8 that would be valid JSON once repaired")
    func brokerChecksBytes() throws {
        final class Providers: ContractProviders {
            func provider(of contract: String) -> PluginID? { try? PluginID("org.example.slow") }
            func answer(_ contract: String, from provider: PluginID) -> Result<[UInt8], ContractFailure> {
                .success(Array("{\"price\": \"".utf8) + [0xFF, 0xFE] + Array("\"}".utf8))
            }
        }
        let broker = ContractBroker()
        let providers = Providers()
        broker.attach(providers)
        guard case let .failure(error) = broker.ask("org.example.slow/1", for: try PluginID("org.example.asker")) else {
            Issue.record("the answer was delivered")
            return
        }
        #expect(error.status == Int32(WH_CONTRACT_FAILED))
        #expect(error.reason.contains("not UTF-8"))
    }
}
