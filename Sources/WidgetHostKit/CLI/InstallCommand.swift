import Glibc

/// `widget-host install PATH` and `widget-host uninstall ID`: the user's
/// plugin directory ($XDG_DATA_HOME/widget-host/plugins) as a person manages
/// it. A plugin is installed only after `validate` passes in a child process,
/// under the name `ID.so`, by writing a temporary file beside it and renaming
/// it into place, so the directory never holds a torn plugin.
enum InstallCommand {
    static let install = Command(
        name: "install",
        summary: "validate a plugin, then copy it into your plugin directory",
        operands: [Operand(name: "PATH", help: "the plugin file, as built", completion: .file)],
        options: [.flag("--force", "replace an installed plugin even if it is newer (a downgrade)"), .allowInsecure],
        run: { cli, arguments in
            guard let path = arguments.positionals.first else { throw UsageError("install needs the path of a plugin file") }
            let discovery = cli.discovery(arguments)
            let results = Validator(executable: cli.executable, timeout: ValidateCommand.defaultTimeout, discovery: discovery)
                .validate(path: path)
            let failures = results.filter { $0.outcome == .fail }
            guard failures.isEmpty, let manifest = discovery.inspect(path: path).manifest else {
                for failure in failures { cli.console.error("FAIL  \(failure.name)" + (failure.detail.map { ": \($0)" } ?? "")) }
                cli.console.error("not installed: \(path) does not pass 'widget-host validate'")
                return 1
            }
            let directory = pluginDirectory(cli.environment)
            let installed = installedCopies(of: manifest.id.value, in: directory, discovery)
            if let newer = installed.first(where: { compareVersions($0.version, manifest.version) > 0 }), !arguments.has("--force") {
                cli.console.error("\(manifest.id) \(newer.version) is installed, newer than \(manifest.version); "
                    + "use --force to downgrade")
                return 1
            }
            let target = directory + "/" + manifest.id.value + ".so"
            try copyAtomically(from: path, to: target)
            for old in installed where old.path != target { unlink(old.path) }
            cli.console.line("installed \(manifest.id) \(manifest.version) as \(target)")
            return 0
        }
    )

    static let uninstall = Command(
        name: "uninstall",
        summary: "remove an installed plugin from your plugin directory",
        operands: [Operand(name: "ID", help: "the plugin's id, as `list` shows it", completion: .plugin)],
        options: [],
        run: { cli, arguments in
            guard let id = arguments.positionals.first else { throw UsageError("uninstall needs a plugin id") }
            let directory = pluginDirectory(cli.environment)
            let installed = installedCopies(of: id, in: directory, cli.discovery(arguments))
            guard !installed.isEmpty else {
                cli.console.error("no plugin '\(id)' is installed in \(directory)")
                return 1
            }
            for copy in installed {
                guard unlink(copy.path) == 0 else { throw InstallError("cannot remove \(copy.path): \(String(cString: strerror(errno)))") }
                cli.console.line("removed \(id) \(copy.version) (\(copy.path))")
            }
            return 0
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

    /// Writes a temporary file in the target's directory, mode 0644, synced,
    /// then renames it over the target: readers see the old file or the new.
    static func copyAtomically(from source: String, to target: String) throws {
        let directory = FileSystem.directory(of: target)
        do { try FileSystem.makeDirectories(directory, mode: 0o755) } catch { throw InstallError("cannot create \(directory): \(error)") }
        let bytes: [UInt8]
        do { bytes = try FileSystem.contents(of: source) } catch { throw InstallError("cannot read \(source): \(error)") }
        var template = Array("\(directory)/.install.XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw InstallError("cannot write in \(directory): \(SystemError(code: errno))") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let finished = FileSystem.writeAll(bytes, to: descriptor) && fchmod(descriptor, 0o644) == 0 && fsync(descriptor) == 0
        close(descriptor)
        guard finished, rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw InstallError("cannot install \(target): \(reason)")
        }
    }
}
