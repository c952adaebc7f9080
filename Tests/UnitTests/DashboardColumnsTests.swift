import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// `--columns` and `dashboard.columns` mean the same on the terminal and in
/// the browser: the same numbers are refused, and the served page's grid
/// takes the count as the terminal's does.
@Suite("Dashboard columns, on the terminal and served")
struct DashboardColumnsTests {
    @Test("serve refuses the --columns dashboard refuses, with the same words", arguments: ["0", "-1", "13", "abc", ""])
    func serveChecksColumnsAsDashboardDoes(value: String) throws {
        let dashboard = try InProcessCLI.run(["dashboard", "--columns", value])
        // A bad --bind too: a serve that let the columns through stops there instead of serving.
        let serve = try InProcessCLI.run(["serve", "--columns", value, "--bind", "nowhere"])
        #expect(dashboard.status == ExitStatus.usage)
        #expect(serve.status == ExitStatus.usage)
        let message = "widget-host: --columns takes a number from 1 to 12, not '\(value)'\n"
        #expect(dashboard.err == message + "Try 'widget-host dashboard --help' for more.\n")
        #expect(serve.err == message + "Try 'widget-host serve --help' for more.\n")
    }

    @Test("the configuration's columns are held to the range --columns is")
    func configurationRange() throws {
        for (columns, accepted) in [(0, false), (1, true), (12, true), (13, false)] {
            let config = HostConfig(root: ["dashboard": ["columns": .number(String(columns))]])
            let spec = try? DashboardConfig.spec(config, manifests: [])
            #expect((spec?.columns == columns) == accepted, "\(columns)")
        }
    }

    /// The stylesheet a served dashboard of at most `columns` columns sends.
    static func servedStylesheet(columns: Int?) throws -> String {
        let directory = try UnitFixtures.temporaryDirectory()
        defer { UnitFixtures.remove(directory) }
        let runtime = HostRuntime(storeDirectory: directory, log: HostLog(threshold: .error, sink: { _ in }))
        let dashboard = Dashboard(session: WidgetSession(runtime: runtime, plugins: []), spec: DashboardSpec(cards: [], columns: columns),
                                  cache: nil, clock: HostClock())
        let host = "127.0.0.1:8787", secret = "0123456789abcdef"
        let app = WebApp(dashboard: dashboard, gate: WebGate(secret: secret, host: host), columns: columns)
        let request = HTTPRequest(method: "GET", path: "/app.css", query: nil,
                                  headers: [("host", host), ("cookie", "\(WebGate.cookie)=\(secret)")], body: [])
        guard case let .full(200, _, body) = app.handle(request) else { throw TestSupport.Failure("no stylesheet") }
        return String(decoding: body, as: UTF8.self)
    }

    @Test("the served grid has at most N columns, and a one-column grid lets no card span two")
    func servedGridTakesTheCount() throws {
        let unlimited = try Self.servedStylesheet(columns: nil)
        #expect(unlimited == WebAssets.css)
        let three = try Self.servedStylesheet(columns: 3)
        #expect(three.hasPrefix(unlimited))
        #expect(three.hasSuffix("\n.grid { grid-template-columns: repeat(auto-fill, minmax(max(14rem, (100% - 2rem) / 3), 1fr)); }"))
        let one = try Self.servedStylesheet(columns: 1)
        #expect(one.contains("\n.grid { grid-template-columns: repeat(auto-fill, minmax(max(14rem, (100% - 0rem) / 1), 1fr)); }"))
        #expect(one.hasSuffix("\n.size-medium, .size-large { grid-column: auto; }"))
        #expect(!three.contains("\n.size-medium, .size-large { grid-column: auto; }"))
    }
}
