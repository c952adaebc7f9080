import Glibc

/// `widget-host validate PATH`: runs a plugin through its whole contract in
/// a caged child process and reports each check.
enum ValidateCommand {
    static let defaultTimeout = 10.0

    static let command = Command(
        name: "validate",
        summary: "exercise a plugin's whole contract in a child process and report each check",
        operands: [PluginLookup.operand],
        options: [.value("--timeout", "SECONDS", "how long the plugin may take in all (default \(Int(defaultTimeout)))"), .allowWeakSandbox, .json]
            + Option.search,
        run: { cli, arguments in
            guard let name = arguments.positionals.first else { throw UsageError("validate needs a plugin file, id or name") }
            let timeout = try timeout(arguments)
            // A name is validated as the file it resolves to on the search path.
            let path: String
            switch PluginLookup.find(name, cli, arguments) {
            case let .found(candidate): path = candidate.path
            case let .failed(message):
                cli.console.error(message)
                return ExitStatus.failure
            }
            var validator = Validator(executable: cli.executable, timeout: timeout, discovery: cli.discovery(arguments))
            validator.settings.allowWeakSandbox = arguments.has("--allow-weak-sandbox")
            validator.providedContracts = ManifestWarnings.providedContracts(cli.discovery(arguments).scan(cli.searchPath(arguments)).plugins)
            let results = validator.validate(path: path)
            let failed = results.filter { $0.outcome == .fail }.count
            if arguments.has("--json") {
                let checks: [JSONValue] = results.map {
                    ["check": .string($0.name), "result": .string($0.outcome.rawValue), "detail": .optional($0.detail)]
                }
                cli.console.line(JSONValue.object([("path", .string(path)), ("passed", .bool(failed == 0)), ("checks", .array(checks))]).serialized)
            } else {
                for result in results {
                    cli.console.line("\(result.outcome.rawValue.uppercased())  \(result.name)" + (result.detail.map { ": \($0)" } ?? ""))
                }
                let passed = results.filter { $0.outcome == .pass }.count
                cli.console.line("\(failed == 0 ? "valid" : "INVALID"): \(passed) of \(results.count) checks passed")
            }
            return failed == 0 ? 0 : 1
        }
    )

    static func timeout(_ arguments: Arguments) throws(UsageError) -> Double {
        guard let text = arguments.value("--timeout") else { return defaultTimeout }
        guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
            throw UsageError("--timeout takes a number of seconds above 0 and at most 3600, not '\(text)'")
        }
        return seconds
    }
}
