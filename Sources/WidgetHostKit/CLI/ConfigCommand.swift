/// `widget-host config`: a widget's settings read and changed without
/// editing JSON by hand. Values are checked against the settings the widget
/// declares (DeclaredSetting) before the file is touched, and the file is
/// rewritten atomically (ConfigFile).
enum ConfigCommand {
    static let command = Command(
        name: "config",
        summary: "show and change a widget's settings in the configuration file",
        operands: [Operand(name: "ACTION", help: "what to do:", choices: [
                       ("list [WIDGET]", "each widget's settings (or one widget's): value, default and help"),
                       ("get WIDGET KEY", "print the value the widget gets for KEY, as JSON (the configured one, else its default)"),
                       ("set WIDGET KEY VALUE", "check VALUE against the setting the widget declares, then write it to the file"),
                       ("unset WIDGET KEY", "remove KEY from the widget's section, so it gets its default")]),
                   Operand(name: "WIDGET", help: "a full id, the last part of one (checkout), or a display name", optional: true,
                           completion: .plugin),
                   Operand(name: "KEY", help: "a setting the widget declares", optional: true, completion: .setting),
                   Operand(name: "VALUE", help: "with set: the value, read as the setting's type (fr_CA, 60, true, 12.50)", optional: true)],
        options: [.config, .json] + Option.search,
        notes: HelpPages.configNotes,
        run: run
    )

    private static func run(_ cli: WidgetHostCLI, _ arguments: Arguments) throws -> Int32 {
        let words = arguments.positionals
        guard let action = words.first else { throw UsageError("config needs an action: list, get, set or unset") }
        let counts = ["list": 1...2, "get": 3...3, "set": 4...4, "unset": 3...3]
        guard let allowed = counts[action] else { throw UsageError("unknown config action '\(action)'; use list, get, set or unset") }
        guard allowed.contains(words.count) else {
            let usage = command.operands[0].choices.first { $0.word.hasPrefix(action + " ") || $0.word == action }?.word ?? action
            throw UsageError("config \(action) takes \(usage)")
        }
        let path = arguments.value("--config") ?? HostConfig.defaultPath(cli.environment)
        let file: ConfigFile
        do { file = try ConfigFile.open(path) } catch {
            cli.console.error("\(error); the file was left as it is")
            return 1
        }
        let report = cli.discovery(arguments).scan(cli.searchPath(arguments))
        let manifests = report.plugins.compactMap(\.manifest)
        func widget(_ name: String) throws -> Manifest {
            let resolution = PluginNames.resolve(name, among: manifests)
            guard case let .found(id) = resolution, let manifest = manifests.first(where: { $0.id == id }) else {
                throw ConfigRefusal(PluginNames.failure(name, resolution, among: manifests))
            }
            return manifest
        }
        do {
            switch action {
            case "list":
                let shown = try words.count == 2 ? [widget(words[1])] : uniqueByID(report.usable.compactMap(\.manifest))
                cli.console.out(list(shown, file: file, among: manifests, json: arguments.has("--json")))
            case "get":
                let manifest = try widget(words[1])
                let setting = try ConfigFile.declared(manifest, words[2])
                guard let value = file.section(for: manifest, among: manifests)[words[2]] ?? setting?.defaultValue else {
                    throw ConfigRefusal("\(SettingsCheck.widget(manifest)): \(words[2]) is not set and has no default")
                }
                cli.console.line(value.serialized)
            case "set":
                let manifest = try widget(words[1])
                let key = words[2], value = try ConfigFile.checkedValue(words[3], key: key, of: manifest)
                if manifest.settings == nil {
                    cli.console.error("warning: \(SettingsCheck.widget(manifest)) declares no settings, so \(key) = \(value.serialized) was not checked")
                }
                try ConfigFile.update(path) { file in
                    file.set(key, to: value, section: file.sectionName(for: manifest, among: manifests))
                    return true
                }
            default:
                let manifest = try widget(words[1])
                _ = try ConfigFile.declared(manifest, words[2])
                let sections = [manifest.id.value, manifest.id.shortName].filter {
                    $0 == manifest.id.value || PluginNames.resolve($0, among: manifests) == .found(manifest.id)
                }
                if try !ConfigFile.update(path, { $0.unset(words[2], sections: sections) }) {
                    cli.console.error("\(SettingsCheck.widget(manifest)): \(words[2]) was not set in \(path)")
                    return 0
                }
            }
        } catch let refusal as ConfigRefusal {
            cli.console.error("config: \(refusal.description)")
            return 1
        } catch let error as ConfigError {
            cli.console.error("\(error)")
            return 1
        }
        return 0
    }

    private static func uniqueByID(_ manifests: [Manifest]) -> [Manifest] {
        var seen: Set<String> = []
        return manifests.filter { seen.insert($0.id.value).inserted }
    }

    /// Each widget's declared settings with the value it gets: text, one
    /// table per widget, or one JSON object keyed by id.
    static func list(_ widgets: [Manifest], file: ConfigFile, among manifests: [Manifest], json: Bool) -> String {
        var objects: [(String, JSONValue)] = []
        var text = ""
        for manifest in widgets {
            let section = file.section(for: manifest, among: manifests)
            let declared = manifest.settings ?? []
            // Keys set but not declared are listed too, so nothing in the file is hidden.
            let extra = (section.members ?? []).map(\.0).filter { key in !declared.contains { $0.key == key } }
            var rows: [[String]] = [["KEY", "VALUE", "DEFAULT", "HELP"]]
            var entries: [(String, JSONValue)] = []
            for setting in declared {
                let value = section[setting.key]
                rows.append([setting.key, value?.serialized ?? "-", setting.defaultValue?.serialized ?? "-", describe(setting)])
                entries.append((setting.key, .object([("value", value ?? .null), ("default", setting.defaultValue ?? .null),
                                                       ("type", .string(setting.kind.rawValue)), ("help", .string(setting.help))])))
            }
            for key in extra {
                rows.append([key, section[key]?.serialized ?? "-", "-", manifest.settings == nil ? "(not declared)" : "(unknown setting)"])
                entries.append((key, .object([("value", section[key] ?? .null)])))
            }
            objects.append((manifest.id.value, .object(entries)))
            text += "\(manifest.name) (\(manifest.id)):\n"
            text += rows.count == 1 ? "  declares no settings\n" : TextTable(rows: rows).render().split(separator: "\n").map { "  " + $0 + "\n" }.joined()
        }
        return json ? JSONValue.object(objects).serialized + "\n" : text
    }

    /// The help, with what the value may be when the type alone does not say.
    static func describe(_ setting: DeclaredSetting) -> String {
        if !setting.values.isEmpty { return setting.help + " (" + setting.values.map { $0.string ?? $0.serialized }.joined(separator: ", ") + ")" }
        switch (setting.minimum, setting.maximum) {
        case let (minimum?, maximum?): return setting.help + " (\(DeclaredSetting.text(minimum)) to \(DeclaredSetting.text(maximum)))"
        default: return setting.help
        }
    }
}

/// A config command that cannot do what was asked: exit status 1.
struct ConfigRefusal: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
