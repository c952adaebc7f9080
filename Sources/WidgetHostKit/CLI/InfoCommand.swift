/// `widget-host info ID|PATH`: everything a plugin's manifest says, and
/// whether it loads (tried in a caged child process, as `validate` does, so
/// a broken or hostile plugin cannot take `info` down or reach outside).
enum InfoCommand {
    static let command = Command(
        name: "info",
        summary: "show a plugin's manifest and whether it loads",
        operands: [PluginLookup.operand],
        options: Option.search + [.allowWeakSandbox, .json,
                                  .value("--timeout", "SECONDS", "how long loading may take (default \(Int(ValidateCommand.defaultTimeout)))")],
        run: { cli, arguments in
            guard let name = arguments.positionals.first else { throw UsageError("info needs a plugin id, name or path") }
            let timeout = try ValidateCommand.timeout(arguments)
            let discovery = cli.discovery(arguments)
            let candidate: PluginCandidate
            switch PluginLookup.find(name, cli, arguments) {
            case let .found(found):
                candidate = found
            case let .failed(message):
                cli.console.error(message)
                return ExitStatus.failure
            }
            let load = candidate.status == .ok
                ? loadStatus(cli, candidate.path, discovery, timeout, allowWeakSandbox: arguments.has("--allow-weak-sandbox")) : nil
            let quarantine = ListCommand.quarantineReasons([candidate], cli)[candidate.path]
            let provided = ManifestWarnings.providedContracts(discovery.scan(cli.searchPath(arguments)).plugins)
            let warnings = ManifestWarnings.warnings(for: candidate, provided: provided)
            if arguments.has("--json") {
                var object = ListCommand.json(candidate, quarantine: quarantine, warnings: warnings)
                if case var .object(members) = object {
                    members.append(("manifest", candidate.manifest?.json ?? .null))
                    members.append(("load", load.map { ["status": .string($0.outcome.rawValue), "reason": .optional($0.detail)] } ?? .null))
                    object = .object(members)
                }
                cli.console.line(object.serialized)
            } else {
                cli.console.out(text(candidate, load: load, quarantine: quarantine, warnings: warnings))
            }
            return ExitStatus.success
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

    static func text(_ plugin: PluginCandidate, load: CheckResult?, quarantine: String? = nil, warnings: [String] = []) -> String {
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
            rows.append(["contracts:", "provides: \(list(manifest.providedContracts)); requires: \(list(manifest.requiredContracts))"])
            let anyHost = manifest.httpHosts.contains(HTTPAllowList.anyHost) ? " (ANY HOST)" : ""
            rows.append(["http hosts:", list(manifest.httpHosts) + anyHost])
            rows.append(["store groups:", StoreGroups.text(manifest.storeGroups)])
        }
        for (index, warning) in warnings.enumerated() {
            rows.append([index == 0 ? "warnings:" : "", warning])
        }
        return TextTable(rows: rows).render()
    }

    private static func list(_ items: [String]) -> String { items.isEmpty ? "none" : items.joined(separator: ", ") }
}
