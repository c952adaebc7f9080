/// `widget-host info ID|PATH`: everything a plugin's manifest says, and
/// whether it loads (tried in a caged child process, as `validate` does, so
/// a broken or hostile plugin cannot take `info` down or reach outside).
enum InfoCommand {
    static let command = Command(
        name: "info",
        summary: "show a plugin's manifest and whether it loads",
        usage: "widget-host info ID|NAME|PATH [--plugin-dir DIR]... [--allow-insecure] [--allow-weak-sandbox] [--json]",
        help: [("ID|NAME|PATH", "a full id, the last part of one (crypto), or a plugin file"),
               CommonOptions.pluginDir, CommonOptions.allowInsecure, LaunchCommand.weakSandboxHelp, CommonOptions.json,
               ("--timeout SECONDS", "how long loading may take (default 10)")],
        spec: ArgumentSpec(flags: CommonOptions.searchFlags.union(["--json", "--allow-weak-sandbox"]),
                           options: CommonOptions.searchOptions.union(["--timeout"]), maxPositionals: 1),
        run: { cli, arguments in
            guard let name = arguments.positionals.first else { throw UsageError("info needs a plugin id, name or path") }
            let timeout = try ValidateCommand.timeout(arguments)
            let discovery = cli.discovery(arguments)
            let candidate: PluginCandidate
            switch PluginLookup.find(name, discovery: discovery, searchPath: cli.searchPath(arguments)) {
            case let .found(found):
                candidate = found
            case let .failed(message):
                cli.console.error(message)
                return 1
            }
            let load = candidate.status == .ok
                ? loadStatus(cli, candidate.path, discovery, timeout, allowWeakSandbox: arguments.has("--allow-weak-sandbox")) : nil
            let quarantine = ListCommand.quarantineReasons([candidate], cli)[candidate.path]
            if arguments.has("--json") {
                var object = ListCommand.json(candidate, quarantine: quarantine)
                if case var .object(members) = object {
                    members.append(("manifest", candidate.manifest?.json ?? .null))
                    members.append(("load", load.map { ["status": .string($0.outcome.rawValue), "reason": .optional($0.detail)] } ?? .null))
                    object = .object(members)
                }
                cli.console.line(object.serialized)
            } else {
                cli.console.out(text(candidate, load: load, quarantine: quarantine))
            }
            return 0
        }
    )

    private static func loadStatus(_ cli: WidgetHostCLI, _ path: String, _ discovery: Discovery, _ timeout: Double,
                                   allowWeakSandbox: Bool) -> CheckResult {
        var validator = Validator(executable: cli.executable, timeout: timeout, discovery: discovery)
        validator.loadOnly = true
        validator.settings.allowWeakSandbox = allowWeakSandbox
        let results = validator.validate(path: path)
        return results.first { $0.outcome == .fail } ?? results.last!
    }

    static func text(_ plugin: PluginCandidate, load: CheckResult?, quarantine: String? = nil) -> String {
        var rows: [[String]] = []
        if let manifest = plugin.manifest {
            rows += [["id:", manifest.id.value], ["name:", manifest.name], ["version:", manifest.version],
                     ["vendor:", manifest.vendor], ["description:", manifest.description], ["abi:", manifest.abi.description]]
        }
        rows += [["path:", plugin.path], ["status:", quarantine ?? (plugin.status.name + (plugin.status.reason.map { ": \($0)" } ?? ""))]]
        if let load {
            rows.append(["load:", load.outcome == .pass ? "ok" : "failed: \(load.name): \(load.detail ?? "")"])
        }
        if let manifest = plugin.manifest {
            for (index, screen) in manifest.screens.enumerated() {
                let actions = screen.actions.isEmpty ? "" : "; actions: " + screen.actions.joined(separator: ", ")
                rows.append([index == 0 ? "screens:" : "", "\(screen.id) (\(screen.title))\(actions)"])
            }
            rows.append(["services:", "required: \(list(manifest.requiredServices)); optional: \(list(manifest.optionalServices))"])
            rows.append(["topics:", "publish: \(list(manifest.publishes)); subscribe: \(list(manifest.subscribes))"])
        }
        return TextTable(rows: rows).render()
    }

    private static func list(_ items: [String]) -> String { items.isEmpty ? "none" : items.joined(separator: ", ") }
}

/// Finds the plugin a person named: a file path, a full id, or the last
/// segment of an id when only one plugin has it.
enum PluginLookup {
    enum Result {
        case found(PluginCandidate)
        case failed(String)
    }

    static func find(_ name: String, discovery: Discovery, searchPath: SearchPath) -> Result {
        if name.contains("/") || name.hasSuffix(".so") {
            return .found(discovery.inspect(path: name))
        }
        let plugins = discovery.scan(searchPath).plugins
        let named = plugins.filter { $0.manifest != nil }
        let matches = named.filter { $0.manifest!.id.value == name }
        let byShortName = matches.isEmpty ? named.filter { $0.manifest!.id.shortName == name } : matches
        let ids = Set(byShortName.map { $0.manifest!.id.value })
        if ids.count > 1 {
            return .failed("'\(name)' is ambiguous: it could be \(ids.sorted().joined(separator: " or ")); use the full id")
        }
        // Prefer the copy that would load: the usable one, not a shadowed or rejected twin.
        if let best = byShortName.first(where: { $0.status == .ok }) ?? byShortName.first {
            return .found(best)
        }
        let known = Set(named.flatMap { [$0.manifest!.id.value, $0.manifest!.id.shortName] })
        if let close = Suggestions.closest(to: name, among: known.sorted(), limit: 3) {
            return .failed("no plugin named '\(name)'. Did you mean: \(close.joined(separator: ", "))?")
        }
        let available = Set(named.map { $0.manifest!.id.value }).sorted()
        return .failed("no plugin named '\(name)'" + (available.isEmpty ? "; no plugins were found" : ". Plugins found: \(available.joined(separator: ", "))"))
    }
}
