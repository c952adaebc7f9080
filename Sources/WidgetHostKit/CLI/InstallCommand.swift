import Glibc

/// `widget-host install PATH` and `widget-host uninstall ID`: the user's
/// plugin directory ($XDG_DATA_HOME/widget-host/plugins) as a person manages
/// it. A plugin is copied once into a private file (`StagedPlugin`), that
/// copy is validated in a child process and inspected, and only then renamed
/// into place as `ID.so`: the directory never holds a torn plugin, and what
/// is installed is what was checked. Install refuses a directory discovery
/// would refuse, and an id another plugin on the search path provides.
enum InstallCommand {
    static let install = Command(
        name: "install",
        summary: "validate a plugin, then copy it into your plugin directory",
        operands: [Operand(name: "PATH", help: "the plugin file, as built", completion: .file)],
        options: [.flag("--force", "install even over a newer copy (a downgrade), or an id another plugin on the search path provides"),
                  .flag("--yes", "install without asking to confirm the grants (needed without a terminal)"), .allowInsecure],
        run: { cli, arguments in
            guard let path = arguments.positionals.first else { throw UsageError("install needs the path of a plugin file") }
            let discovery = cli.discovery(arguments)
            let directory = pluginDirectory(cli.environment)
            do { try FileSystem.makeDirectories(directory, mode: 0o755) } catch { throw InstallError("cannot create \(directory): \(error)") }
            // Discovery would refuse every plugin in an unsafe directory: refuse to write there at all.
            var safety = FileSafety()
            if let unsafe = safety.problem(withDirectory: directory) {
                cli.console.error("not installed: \(unsafe.problem), so plugins there would never load"
                    + (unsafe.fix.map { "; fix it with: \($0)" } ?? ""))
                return ExitStatus.failure
            }
            let staged = try StagedPlugin(copying: path, into: directory)
            defer { staged.discard() }
            let results = Validator(executable: cli.executable, timeout: ValidateCommand.defaultTimeout, discovery: discovery)
                .validate(path: staged.path)
            let failures = results.filter { $0.outcome == .fail }
            guard failures.isEmpty, let manifest = discovery.inspect(path: staged.path).manifest else {
                for failure in failures { cli.console.error("FAIL  \(failure.name)" + (failure.detail.map { ": \($0)" } ?? "")) }
                cli.console.error("not installed: \(path) does not pass 'widget-host validate'")
                return ExitStatus.failure
            }
            let force = arguments.has("--force")
            if let other = otherProvider(of: manifest.id, outside: directory, cli, discovery), !force {
                cli.console.error("not installed: \(manifest.id) is already provided by \(other); the two would shadow one another "
                    + "(same id, same settings and data). Use --force to install it anyway")
                return ExitStatus.failure
            }
            let installed = installedCopies(of: manifest.id.value, in: directory, discovery)
            if let newer = installed.first(where: { compareVersions($0.version, manifest.version) > 0 }), !force {
                cli.console.error("\(manifest.id) \(newer.version) is installed, newer than \(manifest.version); "
                    + "use --force to downgrade")
                return ExitStatus.failure
            }
            // What validate warned about (a grant of any host, a contract no one provides) is said before the question.
            for warning in results where warning.outcome == .warn {
                cli.console.error("warning: \(warning.name)" + (warning.detail.map { ": \($0)" } ?? ""))
            }
            guard confirmGrants(manifest, replacing: installed.first?.path, cli, arguments, discovery) else { return 1 }
            let target = directory + "/" + manifest.id.value + ".so"
            try staged.install(as: target)
            for old in installed where old.path != target { unlink(old.path) }
            cli.console.line("installed \(manifest.id) \(manifest.version) as \(target)")
            return ExitStatus.success
        }
    )

