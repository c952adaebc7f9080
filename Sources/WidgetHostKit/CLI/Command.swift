/// One `widget-host` command: its words, its help, and what it does.
struct Command: Sendable {
    let name: String
    let summary: String
    let usage: String
    /// (option, explanation) pairs shown by --help.
    let help: [(String, String)]
    let spec: ArgumentSpec
    let run: @Sendable (WidgetHostCLI, Arguments) throws -> Int32

    var helpText: String {
        var text = "widget-host \(name): \(summary)\n\nUsage: \(usage)\n"
        let rows = help + [("-h, --help", "show this help")]
        let width = rows.map(\.0.count).max() ?? 0
        text += "\nOptions:\n"
        for (option, explanation) in rows {
            text += "  " + option + String(repeating: " ", count: width - option.count) + "  " + explanation + "\n"
        }
        return text
    }
}

/// Options shared by the commands that search for plugins.
enum CommonOptions {
    static let pluginDir = ("--plugin-dir DIR", "search DIR before the default search path (repeatable)")
    static let allowInsecure = ("--allow-insecure", "load plugins even from files or directories others can write")
    static let json = ("--json", "print JSON instead of text")
    static let searchFlags: Set<String> = ["--allow-insecure"]
    static let searchOptions: Set<String> = ["--plugin-dir"]
}
