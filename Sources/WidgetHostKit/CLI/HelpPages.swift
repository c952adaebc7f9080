import Glibc
import HostShim

/// `widget-host help [COMMAND|TOPIC]`, `help --man` and `help --markdown`: every
/// page comes from the command declarations and the topics below, so help,
/// the man page and the completions cannot say different things.
enum HelpPages {
    /// A topic's text is made when it is shown: `help`'s declaration names
    /// the topics, and every command's start-up builds that declaration.
    struct Topic: Sendable {
        let name: String
        let summary: String
        private let makeText: @Sendable () -> String
        var text: String { makeText() }

        init(name: String, summary: String, text: @autoclosure @escaping @Sendable () -> String) {
            self.name = name
            self.summary = summary
            makeText = text
        }
    }

    static let searchPath = """
        Plugins are searched for in, first found wins:
          1. each --plugin-dir DIR
          2. WIDGET_HOST_PLUGIN_PATH (colon-separated)
          3. \(under("XDG_DATA_HOME", UserDirectories.plugins)) (default \(byDefault(UserDirectories.plugins)))
          4. the directory that holds the widget-host executable
        """

    static let command = Command(
        name: "help",
        summary: "show the help page of a command or topic, or every page as a man page",
        operands: [Operand(name: "COMMAND|TOPIC", help: "a command, or one of the topics: \(topics.map(\.name).joined(separator: ", "))",
                           optional: true, completion: .helpPage)],
        options: [.flag("--man", "print every page as one man page, in troff: widget-host help --man | man -l -"),
                  .flag("--markdown", "print every page as Markdown: the command reference, docs/commands.md")],
        run: { cli, arguments in
            if arguments.has("--markdown") {
                cli.console.out(MarkdownReference.page(commands: WidgetHostCLI.commands, homeOptions: LaunchCommand.homeOptions, topics: topics))
            } else if arguments.has("--man") {
                cli.console.out(manPage(commands: WidgetHostCLI.commands, homeOptions: LaunchCommand.homeOptions, version: WidgetHostCLI.version))
            } else if let name = arguments.positionals.first {
                guard let page = page(name, commands: WidgetHostCLI.commands) else {
                    let known = WidgetHostCLI.commands.map(\.name) + topics.map(\.name)
                    let hint = Suggestions.closest(to: name, among: known).map { " (did you mean '\($0)'?)" } ?? ""
                    throw UsageError("no command or topic '\(name)'\(hint)")
                }
                cli.console.out(page)
            } else {
                cli.console.out(cli.overview)
            }
            return ExitStatus.success
        }
    )

    /// The notes of `widget-host config`: the file, its example, and --set.
    static var configNotes: String {
        """
        The configuration is JSON, read from --config FILE or else, if it exists,
        \(under("XDG_CONFIG_HOME", HostConfig.defaultPath)) (default \(byDefault(HostConfig.defaultPath))).
        Every key of "host" is shown here with its default:

        \(configExample)

        "plugins" has a section per plugin (by full id or last part); each plugin sees
        only its own. --set PLUGIN.KEY=VALUE overrides one key (VALUE is JSON if it
        parses, else a string). launch, timeline, list and the home screen read it:
        a broken file is an error there, and a section or --set naming no plugin found
        is a warning with the closest known name.

        A widget that declares its settings in its manifest ("settings") has each value
        checked: config set refuses a key it does not declare or a value of the wrong
        type or range, naming the setting and the widget, and leaves the file as it
        was; every command that reads the configuration warns about such a value.
        config set writes the whole file again, its values and their order kept, in
        one layout, through a temporary file renamed over it. Examples:
          widget-host config set checkout locale fr_CA
          widget-host config list crypto
        """
    }

    /// How to install a completion script: the notes of `widget-host completion`.
    static let completionNotes = """
        `widget-host completion SHELL` prints a completion script made from the same
        declarations the parser uses. Install it with one of:

          widget-host completion bash > ~/.local/share/bash-completion/completions/widget-host
          widget-host completion zsh > ~/.zfunc/_widget-host      (with ~/.zfunc on $fpath)
          widget-host completion fish > ~/.config/fish/completions/widget-host.fish

        Plugin names complete from the plugins widget-host finds on the search path.
        """

