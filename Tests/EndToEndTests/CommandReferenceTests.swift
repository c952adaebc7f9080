import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// docs/commands.md and the help topics are made from the code; these tests
/// hold the checked-in reference to the declarations, and the topics' facts
/// (paths, variables, the example configuration) to what the host does.
@Suite("Command reference and help topics")
struct CommandReferenceTests {
    static let regenerate = "run: swift build && .build/debug/widget-host help --markdown > docs/commands.md"

    @Test("docs/commands.md is what help --markdown prints today")
    func referenceIsCurrent() throws {
        let checkedIn = try String(contentsOfFile: TestSupport.packageRoot + "/docs/commands.md", encoding: .utf8)
        let printed = try InProcessCLI.run(["help", "--markdown"])
        #expect(printed.status == 0)
        #expect(printed.out == MarkdownReference.page(commands: WidgetHostCLI.commands, homeOptions: LaunchCommand.homeOptions,
                                                      topics: HelpPages.topics))
        #expect(checkedIn == printed.out, "docs/commands.md is stale; \(Self.regenerate)")
    }

    @Test("the reference has a section for every command and topic, and every option each command parses")
    func referenceIsComplete() {
        let page = MarkdownReference.page(commands: WidgetHostCLI.commands, homeOptions: LaunchCommand.homeOptions, topics: HelpPages.topics)
        for command in WidgetHostCLI.commands {
            let section = page.components(separatedBy: "\n## \(command.name)\n").dropFirst().first?.components(separatedBy: "\n## ").first
            #expect(section != nil, "no section for \(command.name)")
            for option in CommandDeclarationTests.parsed(command) {
                #expect(section?.contains("| `\(option)") == true, "\(command.name)'s section lacks \(option)")
            }
        }
        for topic in HelpPages.topics { #expect(page.contains("\n### \(topic.name)\n")) }
    }

    @Test("help config's example is every host setting at its default, and draws no warning when used")
    func configExampleIsReal() throws {
        let topic = try #require(HelpPages.page("config", commands: WidgetHostCLI.commands))
        let example = try #require(topic.components(separatedBy: "\n\n").first { $0.hasPrefix("  {\"host\"") })
        let directory = try TestSupport.makeTemporaryDirectory("config-example")
        try TestSupport.write(Array(example.utf8), to: directory + "/config.json")
        let config = try HostConfig.load(path: directory + "/config.json", required: true)
        #expect(try PluginRunSettings(config: config) == PluginRunSettings())
        #expect(PluginRunSettings.defaultsConfig.serialized == config.root["host"]?.serialized)

        let run = try TestSupport.runHost(["launch", "checkout", "--once", "--config", directory + "/config.json"],
                                          environment: ["WIDGET_HOST_LOG": "info"])
        #expect(run.status == 0, "\(run)")
        #expect(!run.stderr.contains("warning"), "\(run)")
        #expect(!run.stdout.contains("noConfiguration"), "\(run)")
    }

    @Test("help environment names each variable the host reads, and the store directory store put writes to")
    func environmentTopicIsReal() throws {
        let topic = try #require(HelpPages.page("environment", commands: WidgetHostCLI.commands))
        // Internal: set by the host for its own children, or the ordinary ones every program reads.
        let notForUsers: Set = ["HOME", "PATH", "TERM", "WIDGET_HOST_DATA_DIR", "LANG", "LANGUAGE", "TZ"]
        var read: Set<String> = []
        let root = TestSupport.packageRoot + "/Sources/WidgetHostKit"
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let text = try String(contentsOfFile: root + "/" + path, encoding: .utf8)
            for pattern in [#"environment\["([A-Z_]+)"\]"#, #"getenv\("([A-Z_]+)"\)"#] {
                for match in text.matches(of: try Regex(pattern)) {
                    if let name = match.output[1].substring { read.insert(String(name)) }
                }
            }
        }
        #expect(read.count >= 8, "found only \(read.sorted())")
        for name in read.subtracting(notForUsers) { #expect(topic.contains(name), "help environment does not name \(name)") }

        let shared = HelpPages.relative("XDG_DATA_HOME", SharedStore.defaultDirectory)
        #expect(topic.contains(shared))
        let home = try TestSupport.makeTemporaryDirectory("environment-topic")
        try TestSupport.write(Array("{}".utf8), to: home + "/value.json")
        let put = try TestSupport.runHost(["store", "put", "topic.check", "--file", home + "/value.json"], environment: ["XDG_DATA_HOME": home])
        #expect(put.status == 0, "\(put)")
        #expect(FileManager.default.fileExists(atPath: home + "/" + shared + "/topic.check"), "\(put)")
    }
}
