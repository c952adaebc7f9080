import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// Each option is declared once; usage, --help, help pages, the man page and
/// the shell completions are derived from it. These tests hold every
/// derived form to what the parser really accepts.
@Suite("One declaration per option")
struct CommandDeclarationTests {
    /// Every option word the parser of `command` accepts.
    static func parsed(_ command: Command) -> [String] {
        (command.spec.flags.union(command.spec.options)).sorted()
    }

    static let scripts = CompletionScripts(commands: WidgetHostCLI.commands, homeOptions: LaunchCommand.homeOptions)

    /// Runs `shell` with `arguments`, the completion script written to a file first.
    static func shell(_ arguments: [String], script: String, environment: [String: String] = [:]) throws -> ChildProcess.Result {
        let directory = try UnitFixtures.temporaryDirectory()
        defer { UnitFixtures.remove(directory) }
        let path = directory + "/completion"
        try TestSupport.write(Array(script.utf8), to: path)
        var variables = ["PATH": TestSupport.productsDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                         "HOME": directory]
        variables.merge(environment) { $1 }
        return try ChildProcess.run(arguments.map { $0 == "SCRIPT" ? path : $0 }, timeout: 60, environment: variables)
    }

    /// What bash completes for `words` (the last one the word being typed).
    static func bashCompletes(_ words: [String], environment: [String: String] = [:]) throws -> [String] {
        let quoted = (["widget-host"] + words).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let program = """
        source SCRIPT_PATH
        COMP_WORDS=(\(quoted.joined(separator: " "))); COMP_CWORD=\(words.count)
        _widget_host; printf '%s\\n' "${COMPREPLY[@]}"
        """
        let result = try shell(["/bin/bash", "-c", program.replacingOccurrences(of: "SCRIPT_PATH", with: "\"$0\""), "SCRIPT"],
                               script: scripts.bash, environment: environment)
        #expect(result.termination == .exited(0), "\(String(decoding: result.standardError, as: UTF8.self))")
        return String(decoding: result.standardOutput, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test("every option a command parses is in its usage line and its --help", arguments: WidgetHostCLI.commands.map(\.name))
    func helpShowsEveryParsedOption(name: String) throws {
        let command = try #require(WidgetHostCLI.commands.first { $0.name == name })
        let outcome = try InProcessCLI.run([name, "--help"])
        #expect(outcome.status == 0)
        #expect(outcome.out == command.helpText)
        let usage = try #require(outcome.out.split(separator: "\n").first { $0.hasPrefix("Usage: ") })
        for option in Self.parsed(command) {
            #expect(usage.contains("[\(option)"), "\(name)'s usage line lacks \(option)")
            #expect(outcome.out.contains("\n  \(option)"), "\(name) --help does not explain \(option)")
        }
        for operand in command.operands { #expect(usage.contains(operand.name)) }
    }

    @Test("launch's usage names what it lacked: --wait, --trace-events, --isolate, --allow-insecure and LINK")
    func launchUsageIsComplete() throws {
        let usage = LaunchCommand.command.usage
        for word in ["--wait SECONDS", "--trace-events", "--isolate", "--allow-insecure", "LINK", "--status", "--plugin-dir DIR]..."] {
            #expect(usage.contains(word), "\(word)")
        }
    }

    @Test("bash completes exactly the options each command parses", arguments: WidgetHostCLI.commands.map(\.name))
    func bashCompletesEveryParsedOption(name: String) throws {
        let command = try #require(WidgetHostCLI.commands.first { $0.name == name })
        let offered = try Self.bashCompletes([name, "--"])
        #expect(offered.sorted() == (Self.parsed(command) + ["--help"]).sorted())
    }

    @Test("bash completes commands, option values, operand choices and plugin names")
    func bashCompletesValues() throws {
        #expect(try Self.bashCompletes(["la"]) == ["launch"])
        #expect(Set(try Self.bashCompletes([""])) == Set(WidgetHostCLI.commands.map(\.name)))
        #expect(try Self.bashCompletes(["launch", "--format", ""]) == ["text", "json"])
        #expect(try Self.bashCompletes(["launch", "--format", "=", "j"]) == ["json"])
        #expect(try Self.bashCompletes(["store", ""]) == ["put", "get", "rm", "list"])
        #expect(try Self.bashCompletes(["completion", ""]) == ["bash", "zsh", "fish"])
        #expect(try Self.bashCompletes(["help", "exit"]) == ["exit-status"])
        // The home screen's options, before any command.
        #expect(try Self.bashCompletes(["--iso"]) == ["--isolate"])
        // A value of --screen is free text, and the operand after it is still the plugin.
        #expect(try Self.bashCompletes(["launch", "--screen", ""]) == [])
        let plugins = try Self.bashCompletes(["launch", "--screen", "x", "tr"],
                                             environment: ["WIDGET_HOST_PLUGIN_PATH": TestSupport.productsDirectory])
        #expect(plugins == ["trips"])
        // A directory option completes directories.
        #expect(try Self.bashCompletes(["list", "--plugin-dir", "/us"]) == ["/usr"])
    }

    @Test("each completion script passes its shell's syntax check", arguments: CompletionScripts.shells)
    func scriptsParse(shell: String) throws {
        let script = try #require(Self.scripts.script(for: shell))
        let check = try Self.shell(["/usr/bin/env", shell, "-n", "SCRIPT"], script: script)
        #expect(check.termination == .exited(0), "\(shell) -n: \(String(decoding: check.standardError, as: UTF8.self))")
    }

    @Test("the zsh and fish scripts offer every option each command parses, under that command")
    func zshAndFishNameEveryOption() throws {
        let fishLines = Self.scripts.fish.split(separator: "\n")
        for command in WidgetHostCLI.commands {
            // zsh: the command's case arm holds one _arguments spec per option.
            let zshArm = try #require(Self.scripts.zsh.components(separatedBy: "\n        \(command.name)) ").dropFirst().first?
                .components(separatedBy: " ;;").first)
            let fishOwn = fishLines.filter { $0.contains("'__widget_host_command \(command.name)'") }
            for option in Self.parsed(command) {
                #expect(zshArm.contains("'\(option)") || zshArm.contains("'*\(option)"), "zsh \(command.name) lacks \(option)")
                #expect(fishOwn.contains { $0.contains(" -l \(option.dropFirst(2)) ") }, "fish \(command.name) lacks \(option)")
            }
        }
    }

    @Test("widget-host completion SHELL prints the script; an unknown shell is a usage error")
    func completionCommand() throws {
        let bash = try InProcessCLI.run(["completion", "bash"])
        #expect(bash.status == 0)
        #expect(bash.out == Self.scripts.bash)
        let unknown = try InProcessCLI.run(["completion", "tcsh"])
        #expect(unknown.status == 2)
        #expect(unknown.err.hasPrefix("widget-host: no completion for 'tcsh'; use bash, zsh or fish\n"))
        #expect(try InProcessCLI.run(["completion"]).status == 2)
    }

    @Test("help TOPIC prints a topic page; help COMMAND the command's --help; a wrong name suggests the closest")
    func helpPages() throws {
        for topic in HelpPages.topics {
            let page = try InProcessCLI.run(["help", topic.name])
            #expect(page.status == 0)
            #expect(page.out.hasPrefix("widget-host help \(topic.name): \(topic.summary)\n"))
        }
        let exitStatus = try InProcessCLI.run(["help", "exit-status"]).out
        #expect(exitStatus.contains("2    a usage error"))
        for (status, meaning) in ExitStatus.all {
            #expect(exitStatus.contains("  \(status) ") && exitStatus.contains(String(meaning.prefix { $0 != "\n" })), "\(status) not listed")
        }
        #expect(try InProcessCLI.run(["launch", "--no-such-option"]).status == ExitStatus.usage)
        #expect(try InProcessCLI.run(["help", "timeline"]).out == TimelineCommand.command.helpText)
        let overview = try InProcessCLI.run(["--help"]).out
        for topic in HelpPages.topics { #expect(overview.contains("\n  \(topic.name) "), "overview lacks topic \(topic.name)") }
        let wrong = try InProcessCLI.run(["help", "enviroment"])
        #expect(wrong.status == 2)
        #expect(wrong.err.hasPrefix("widget-host: no command or topic 'enviroment' (did you mean 'environment'?)\n"))
    }

    @Test("help --man is one troff page with every command, option and topic")
    func manPage() throws {
        let outcome = try InProcessCLI.run(["help", "--man"])
        #expect(outcome.status == 0)
        #expect(outcome.out.hasPrefix(".TH WIDGET-HOST 1"))
        for command in WidgetHostCLI.commands {
            #expect(outcome.out.contains(".SS \(HelpPages.roff(command.name))\n"))
            for option in Self.parsed(command) { #expect(outcome.out.contains(".B \(HelpPages.roff(option))")) }
        }
        for topic in HelpPages.topics { #expect(outcome.out.contains(".SH \(HelpPages.roff(topic.name.uppercased()))\n")) }
        // No line of text may start as a troff request would.
        let body = outcome.out.split(separator: "\n").filter { !$0.hasPrefix(".") }
        #expect(!body.contains { $0.hasPrefix("'") })
    }
}