    static let topics: [Topic] = [
        Topic(name: "plugins", summary: "where plugins are searched for, and which copy wins", text: searchPath + """


        A plugin file, or a directory on its way, that others can write is refused
        (unsafe) unless --allow-insecure is given. When a refused copy's id is also
        provided by a later copy, the later one is used, and list and a warning say so.

        A plugin is named by its full id (org.widgethost.trips), the last part of its
        id (trips) or its display name ("My Trips"), in any case; commands that take a
        plugin file accept a path too (anything with a slash or ending in .so).
        """),
        Topic(name: "environment", summary: "the environment variables widget-host reads", text: """
          WIDGET_HOST_PLUGIN_PATH   directories to search for plugins (colon-separated)
          WIDGET_HOST_LOG           log threshold: \(LogLevel.allCases.map(\.name).joined(separator: ", ")) (default warning)
          WIDGET_HOST_SDK           the package source `widget-host new` builds against
          WIDGET_HOST_SANDBOX_SKIP  landlock,seccomp: leave parts of the sandbox out, to try a weak one
          XDG_DATA_HOME             holds \(relative("XDG_DATA_HOME", UserDirectories.plugins)), \
        \(relative("XDG_DATA_HOME", SharedStore.defaultDirectory)) (the store) and
                                    \(relative("XDG_DATA_HOME", IsolatedLauncher.dataDirectories)) (isolated plugins' own directories)
          XDG_CONFIG_HOME           holds \(relative("XDG_CONFIG_HOME", HostConfig.defaultPath))
          XDG_STATE_HOME            holds \(relative("XDG_STATE_HOME", LogFile.defaultPath)) (the log) and
                                    \(relative("XDG_STATE_HOME", QuarantineStore.defaultPath)) (the crash-loop breaker's record)
          TMPDIR                    where validate and dev make their private directories (default /tmp)
          NO_COLOR                  set: no colour on the terminal (TERM=dumb too)
          COLUMNS, LINES            the terminal's size, where it cannot be asked
        """),
        Topic(name: "exit-status", summary: "what the exit status means, for scripts", text: ExitStatus.table),
    ]

    /// The configuration's example: every host setting at its default, and a plugin's section.
    static var configExample: String {
        let host = PluginRunSettings.defaultsConfig
        let plugins = JSONValue.object([("checkout", .object([
            ("currencyCode", .string("USD")), ("locale", .string("en_US")),
            ("minimumAmount", .string("50.00")), ("maximumAmount", .string("2000.00")),
        ]))])
        guard case let .object(settings) = host else { return "" }
        let hostLines = settings.map { "\"\($0.0)\": \(spaced($0.1))" }.joined(separator: ",\n            ")
        return "  {\"host\": {\(hostLines)},\n   \"plugins\": \(spaced(plugins))}"
    }

    /// JSON on one line with a space after each colon and comma, as people write it.
    static func spaced(_ value: JSONValue) -> String {
        switch value {
        case let .object(members): "{" + members.map { "\(JSONValue.string($0.0).serialized): \(spaced($0.1))" }.joined(separator: ", ") + "}"
        case let .array(elements): "[" + elements.map(spaced).joined(separator: ", ") + "]"
        default: value.serialized
        }
    }

    /// A path as the function that makes it makes it, written under `$VARIABLE`.
    static func under(_ variable: String, _ path: ([String: String]) -> String) -> String {
        "$" + variable + "/" + relative(variable, path)
    }

    /// The part of a path below `$VARIABLE`.
    static func relative(_ variable: String, _ path: ([String: String]) -> String) -> String {
        String(path([variable: "/@"]).dropFirst(3))
    }

    /// A path where no XDG variable is set, under `~`.
    static func byDefault(_ path: ([String: String]) -> String) -> String { path(["HOME": "~"]) }

    /// The page for a command or a topic, or nil for neither.
    static func page(_ name: String, commands: [Command]) -> String? {
        if let command = commands.first(where: { $0.name == name }) { return command.helpText }
        return topics.first { $0.name == name }.map { "widget-host help \($0.name): \($0.summary)\n\n\($0.text)\n" }
    }

    /// Every command and topic, in troff for man(1).
    static func manPage(commands: [Command], homeOptions: [Option], version: String) -> String {
        var page = """
        .TH WIDGET-HOST 1 "" "widget-host \(version)" "User Commands"
        .SH NAME
        widget-host \\- finds widget plugins and runs them
        .SH SYNOPSIS
        .B widget-host
        COMMAND [OPTIONS]
        .br
        .B widget-host
        \(roff(homeOptions.map(\.synopsis).joined(separator: " ")))
        .SH COMMANDS

        """
        for command in commands {
            page += ".SS \(roff(command.name))\n\(roff(command.summary)).\n.PP\n.B \(roff(command.usage))\n"
            for operand in command.operands {
                page += ".TP\n.I \(roff(operand.name))\n\(roff(operand.help))\n"
                for choice in operand.choices { page += ".TP\n.B \(roff(choice.word))\n\(roff(choice.help))\n" }
            }
            for option in command.options { page += ".TP\n.B \(roff(option.synopsisInHelp))\n\(roff(option.help))\n" }
            if let notes = command.notes { page += ".PP\n\(roff(notes))\n" }
        }
        for topic in topics {
            page += ".SH \(roff(topic.name.uppercased()))\n.nf\n\(roff(topic.text))\n.fi\n"
        }
        return page
    }

    /// Text troff shows as written: backslashes doubled, and no line that
    /// starts with a control character.
    static func roff(_ text: String) -> String {
        text.replacing("\\", with: "\\e").split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
        }.joined(separator: "\n").replacing("-", with: "\\-")
    }
}
