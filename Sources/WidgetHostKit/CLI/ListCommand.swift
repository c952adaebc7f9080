/// `widget-host list`: every candidate on the search path and its status.
enum ListCommand {
    static let command = Command(
        name: "list",
        summary: "list the plugins on the search path, without loading them",
        operands: [],
        options: Option.search + [.json] + Option.configuration,
        run: { cli, arguments in
            // The list is printed even when the configuration is broken, but
            // the broken file is reported and the exit status says so.
            let config = cli.reportedConfiguration(arguments)
            let report = cli.scan(arguments, config: config ?? .empty)
            let quarantine = quarantineReasons(report.plugins, cli)
            let provided = ManifestWarnings.providedContracts(report.plugins)
            if arguments.has("--json") {
                cli.console.line(JSONValue.array(report.plugins.map {
                    json($0, quarantine: quarantine[$0.path], warnings: ManifestWarnings.warnings(for: $0, provided: provided))
                }).serialized)
            } else {
                cli.console.out(text(report, quarantine: quarantine))
            }
            return config == nil ? ExitStatus.failure : ExitStatus.success
        }
    )

    /// `quarantine`: why the crash-loop breaker holds the plugin, if it does;
    /// `warnings`: what ManifestWarnings says of it.
    static func json(_ plugin: PluginCandidate, quarantine: String? = nil, warnings: [String] = []) -> JSONValue {
        [
            "id": .optional(plugin.manifest?.id.value),
            "name": .optional(plugin.manifest?.name),
            "version": .optional(plugin.manifest?.version),
            "abi": .optional(plugin.manifest?.abi.description),
            "path": .string(plugin.path),
            "status": .string(quarantine == nil ? plugin.status.name : "quarantined"),
            "reason": .optional(quarantine ?? plugin.status.reason),
            "warnings": .array(warnings.map(JSONValue.string)),
        ]
    }

    static func text(_ report: DiscoveryReport, quarantine: [String: String] = [:]) -> String {
        guard !report.plugins.isEmpty else {
            return "No plugins found. Put plugin .so files in a directory on the search path (see widget-host --help).\n"
        }
        var rows = [["ID", "NAME", "VERSION", "ABI", "STATUS", "PATH"]]
        for plugin in report.plugins {
            let manifest = plugin.manifest
            rows.append([manifest?.id.value ?? "-", manifest?.name ?? "-", manifest?.version ?? "-",
                         manifest?.abi.description ?? "-", quarantine[plugin.path] == nil ? plugin.status.name : "quarantined", plugin.path])
        }
        var lines = TextTable(rows: rows).render()
        let provided = ManifestWarnings.providedContracts(report.plugins)
        let warned = report.plugins.map { ($0.path, ManifestWarnings.warnings(for: $0, provided: provided)) }.filter { !$0.1.isEmpty }
        if !warned.isEmpty {
            lines += "\n" + warned.flatMap { path, warnings in warnings.map { "\(path): warning: \($0)\n" } }.joined()
        }
        // An identical copy shadowed is its row alone: the same bytes run either way.
        let problems = report.plugins.filter { ($0.status != .ok && !$0.isIdenticalCopy) || quarantine[$0.path] != nil }
        if !problems.isEmpty {
            lines += "\n"
            for plugin in problems {
                if let reason = quarantine[plugin.path] {
                    lines += "\(plugin.path): \(reason)\n"
                } else {
                    lines += "\(plugin.path): \(plugin.status.name): \(plugin.status.reason ?? "")\n"
                }
            }
        }
        let copies = report.plugins.filter(\.isIdenticalCopy).count
        if copies > 0 {
            lines += "\n\(copies == 1 ? "1 shadowed copy is" : "\(copies) shadowed copies are") identical to the one used: nothing to fix.\n"
        }
        return lines
    }
}

extension PluginCandidate {
    /// Shadowed by a copy with the same bytes.
    var isIdenticalCopy: Bool {
        if case .shadowed(_, identical: true) = status { return true }
        return false
    }
}
