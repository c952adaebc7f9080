/// One `widget-host` command. Its operands and options are declared once,
/// here, and everything else is derived from that declaration: the parser's
/// spec, the usage line, `--help`, `help` pages and the shell completions.
struct Command: Sendable {
    let name: String
    let summary: String
    let run: @Sendable (WidgetHostCLI, Arguments) throws -> Int32
    /// The declaration beyond the name is made when it is asked for: a run
    /// finds its command among all of them by name, and making every
    /// command's options, operands and notes (some built from the host's
    /// defaults) cost `list` more than its table.
    private let makeOperands: @Sendable () -> [Operand]
    private let makeOptions: @Sendable () -> [Option]
    private let makeNotes: @Sendable () -> String?

    init(name: String, summary: String, operands: @autoclosure @escaping @Sendable () -> [Operand],
         options: @autoclosure @escaping @Sendable () -> [Option], notes: @autoclosure @escaping @Sendable () -> String? = nil,
         run: @escaping @Sendable (WidgetHostCLI, Arguments) throws -> Int32) {
        self.name = name
        self.summary = summary
        makeOperands = operands
        makeOptions = options
        makeNotes = notes
        self.run = run
    }

    var operands: [Operand] { makeOperands() }
    var options: [Option] { makeOptions() }
    /// A paragraph after the options, for what does not fit one line.
    var notes: String? { makeNotes() }

    /// What the parser accepts: exactly the declared options and operands.
    var spec: ArgumentSpec { Option.spec(options, operands: operands.count) }

    var usage: String {
        (["widget-host", name] + operands.map(\.synopsis) + options.map(\.synopsis)).joined(separator: " ")
    }

    var helpText: String {
        var text = "widget-host \(name): \(summary)\n\nUsage: \(usage)\n"
        let operands = operands, options = options
        let operandRows = operands.flatMap { operand in
            [(operand.name, operand.help)] + operand.choices.map { ("  " + $0.word, $0.help) }
        }
        if !operandRows.isEmpty { text += "\nArguments:\n" + HelpTable.render(operandRows) }
        text += "\nOptions:\n" + HelpTable.render(options.map { ($0.synopsisInHelp, $0.help) } + [("-h, --help", "show this help")])
        if let notes { text += "\n" + notes + "\n" }
        return text
    }
}

/// How a value can be completed by a shell.
enum Completion: Sendable, Equatable {
    /// Free text: nothing to offer.
    case nothing
    case file
    case directory
    /// The ids and short names of the plugins on the search path.
    case plugin
    /// A plugin name, or a plugin file.
    case pluginOrFile
    /// The settings declared by the plugin the word before names.
    case setting
    /// A command's or help topic's name.
    case helpPage
    case words([String])
}

/// One option: its name, its value's name if it takes one, and what it does.
struct Option: Sendable {
    let name: String
    /// The value's placeholder ("DIR"); nil for a flag.
    let value: String?
    let help: String
    var repeatable = false
    var completion: Completion = .nothing

    static func flag(_ name: String, _ help: String) -> Option {
        Option(name: name, value: nil, help: help)
    }

    static func value(_ name: String, _ value: String, _ help: String, repeatable: Bool = false,
                      completion: Completion = .nothing) -> Option {
        Option(name: name, value: value, help: help, repeatable: repeatable, completion: completion)
    }

    /// In a usage line: `[--plugin-dir DIR]...`.
    var synopsis: String { "[\(synopsisInHelp)]" + (repeatable ? "..." : "") }
    var synopsisInHelp: String { value.map { "\(name) \($0)" } ?? name }

    static func spec(_ options: [Option], operands: Int) -> ArgumentSpec {
        ArgumentSpec(flags: Set(options.filter { $0.value == nil }.map(\.name)),
                     options: Set(options.filter { $0.value != nil }.map(\.name)), maxPositionals: operands)
    }
}

/// One positional argument.
struct Operand: Sendable {
    let name: String
    let help: String
    var optional = false
    var completion: Completion = .nothing
    /// The words it may be, each explained (store's put, get, rm, list).
    var choices: [(word: String, help: String)] = []

    var synopsis: String { optional ? "[\(name)]" : name }

    /// Choices complete to their words.
    var effectiveCompletion: Completion {
        choices.isEmpty ? completion : .words(choices.map { String($0.word.prefix { $0 != " " }) })
    }
}

/// Options several commands share, declared once.
extension Option {
    static let pluginDir = Option.value("--plugin-dir", "DIR", "search DIR before the default search path (repeatable)",
                                        repeatable: true, completion: .directory)
    static let allowInsecure = Option.flag("--allow-insecure", "load plugins even from files or directories others can write")
    static let allowWeakSandbox = Option.flag(
        "--allow-weak-sandbox",
        "where the kernel lacks part of the sandbox (Landlock ABI 3, seccomp), run plugins in what there is instead of refusing them")
    static let isolate = Option.flag("--isolate",
                                     "run each plugin in a sandboxed process of its own (config: \"host\": {\"isolation\": \"always\"})")
    static let json = Option.flag("--json", "print JSON instead of text")
    static let config = Option.value("--config", "FILE",
                                     "read the configuration from FILE (default \(HelpPages.under("XDG_CONFIG_HOME", HostConfig.defaultPath)))",
                                     completion: .file)
    static let set = Option.value("--set", "PLUGIN.KEY=VALUE", "override one configuration key (repeatable)", repeatable: true)
    static func now(_ help: String) -> Option { .value("--now", "ISO8601", help) }
    static func wait(_ help: String) -> Option { .value("--wait", "SECONDS", help) }

    /// Where plugins are searched for.
    static let search = [pluginDir, allowInsecure]
    /// What the configuration and the clock are: `--config` and `--set`
    /// (every command that reads the configuration takes them).
    static let configuration = [config, set]
}

/// Two columns, the first padded to the widest.
enum HelpTable {
    static func render(_ rows: [(String, String)]) -> String {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { "  " + $0.0 + String(repeating: " ", count: width - $0.0.count) + "  " + $0.1 + "\n" }.joined()
    }
}
