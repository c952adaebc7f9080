import Glibc

/// `widget-host quarantine`: what the crash-loop breaker holds, and lifting it.
enum QuarantineCommand {
    static let command = Command(
        name: "quarantine",
        summary: "list the plugins the crash-loop breaker quarantined, or lift a quarantine",
        operands: [Operand(name: "ACTION", help: "what to do:", choices: [
                       ("list", "every plugin with recent crashes, quarantined or not, and why"),
                       ("lift ID|NAME|PATH", "let a quarantined plugin run again and forget its crashes")]),
                   Operand(name: "ID|NAME|PATH", help: "with lift: the plugin", optional: true, completion: .pluginOrFile)],
        options: [.json],
        run: { cli, arguments in
            let store = QuarantineStore(environment: cli.environment)
            let words = arguments.positionals
            guard let action = words.first else { throw UsageError("quarantine needs an action: list or lift") }
            switch action {
            case "list":
                guard words.count == 1 else { throw UsageError("unexpected argument '\(words[1])'") }
                let entries: [QuarantineStore.Entry]
                do { entries = try store.entries() } catch {
                    cli.console.error("\(error)")
                    return ExitStatus.failure
                }
                cli.console.out(arguments.has("--json") ? JSONValue.array(entries.map(json)).serialized + "\n" : text(entries))
                return ExitStatus.success
            case "lift":
                guard words.count == 2 else { throw UsageError("quarantine lift needs a plugin id, name or path") }
                let lifted: [QuarantineStore.Entry]
                do {
                    lifted = try store.lift(words[1])
                } catch {
                    cli.console.error("\(error)")
                    return ExitStatus.failure
                }
                guard !lifted.isEmpty else {
                    cli.console.error("no plugin named '\(words[1])' has a crash record; see widget-host quarantine list")
                    return ExitStatus.failure
                }
                for entry in lifted {
                    cli.console.line("\(entry.quarantined == nil ? "forgot the crashes of" : "lifted the quarantine of") \(entry.pluginID) (\(entry.path))")
                }
                return ExitStatus.success
            default:
                throw UsageError("unknown quarantine action '\(action)'; use list or lift")
            }
        }
    )

    static func json(_ entry: QuarantineStore.Entry) -> JSONValue {
        [
            "id": .string(entry.pluginID), "path": .string(entry.path),
            "status": .string(status(entry)),
            "reason": .optional(entry.holds ? entry.quarantineReason : released),
            "crashes": .array(entry.crashes.map { ["at": .int($0.at), "reason": .string($0.reason)] }),
        ]
    }

    static func text(_ entries: [QuarantineStore.Entry]) -> String {
        guard !entries.isEmpty else { return "No plugin has crashed recently.\n" }
        var rows = [["ID", "STATUS", "CRASHES", "LAST", "PATH"]]
        for entry in entries {
            rows.append([entry.pluginID, status(entry), String(entry.crashes.count), entry.crashes.last?.reason ?? "-", entry.path])
        }
        let note = entries.contains { !$0.holds } ? "released: \(released)\n" : ""
        return TextTable(rows: rows).render() + note
    }

    /// The record of a file changed since no longer holds: `list` shows that plugin ok and it runs, so it is not shown quarantined here.
    static func status(_ entry: QuarantineStore.Entry) -> String {
        !entry.holds ? "released" : entry.quarantined == nil ? "watched" : "quarantined"
    }

    static let released = "its file changed since, so it runs again and these crashes no longer count"
}

extension ListCommand {
    /// Why the crash-loop breaker holds each plugin it holds, by path.
    static func quarantineReasons(_ plugins: [PluginCandidate], _ cli: WidgetHostCLI) -> [String: String] {
        (try? QuarantineStore(environment: cli.environment).quarantineReasons(paths: plugins.map(\.path))) ?? [:]
    }
}
