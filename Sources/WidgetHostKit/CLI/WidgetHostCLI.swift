import Glibc

/// The `widget-host` program: parses the command line, runs one command, and
/// returns the exit status (0 success, 1 failure, 2 usage error).
public struct WidgetHostCLI: Sendable {
    public static let version = "0.1.0"

    public let environment: [String: String]
    public let console: Console
    /// The `widget-host` binary, which runs validation children.
    public let executable: String
    public let executableDirectory: String?
    /// The service ids this host provides (what `makeRuntime` registers).
    public let serviceIDs: Set<String>
    /// One for the run, so a command that scans twice (the configuration
    /// resolves short names, then `list` lists) reads each plugin once.
    private let discoveryCache = DiscoveryCache()
    /// The report the configuration scanned for, which the command's own
    /// scan then takes instead of listing the search path a second time.
    private let configurationScan = ScanHandOver()

    public init(
        environment: [String: String], console: Console = .standard,
        executable: String = "/proc/self/exe", executableDirectory: String? = UserDirectories.executableDirectory()
    ) {
        self.environment = environment
        self.console = console
        self.executable = executable
        self.executableDirectory = executableDirectory
        serviceIDs = Set(ServiceTable.all.map(\.id))
    }

    /// The host's services as the environment and options configure them.
    func makeRuntime(config: HostConfig = .empty, clock: HostClock = HostClock()) -> HostRuntime {
        HostRuntime(config: config, clock: clock, storeDirectory: SharedStore.defaultDirectory(environment),
                    log: HostLog(environment: environment, file: LogFile(environment: environment), capturesStandardError: true))
    }

    /// The configuration file (`--config`, else the default one if it
    /// exists) with `--set` applied. A broken one is an error.
    func configuration(_ arguments: Arguments) throws -> HostConfig {
        let explicit = arguments.value("--config")
        var config = try HostConfig.load(path: explicit ?? HostConfig.defaultPath(environment), required: explicit != nil)
        for assignment in arguments.values("--set") { try config.set(assignment) }
        // A short name addresses a plugin only while it names that one plugin on the search path.
        let discovery = discovery(arguments), searchPath = searchPath(arguments)
        let report = discovery.scan(searchPath)
        configurationScan.leave(report, for: searchPath, allowInsecure: discovery.allowInsecure)
        config.addressShortNames(among: report.plugins.compactMap(\.manifest))
        return config
    }

    /// The configuration, or nil having reported why it is broken: for
    /// commands that can do their work without it but must not hide it.
    func reportedConfiguration(_ arguments: Arguments) -> HostConfig? {
        do { return try configuration(arguments) } catch {
            console.error("\(error)")
            return nil
        }
    }

    /// Scans the search path, warning about what is wrong with it and about
    /// names in the configuration that match no plugin found.
    func scan(_ arguments: Arguments, config: HostConfig) -> DiscoveryReport {
        let discovery = discovery(arguments), searchPath = searchPath(arguments)
        let report = configurationScan.take(for: searchPath, allowInsecure: discovery.allowInsecure) ?? discovery.scan(searchPath)
        report.warnings.forEach { console.error("warning: \($0)") }
        Self.configWarnings(config, plugins: report.plugins.compactMap(\.manifest?.id)).forEach { console.error("warning: \($0)") }
        SettingsCheck.problems(config, manifests: report.usable.compactMap(\.manifest)).forEach { console.error("warning: \($0)") }
        return report
    }

    /// The runtime with `--config`, `--set` and `--now` applied.
    func runtime(_ arguments: Arguments) throws -> HostRuntime {
        let config = try configuration(arguments)
        var start: Int64?
        if let now = arguments.value("--now") {
            guard let milliseconds = ISO8601.milliseconds(from: now) else {
                throw UsageError("--now takes an ISO 8601 time with an offset, such as 2026-05-01T09:30:00Z; got '\(now)'")
            }
            start = milliseconds
        }
        return makeRuntime(config: config, clock: HostClock(startingAt: start))
    }

