import Testing
@testable import WidgetHostKit
@testable import TestSupport

@Suite("Command-line arguments")
struct ArgumentsTests {
    static let spec = ArgumentSpec(flags: ["--json", "--allow-insecure", "-v"], options: ["--plugin-dir", "--timeout"], maxPositionals: 2)

    static func usageError(_ words: [String], spec: ArgumentSpec = spec,
                           sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        do {
            let arguments = try spec.parse(words)
            Issue.record("expected a usage error, but parsed \(arguments)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func emptyCommandLine() throws {
        let arguments = try Self.spec.parse([])
        #expect(arguments == Arguments())
        #expect(!arguments.has("--json"))
        #expect(arguments.value("--timeout") == nil)
        #expect(arguments.values("--plugin-dir") == [])
    }

    @Test func flagsOptionsAndPositionals() throws {
        let arguments = try Self.spec.parse(["--json", "first", "--timeout", "5", "-v", "second"])
        #expect(arguments.flags == ["--json", "-v"])
        #expect(arguments.has("--json") && arguments.has("-v"))
        #expect(!arguments.has("--allow-insecure"))
        #expect(arguments.options == ["--timeout": ["5"]])
        #expect(arguments.value("--timeout") == "5")
        #expect(arguments.positionals == ["first", "second"])
    }

    @Test func inlineValues() throws {
        let arguments = try Self.spec.parse(["--timeout=2.5", "--plugin-dir=/a=b", "--plugin-dir="])
        #expect(arguments.value("--timeout") == "2.5")
        #expect(arguments.values("--plugin-dir") == ["/a=b", ""])
        #expect(arguments.positionals.isEmpty)
    }

    @Test func repeatedOptionsCollectAndTheLastWins() throws {
        let arguments = try Self.spec.parse(["--plugin-dir", "/one", "--plugin-dir=/two", "--timeout", "1", "--plugin-dir", "/three", "--timeout=9"])
        #expect(arguments.values("--plugin-dir") == ["/one", "/two", "/three"])
        #expect(arguments.value("--plugin-dir") == "/three")
        #expect(arguments.values("--timeout") == ["1", "9"])
        #expect(arguments.value("--timeout") == "9")
    }

    @Test func repeatedFlagsAreHarmless() throws {
        #expect(try Self.spec.parse(["--json", "--json"]).flags == ["--json"])
    }

    @Test func optionValueMayLookLikeAnOption() throws {
        // Anything but one of the command's own options is a value...
        let arguments = try Self.spec.parse(["--plugin-dir", "-x", "--timeout", "-1"])
        #expect(arguments.values("--plugin-dir") == ["-x"])
        #expect(arguments.value("--timeout") == "-1")
        #expect(arguments.flags.isEmpty)
        // ...and one of them can still be a value when joined with "=".
        #expect(try Self.spec.parse(["--plugin-dir=--json"]).values("--plugin-dir") == ["--json"])
    }

    @Test func aKnownOptionWhereAValueShouldBeIsAMissingValue() {
        // "--plugin-dir --json" forgot the directory; it did not name one "--json".
        #expect(throws: UsageError("--plugin-dir needs a value")) { try Self.spec.parse(["--plugin-dir", "--json"]) }
        #expect(throws: UsageError("--plugin-dir needs a value")) { try Self.spec.parse(["--plugin-dir", "--timeout", "3"]) }
    }

    @Test func doubleDashEndsOptions() throws {
        let arguments = try Self.spec.parse(["--json", "--", "--allow-insecure", "-x"])
        #expect(arguments.flags == ["--json"])
        #expect(arguments.positionals == ["--allow-insecure", "-x"])
        // Only the first "--" is special.
        #expect(try Self.spec.parse(["--", "--"]).positionals == ["--"])
        #expect(try Self.spec.parse(["--"]).positionals == [])
    }

    @Test func singleDashAndEmptyWordsArePositional() throws {
        #expect(try Self.spec.parse(["-", "--json"]) == Arguments(flags: ["--json"], positionals: ["-"]))
        #expect(try Self.spec.parse([""]).positionals == [""])
    }

    @Test func unknownOption() {
        #expect(Self.usageError(["--nope"]) == "unknown option --nope")
        #expect(Self.usageError(["--nope=3"]) == "unknown option --nope")
        #expect(Self.usageError(["-x"]) == "unknown option -x")
        // Inline values belong to long options only.
        #expect(Self.usageError(["-v=1"]) == "unknown option -v=1")
        // Reported before a count of positionals could be.
        #expect(Self.usageError(["a", "b", "c", "--nope"]) == "unknown option --nope")
        // Options are case-sensitive.
        #expect(Self.usageError(["--JSON"]) == "unknown option --JSON")
    }

    @Test func missingValue() {
        #expect(Self.usageError(["--timeout"]) == "--timeout needs a value")
        #expect(Self.usageError(["a", "--plugin-dir"]) == "--plugin-dir needs a value")
    }

    @Test func flagGivenAValue() {
        #expect(Self.usageError(["--json=yes"]) == "--json takes no value")
        #expect(Self.usageError(["--allow-insecure="]) == "--allow-insecure takes no value")
    }

    @Test func tooManyPositionals() {
        #expect(Self.usageError(["a", "b", "c", "d"]) == "too many arguments, starting at 'c'")
        #expect(Self.usageError(["x"], spec: ArgumentSpec(flags: ["--json"])) == "unexpected argument 'x'")
        #expect(Self.usageError(["--", "-x"], spec: ArgumentSpec()) == "unexpected argument '-x'")
        #expect(Self.usageError(["a", "b"], spec: ArgumentSpec(maxPositionals: 1)) == "too many arguments, starting at 'b'")
        #expect(throws: Never.self) { try ArgumentSpec(maxPositionals: 1).parse(["a"]) }
    }

    // MARK: Suggestions

    @Test func levenshteinDistance() {
        #expect(Suggestions.distance("", "") == 0)
        #expect(Suggestions.distance("abc", "") == 3)
        #expect(Suggestions.distance("", "abc") == 3)
        #expect(Suggestions.distance("list", "list") == 0)
        #expect(Suggestions.distance("lst", "list") == 1)
        #expect(Suggestions.distance("kitten", "sitting") == 3)
        #expect(Suggestions.distance("sitting", "kitten") == 3)
        #expect(Suggestions.distance("flaw", "lawn") == 2)
        // A transposition is two edits in plain Levenshtein.
        #expect(Suggestions.distance("ab", "ba") == 2)
        // Characters, not bytes.
        #expect(Suggestions.distance("café", "cafe") == 1)
        #expect(Suggestions.distance("😀", "😁") == 1)
        // Case-sensitive on its own; closest() lowercases.
        #expect(Suggestions.distance("List", "list") == 1)
    }

    @Test func closestSuggestion() {
        let commands = ["list", "info", "validate"]
        #expect(Suggestions.closest(to: "lst", among: commands) == "list")
        #expect(Suggestions.closest(to: "LIST", among: commands) == "list")
        #expect(Suggestions.closest(to: "inf", among: commands) == "info")
        #expect(Suggestions.closest(to: "valdate", among: commands) == "validate")
        #expect(Suggestions.closest(to: "frobnicate", among: commands) == nil)
        #expect(Suggestions.closest(to: "lst", among: []) == nil)
        // Tolerance grows with the word: a third of its length, at least 2.
        #expect(Suggestions.closest(to: "validatexyz", among: commands) == "validate")
        #expect(Suggestions.closest(to: "valid", among: commands) == nil)
    }

    @Test func closestSuggestionsAreRankedAndLimited() {
        let names = ["cryptic", "crypto", "crypta", "x"]
        #expect(Suggestions.closest(to: "crypt", among: names, limit: 3) == ["crypta", "crypto", "cryptic"])
        #expect(Suggestions.closest(to: "crypt", among: names, limit: 2) == ["crypta", "crypto"])
        #expect(Suggestions.closest(to: "zzzzz", among: names, limit: 3) == nil)
    }
}

@Suite("widget-host command line")
struct WidgetHostCLITests {
    @Test func version() throws {
        let outcome = try InProcessCLI.run(["--version"])
        #expect(outcome.status == 0)
        #expect(outcome.out == "widget-host \(WidgetHostCLI.version) (plugin ABI \(ABIVersion.host))\n")
        #expect(outcome.err == "")
        #expect(try InProcessCLI.run(["-V"]).out == outcome.out)
    }

    @Test func overview() throws {
        let outcome = try InProcessCLI.run(["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.err == "")
        #expect(outcome.out.hasPrefix("widget-host \(WidgetHostCLI.version): "))
        for command in ["list", "info", "validate"] {
            #expect(outcome.out.contains("\n  \(command) "), "overview lacks \(command)")
        }
        #expect(outcome.out.contains("WIDGET_HOST_PLUGIN_PATH"))
        #expect(try InProcessCLI.run(["-h"]).out == outcome.out)
        #expect(try InProcessCLI.run(["help"]).out == outcome.out)
    }

    @Test func helpForACommand() throws {
        let outcome = try InProcessCLI.run(["help", "list"])
        #expect(outcome.status == 0)
        #expect(outcome.err == "")
        #expect(outcome.out.hasPrefix("widget-host list: list the plugins on the search path, without loading them\n\nUsage: widget-host list "))
        #expect(outcome.out.contains("--plugin-dir DIR"))
        #expect(outcome.out.contains("--json"))
        #expect(outcome.out.contains("-h, --help"))
        #expect(!outcome.out.contains("--timeout"))
        // The same text from the command's own --help, wherever it appears.
        #expect(try InProcessCLI.run(["list", "--help"]).out == outcome.out)
        #expect(try InProcessCLI.run(["list", "--json", "-h"]).out == outcome.out)
        #expect(try InProcessCLI.run(["help", "validate"]).out.contains("--timeout SECONDS"))
    }

    @Test func helpForAnUnknownCommand() throws {
        let outcome = try InProcessCLI.run(["help", "nope"])
        #expect(outcome.status == 2)
        #expect(outcome.out == "")
        #expect(outcome.err == "widget-host: no command or topic 'nope'\nTry 'widget-host help --help' for more.\n")
    }

    @Test func unknownCommandSuggestsTheClosest() throws {
        let outcome = try InProcessCLI.run(["lst"])
        #expect(outcome.status == 2)
        #expect(outcome.out == "")
        #expect(outcome.err == "widget-host: unknown command 'lst' (did you mean 'list'?)\nTry 'widget-host --help' for more.\n")
        #expect(try InProcessCLI.run(["valiate", "x.so"]).err.contains("(did you mean 'validate'?)"))
    }

    @Test func unknownCommandWithNothingClose() throws {
        let outcome = try InProcessCLI.run(["frobnicate"])
        #expect(outcome.status == 2)
        #expect(outcome.err == "widget-host: unknown command 'frobnicate'\nTry 'widget-host --help' for more.\n")
    }

    @Test func listJSONOnAnEmptyPluginDirectory() throws {
        let outcome = try InProcessCLI.run(["list", "--json"])
        #expect(outcome.status == 0)
        #expect(outcome.out == "[]\n")
        #expect(outcome.err == "")
        #expect(try JSONParser.parse(outcome.out) == .array([]))
    }

    @Test func listTextOnAnEmptyPluginDirectory() throws {
        let outcome = try InProcessCLI.run(["list"])
        #expect(outcome.status == 0)
        #expect(outcome.out.hasPrefix("No plugins found."))
        #expect(outcome.err == "")
    }

    @Test func listWarnsAboutAMissingExplicitDirectory() throws {
        let outcome = try InProcessCLI.run(["list", "--json", "--plugin-dir", "/nonexistent/widget-host-unit"])
        #expect(outcome.status == 0)
        #expect(outcome.out == "[]\n")
        #expect(outcome.err == "widget-host: warning: plugin directory /nonexistent/widget-host-unit (from --plugin-dir): No such file or directory\n")
        let fromEnvironment = try InProcessCLI.run(["list"], extraEnvironment: ["WIDGET_HOST_PLUGIN_PATH": "/nonexistent/a"])
        #expect(fromEnvironment.err.contains("plugin directory /nonexistent/a (from WIDGET_HOST_PLUGIN_PATH)"))
    }

    @Test func commandUsageErrorsExitTwo() throws {
        let unknown = try InProcessCLI.run(["list", "--bogus"])
        #expect(unknown.status == 2)
        #expect(unknown.out == "")
        #expect(unknown.err == "widget-host: unknown option --bogus\nTry 'widget-host list --help' for more.\n")

        let extra = try InProcessCLI.run(["list", "extra"])
        #expect(extra.status == 2)
        #expect(extra.err.hasPrefix("widget-host: unexpected argument 'extra'\n"))

        let noName = try InProcessCLI.run(["info"])
        #expect(noName.status == 2)
        #expect(noName.err == "widget-host: info needs a plugin id, name or path\nTry 'widget-host info --help' for more.\n")

        let noPath = try InProcessCLI.run(["validate"])
        #expect(noPath.status == 2)
        #expect(noPath.err.hasPrefix("widget-host: validate needs a plugin file, id or name\n"))

        for bad in ["abc", "0", "-1", "3601"] {
            let timeout = try InProcessCLI.run(["validate", "x.so", "--timeout", bad])
            #expect(timeout.status == 2, "--timeout \(bad)")
            #expect(timeout.err.hasPrefix("widget-host: --timeout takes a number of seconds above 0 and at most 3600, not '\(bad)'\n"))
        }
    }

    @Test("--list is the home screen's alone: launch, serve and dashboard refuse it instead of ignoring it")
    func listIsTheHomeScreensOption() throws {
        // A bad --bind too: a serve that let --list through stops there instead of serving.
        for words in [["launch", "crypto", "--list", "--once"], ["serve", "--list", "--bind", "nowhere"], ["dashboard", "--list"]] {
            let outcome = try InProcessCLI.run(words)
            #expect(outcome.status == ExitStatus.usage, "\(words)")
            #expect(outcome.err == "widget-host: unknown option --list\nTry 'widget-host \(words[0]) --help' for more.\n", "\(words)")
            let command = try #require(WidgetHostCLI.commands.first { $0.name == words[0] })
            #expect(!command.usage.contains("--list") && !command.helpText.contains("--list"), "\(words[0])")
        }
        let home = try InProcessCLI.run(["--list"])
        #expect(home.status == ExitStatus.success, "\(home.err)")
        #expect(home.err == "")
    }

    @Test func infoOnAnUnknownPlugin() throws {
        let outcome = try InProcessCLI.run(["info", "nothing"])
        #expect(outcome.status == 1)
        #expect(outcome.out == "")
        #expect(outcome.err == "widget-host: no plugin named 'nothing'; no plugins were found\n")
    }
}
