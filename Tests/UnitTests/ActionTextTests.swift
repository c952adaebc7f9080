import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// A plugin gets an action's id and value as C text, which ends at the first
/// NUL: text holding one would reach it cut short, so the session refuses it
/// for every front end (a served form, `--actions`, a typed field) before any call.
@Suite("Action text a plugin cannot be given")
struct ActionTextTests {
    /// A widget that records the actions it is given, and renders nothing.
    final class Recorder: WidgetInstance {
        var actions: [(String, String?)] = []
        func render(screen: String, params: JSONValue) throws(WidgetCallError) -> [UInt8] { Array(#"{"root": {"type": "text", "text": "t"}}"#.utf8) }
        func handle(action: String, value: String?) throws(WidgetCallError) { actions.append((action, value)) }
        func query(_ id: String) throws(WidgetCallError) -> [UInt8] { throw .status(0) }
        func pump() -> Int { 0 }
        func onWake(_ handler: @escaping @Sendable () -> Void) {}
    }

    static func session(_ recorder: Recorder) throws -> WidgetSession {
        let manifest = try Manifest(json: try JSONParser.parse(
            #"{"abi": "1.0", "id": "org.example.pay", "name": "Pay", "version": "1.0.0", "screens": [{"id": "main", "actions": ["update"]}]}"#))
        let runtime = HostRuntime(storeDirectory: try TestSupport.makeTemporaryDirectory("action-text"), log: HostLog(threshold: .error, sink: { _ in }))
        let session = WidgetSession(runtime: runtime, plugins: [PluginCandidate(path: "/nowhere/pay.so", manifest: manifest, status: .ok)],
                                    launcher: { _, _ in recorder })
        try session.open(NavigationTarget(plugin: "pay", screen: nil))
        return session
    }

    @Test("a value or id with a NUL is refused, naming why, and the plugin is not called; the same text without it goes through",
          arguments: [("update", "333.00\0garbage", "value"), ("update\0x", nil, "id"), ("widget-host.refresh\0x", "main", "id")])
    func nulRefused(action: String, value: String?, part: String) throws {
        let recorder = Recorder()
        let session = try Self.session(recorder)
        #expect(throws: SessionError.self) { try session.perform(.action(action, value: value)) }
        do { _ = try session.perform(.action(action, value: value)) } catch {
            #expect(error.description.contains("its \(part) holds a NUL byte, which a plugin cannot be given"), "\(error)")
        }
        #expect(recorder.actions.isEmpty)
        try session.perform(.action("update", value: "333.00"))
        #expect(recorder.actions.map(\.1) == ["333.00"])
    }

    @Test("serve answers a form whose value holds %00 with 422 and why, and the plugin is not called")
    func servedFormRefused() throws {
        let recorder = Recorder()
        let session = try Self.session(recorder)
        let dashboard = Dashboard(session: session, spec: DashboardSpec(cards: []), cache: nil, clock: HostClock())
        let host = "127.0.0.1:8787", secret = "0123456789abcdef"
        let app = WebApp(dashboard: dashboard, gate: WebGate(secret: secret, host: host))
        func post(_ value: String) -> HTTPResponse {
            app.handle(HTTPRequest(method: "POST", path: "/w/pay/main", query: nil,
                                   headers: [("host", host), ("cookie", "\(WebGate.cookie)=\(secret)")],
                                   body: Array("\(WebGate.parameter)=\(secret)&action=update&value=\(value)".utf8)))
        }
        guard case let .full(status, _, body) = post("333.00%00garbage") else { throw TestSupport.Failure("no answer") }
        #expect(status == 422 && String(decoding: body, as: UTF8.self).contains("NUL byte"), "\(status)")
        #expect(recorder.actions.isEmpty)
        guard case .full(303, _, _) = post("333.00") else { throw TestSupport.Failure("the good form was not performed") }
        #expect(recorder.actions.map(\.1) == ["333.00"])
    }
}
