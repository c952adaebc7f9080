import Testing
@testable import WidgetHostKit

/// `widget-host` run inside the test process: its status and what it wrote.
enum InProcessCLI {
    struct Outcome {
        let status: Int32
        let out: String
        let err: String
    }

    /// Runs the CLI against an empty temporary home, so nothing outside it is searched.
    static func run(_ arguments: [String], extraEnvironment: [String: String] = [:]) throws -> Outcome {
        let home = try UnitFixtures.temporaryDirectory()
        defer { UnitFixtures.remove(home) }
        let capture = UnitFixtures.CapturedConsole()
        let cli = WidgetHostCLI(environment: ["HOME": home, "XDG_DATA_HOME": home].merging(extraEnvironment) { $1 },
                                console: capture.console, executableDirectory: nil)
        let status = cli.run(arguments)
        return Outcome(status: status, out: capture.out, err: capture.err)
    }
}
