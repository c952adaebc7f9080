import Foundation
import Testing
@testable import PluginKit
@testable import WidgetHostKit
@testable import TestSupport

/// A limit is enforced once, in code; where the manual states it, it must
/// state that value. Each row is a page and the words it uses, built from the
/// constant the host enforces, so changing the constant fails here until the
/// page follows (and a page that drifts fails too).
@Suite("Documented limits")
struct DocumentedLimitsTests {
    static func page(_ path: String) throws -> String {
        try String(contentsOfFile: TestSupport.packageRoot + "/" + path, encoding: .utf8)
    }

    /// 1048576 as the docs write it in prose: "1 MiB".
    static func mib(_ bytes: Int) -> String { "\(bytes >> 20) MiB" }

    /// 65536 as "65,536".
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        return String(digits.enumerated().flatMap { index, digit in
            index > 0 && (digits.count - index) % 3 == 0 ? [",", digit] : [digit]
        })
    }

    static let settings = PluginRunSettings()
    static let spelled = [2: "two", 3: "three", 4: "four", 5: "five", 10: "ten"]

    static let statements: [(page: String, words: String)] = [
        ("docs/isolation.md", "writes a render over \(mib(PluginInstance.maxRenderBytes))"),
        ("docs/isolation.md", "the plugin wrote more than \(PluginInstance.maxRenderBytes) bytes"),
        ("docs/view-description.md", "larger than \(mib(ViewDescription.maxBytes)), nests deeper than \(ViewDescription.maxDepth) levels"),
        ("docs/view-description.md", "more than \(grouped(ViewDescription.maxNodes))"),
        ("docs/isolation.md", "at most \(mib(Frame.maxPayloadBytes)) a frame"),
        ("docs/isolation.md", "the limit is \(Frame.maxPayloadBytes)"),
        ("docs/isolation.md", "`RLIMIT_AS` (\(settings.memoryMiB) MiB)"),
        ("docs/isolation.md", "against the \(settings.memoryMiB) MiB limit"),
        ("docs/isolation.md", "`RLIMIT_CPU` (\(settings.cpuSeconds) s over its life)"),
        ("docs/isolation.md", "more than \(settings.maxEventsPerSecond) events a second"),
        ("docs/isolation.md", "more than \(settings.maxServiceCallsPerSecond) of either a second"),
        ("docs/isolation.md", "more than \(settings.maxServiceCallsPerSecond) service calls in a second"),
        ("docs/isolation.md", "rang its doorbell more than \(settings.maxServiceCallsPerSecond) times in a second with nothing to read"),
        ("docs/isolation.md", "timed out in render after \(Int(settings.deadline(.render)))s"),
        ("docs/isolation.md", "publishes a payload over \(mib(Bus.maxPayloadBytes))"),
        ("docs/isolation.md", "the bus's limit of \(Bus.maxPayloadBytes) bytes"),
        ("docs/isolation.md", "(at most \(HTTPClient.maxRedirects))"),
        ("docs/isolation.md", "stops \(spelled[QuarantineStore.crashLimit] ?? "?") times in "
            + "\(spelled[Int(QuarantineStore.windowMilliseconds / 60_000)] ?? "?") minutes"),
        ("docs/services.md", "A payload over \(mib(Bus.maxPayloadBytes)) (`WH_BUS_MAX_PAYLOAD_BYTES`)"),
        ("docs/services.md", "the bus's limit of \(Bus.maxPayloadBytes) bytes"),
        ("docs/services.md", "More than \(settings.maxEventsPerSecond) events a second"),
        ("docs/services.md", "At most \(grouped(PluginContext.mailboxLimit)) events wait in one instance's mailbox"),
        ("docs/services.md", "at most \(Bus.deliveryBudget) events in all"),
        ("docs/services.md", "At most \(grouped(Bus.defaultQueueLimit)) events wait"),
        ("docs/services.md", "\(Bus.defaultQueueLimit) events are waiting for delivery"),
        ("docs/usage.md", "up to \(TerminalRenderer.maximumWidth)\ncolumns"),
        ("docs/usage.md", "Below \(TerminalRenderer.minimumWidth) columns"),
        ("docs/dashboard.md", "Below \(TerminalRenderer.minimumWidth) columns no card fits"),
        ("docs/configuration.md", "waits more than \(ConfigFile.lockWait.formatted1) seconds fails, the file left as it is"),
    ]

    @Test("each limit the manual states is the one the code enforces", arguments: statements.indices)
    func statedLimitIsEnforced(index: Int) throws {
        let (path, words) = Self.statements[index]
        // Line breaks and the indentation of a wrapped list item are one space.
        func flat(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let says = flat(try Self.page(path)).contains(flat(words))
        #expect(says, "\(path) does not say \"\(words)\": the code enforces that figure")
    }

    @Test("the deadline and limit example in configuration.md is every host setting at its default")
    func configurationExampleIsTheDefaults() throws {
        let text = try Self.page("docs/configuration.md")
        let section = try #require(text.components(separatedBy: "## The host's settings").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```json\n").dropFirst().first?.components(separatedBy: "```").first)
        let directory = try TestSupport.makeTemporaryDirectory("documented-config")
        try TestSupport.write(Array(block.utf8), to: directory + "/config.json")
        let config = try HostConfig.load(path: directory + "/config.json", required: true)
        #expect(try PluginRunSettings(config: config) == Self.settings)
        #expect(config.root["host"]?.serialized == PluginRunSettings.defaultsConfig.serialized,
                "configuration.md's example lists other keys, or another order, than the defaults")
    }

    @Test("configuration.md names the commands that read the configuration: those that take --config, and not the validator's")
    func configurationReaders() throws {
        func flat(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let text = flat(try Self.page("docs/configuration.md"))
        let readers = WidgetHostCLI.commands.filter { $0.options.contains { $0.name == Option.config.name } }.map(\.name)
        let listed = try #require(text.components(separatedBy: "at every command that reads the configuration (").dropFirst().first?
            .components(separatedBy: ")").first)
        let named = listed.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        #expect(Set(named) == Set(readers), "configuration.md lists \(named); the commands that take --config: \(readers)")
        // The validator's commands give every call their own timeout, host.deadlines.load included, whatever the file says.
        let validating = ["validate", "info", "install"]
        #expect(readers.allSatisfy { !validating.contains($0) })
        #expect(text.contains("`validate`, `info` and `install` read no configuration"))
        #expect(text.contains("`--timeout` (default \(Int(ValidateCommand.defaultTimeout)) seconds; `install` has no option and takes "
                              + "\(Int(ValidateCommand.defaultTimeout)))"))
    }

    @Test("no page states a render limit other than the enforced one")
    func noStaleRenderLimit() throws {
        let pages = ["README.md", "docs/isolation.md", "docs/view-description.md", "docs/abi.md", "docs/writing-plugins.md"]
        for path in pages {
            let text = try Self.page(path)
            #expect(!text.contains("4194304") && !text.contains("render over 4 MiB"), "\(path) states the old 4 MiB render cap")
        }
    }
}