    /// Shows what the plugin is granted (and, over an installed copy, what
    /// is new) and has it confirmed: on a terminal by asking, else by
    /// `--yes`. Without either nothing is installed: a script must say yes.
    static func confirmGrants(_ manifest: Manifest, replacing old: String?, _ cli: WidgetHostCLI, _ arguments: Arguments,
                              _ discovery: Discovery) -> Bool {
        let grants = InstallGrants(manifest)
        cli.console.line("\(manifest.name) (\(manifest.id) \(manifest.version)) is granted:")
        grants.lines.forEach { cli.console.line($0) }
        if let old, let previous = discovery.inspect(path: old).manifest {
            let added = grants.added(since: InstallGrants(previous))
            cli.console.line(added.isEmpty ? "nothing more than \(previous.version) had"
                : "new since \(previous.version):\n" + added.joined(separator: "\n"))
        }
        if arguments.has("--yes") { return true }
        guard Terminal.isTTY(0) && Terminal.isTTY(1) else {
            cli.console.error("not installed: confirm these grants with --yes (install asks only on a terminal)")
            return false
        }
        guard InstallGrants.confirm(cli.console, "Install it?") else {
            cli.console.error("not installed")
            return false
        }
        return true
    }

    /// A copy of `id` on the search path outside the user's plugin directory,
    /// in words, if there is one.
    static func otherProvider(of id: PluginID, outside directory: String, _ cli: WidgetHostCLI, _ discovery: Discovery) -> String? {
        let own = canonical(directory)
        let report = discovery.scan(cli.searchPath(Arguments()))
        guard let other = report.plugins.first(where: { $0.manifest?.id == id && canonical(FileSystem.directory(of: $0.path)) != own }),
              let manifest = other.manifest else { return nil }
        return "\(manifest.name) \(manifest.version) at \(other.path)"
    }

    private static func canonical(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    static let uninstall = Command(
        name: "uninstall",
        summary: "remove an installed plugin from your plugin directory",
        operands: [Operand(name: "ID|NAME", help: "the plugin: its id, the last part of one (counter), or its display name",
                           completion: .plugin)],
        options: [],
        run: { cli, arguments in
            guard let name = arguments.positionals.first else { throw UsageError("uninstall needs a plugin id or name") }
            let directory = pluginDirectory(cli.environment)
            let discovery = cli.discovery(arguments)
            // The name resolved as every other command resolves it; an id not on the search path is taken as given.
            var id = name
            if case let .found(candidate) = PluginLookup.find(name, in: discovery.scan(cli.searchPath(arguments)).plugins),
               let manifest = candidate.manifest {
                id = manifest.id.value
            }
            let installed = installedCopies(of: id, in: directory, discovery)
            guard !installed.isEmpty else {
                cli.console.error("no plugin '\(name)' is installed in \(directory)")
                return ExitStatus.failure
            }
            for copy in installed {
                guard unlink(copy.path) == 0 else { throw InstallError("cannot remove \(copy.path): \(String(cString: strerror(errno)))") }
                cli.console.line("removed \(id) \(copy.version) (\(copy.path))")
            }
            return ExitStatus.success
        }
    )

    struct InstallError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static func pluginDirectory(_ environment: [String: String]) -> String {
        UserDirectories.plugins(environment)
    }

    /// The files in `directory` whose manifest carries `id`.
    static func installedCopies(of id: String, in directory: String, _ discovery: Discovery) -> [(path: String, version: String)] {
        let names = (try? Discovery.entries(in: directory)) ?? []
        return names.filter { $0.hasSuffix(".so") }.sorted().compactMap { name in
            let path = directory + "/" + name
            guard let manifest = discovery.inspect(path: path).manifest, manifest.id.value == id else { return nil }
            return (path, manifest.version)
        }
    }

    /// Dotted versions compared number by number ("1.10.0" > "1.9.3"); a
    /// part that is not a number compares as text.
    static func compareVersions(_ left: String, _ right: String) -> Int {
        let a = left.split(separator: "."), b = right.split(separator: ".")
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? String(a[index]) : "0", y = index < b.count ? String(b[index]) : "0"
            if let m = Int(x), let n = Int(y) {
                if m != n { return m < n ? -1 : 1 }
            } else if x != y {
                return x < y ? -1 : 1
            }
        }
        return 0
    }
}