    static let commands: [Command] = [DashboardCommand.command, ServeCommand.command, LaunchCommand.command, ListCommand.command, InfoCommand.command,
                                      ValidateCommand.command, StoreCommand.command, ConfigCommand.command, TimelineCommand.command,
                                      QuarantineCommand.command, InstallCommand.install, InstallCommand.uninstall, NewCommand.command,
                                      DevCommand.command, HelpPages.command, completionCommand]

    static let completionCommand = Command(
        name: "completion",
        summary: "print a shell completion script for bash, zsh or fish",
        operands: [Operand(name: "SHELL", help: "bash, zsh or fish", completion: .words(CompletionScripts.shells))],
        options: [],
        notes: HelpPages.completionNotes,
        run: { cli, arguments in
            guard let shell = arguments.positionals.first else { throw UsageError("completion needs a shell: bash, zsh or fish") }
            guard let script = CompletionScripts(commands: commands, homeOptions: LaunchCommand.homeOptions).script(for: shell) else {
                throw UsageError("no completion for '\(shell)'; use bash, zsh or fish")
            }
            cli.console.out(script)
            return ExitStatus.success
        }
    )

    public func run(_ arguments: [String]) -> Int32 {
        // Plugin code may run in this process from here on (the children
        // below report their plugin's end to their host instead).
        if arguments.first != PluginHostChild.command { PluginCall.guardProcess() }
        guard let first = arguments.first else {
            return runHome()
        }
        switch first {
        case "-h", "--help":
            return run(["help"] + arguments.dropFirst())
        case "-V", "--version":
            console.line("widget-host \(Self.version) (plugin ABI \(ABIVersion.host))")
            return ExitStatus.success
        case CompletionScripts.pluginNamesCommand:
            return printPluginNames()
        case CompletionScripts.settingKeysCommand:
            return printSettingKeys(arguments.dropFirst().first ?? "")
        case PluginHostChild.command:
            return PluginHostChild.run(Array(arguments.dropFirst()))
        default:
            // Options with no command: the home screen, such as `widget-host --isolate`.
            if first.hasPrefix("-") { return runHome(arguments) }
        }
        guard let command = Self.commands.first(where: { $0.name == first }) else {
            let hint = Suggestions.closest(to: first, among: Self.commands.map(\.name)).map { " (did you mean '\($0)'?)" } ?? ""
            return usageError("unknown command '\(first)'\(hint)", help: "widget-host --help")
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("-h") || rest.contains("--help") {
            console.out(command.helpText)
            return ExitStatus.success
        }
        do {
            return try command.run(self, try command.spec.parse(rest))
        } catch let error as UsageError {
            return usageError(error.description, help: "widget-host \(command.name) --help")
        } catch {
            console.error("\(error)")
            return ExitStatus.failure
        }
    }

    /// `widget-host` alone: the dashboard on a terminal; elsewhere the list
    /// of widgets, as text (what the home screen printed before).
    private func runHome(_ words: [String] = []) -> Int32 {
        do {
            if Terminal.isTTY(0) && Terminal.isTTY(1) && !words.contains(LaunchCommand.list.name) {
                return try DashboardCommand.run(self, try DashboardCommand.command.spec.parse(words))
            }
            return try LaunchCommand.launch(self, try LaunchCommand.homeSpec.parse(words), target: nil)
        } catch let error as UsageError {
            return usageError(error.description, help: "widget-host --help")
        } catch {
            console.error("\(error)")
            return ExitStatus.failure
        }
    }

    /// For completion scripts: the ids and short names of the usable
    /// plugins on the default search path, one a line.
    private func printPluginNames() -> Int32 {
        let manifests = discovery(Arguments()).scan(searchPath(Arguments())).usable.compactMap(\.manifest)
        var seen: Set<String> = []
        for name in manifests.flatMap({ [$0.id.value, $0.id.shortName] }) where seen.insert(name).inserted { console.line(name) }
        return ExitStatus.success
    }

    /// For completion scripts: the settings the plugin `name` declares, one a line.
    private func printSettingKeys(_ name: String) -> Int32 {
        let manifests = discovery(Arguments()).scan(searchPath(Arguments())).plugins.compactMap(\.manifest)
        guard case let .found(id) = PluginNames.resolve(name, among: manifests) else { return 1 }
        manifests.first { $0.id == id }?.settings?.forEach { console.line($0.key) }
        return 0
    }

    private func usageError(_ message: String, help: String) -> Int32 {
        console.error("\(message)\nTry '\(help)' for more.")
        return ExitStatus.usage
    }

    /// What in the configuration names nothing the host knows (a misspelled
    /// section, a `--set` or section for no plugin found), each with the
    /// closest known name: a mistake there must not pass without a word.
    static func configWarnings(_ config: HostConfig, plugins: [PluginID]) -> [String] {
        func hint(_ word: String, _ known: [String]) -> String {
            Suggestions.closest(to: word, among: known).map { " (did you mean '\($0)'?)" } ?? ""
        }
        let sections = ["plugins", "host", "dashboard"]
        let names = plugins.flatMap { [$0.value, $0.shortName] }
        guard case let .object(top) = config.root else { return [] }
        var warnings = top.map(\.0).filter { !sections.contains($0) }.map {
            "the configuration has an unknown section '\($0)'\(hint($0, sections)); known sections: \(sections.joined(separator: ", "))"
        }
        if case let .object(pluginSections)? = config.root["plugins"] {
            warnings += pluginSections.map(\.0).filter { !names.contains($0) }.map {
                "the configuration has a section for '\($0)', which is no plugin found\(hint($0, names))"
            }
        }
        for (name, ids) in config.ambiguousShortNames.sorted(by: { $0.key < $1.key }) {
            warnings.append("the configuration's '\(name)' applies to no plugin: it could be \(ids.joined(separator: " or ")); "
                + "use the full id as the section's name or in --set")
        }
        var seen: Set<String> = []
        warnings += config.overriddenPlugins.filter { !names.contains($0) && seen.insert($0).inserted }.map {
            "--set names '\($0)', which is no plugin found\(hint($0, names))"
        }
        return warnings
    }

    /// Discovery as the options and environment configure it.
    func discovery(_ arguments: Arguments) -> Discovery {
        Discovery(allowInsecure: arguments.has("--allow-insecure"), availableServices: serviceIDs, cache: discoveryCache)
    }

    func searchPath(_ arguments: Arguments) -> SearchPath {
        SearchPath.resolve(pluginDirs: arguments.values("--plugin-dir"), environment: environment,
                           executableDirectory: executableDirectory)
    }

    var overview: String {
        let commandRows = Self.commands.map { ($0.name, $0.summary) }
        let topicRows = HelpPages.topics.map { ($0.name, $0.summary) }
        return """
        widget-host \(Self.version): finds widget plugins and runs them.

        Usage: widget-host COMMAND [OPTIONS]
               widget-host \(LaunchCommand.homeOptions.map(\.synopsis).joined(separator: " "))   (the dashboard)

        Commands:
        \(HelpTable.render(commandRows))
        Topics (widget-host help TOPIC):
        \(HelpTable.render(topicRows))
        \(HelpPages.searchPath)

        \(DashboardLoop.keysHelp)
        Keys on a terminal, on a widget's screen (launch, or a card opened from the dashboard):
        \(InteractiveLoop.keysHelp)

        Run 'widget-host help COMMAND' or 'widget-host COMMAND --help' for a command's options.
        Options: -h, --help; -V, --version.

        """
    }
}

/// "Did you mean" by edit distance.
enum Suggestions {
    static func closest(to word: String, among candidates: [String], limit: Int = 3) -> [String]? {
        let tolerance = max(2, word.count / 3)
        let scored: [(name: String, distance: Int)] = candidates
            .map { (name: $0, distance: distance(word.lowercased(), $0.lowercased())) }
            .filter { $0.distance <= tolerance }
            .sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }
        return scored.isEmpty ? nil : scored.prefix(limit).map { $0.name }
    }

    static func closest(to word: String, among candidates: [String]) -> String? {
        closest(to: word, among: candidates, limit: 1)?.first
    }

    /// Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var current = [i + 1]
            for (j, cb) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
