import Glibc

/// `widget-host dev [PATH]`: the edit loop of a plugin's author. Builds the
/// project, shows its widget isolated, and on every save rebuilds it and
/// reloads it on the screen it was on, with a failed build's messages on
/// the screen instead of a dead widget (DevSession).
enum DevCommand {
    static let command = Command(
        name: "dev",
        summary: "build a plugin project, show its widget, and rebuild and reload it on every save",
        operands: [Operand(name: "PATH", help: "the plugin project: a Swift package, or a directory with a Makefile (default: .)",
                           optional: true, completion: .directory)],
        options: [.value("--screen", "NAME", "open this screen first instead of the plugin's first"), .pluginDir, .allowWeakSandbox]
            + Option.configuration,
        notes: """
            dev watches the project's files (all but hidden ones such as .build), runs swift build or make when one is
            saved, and runs the plugin it made (widget.json's id, in .build/debug or beside the Makefile) in a sandboxed
            process of its own: each reload is a new process, so the widget's state starts afresh while the screen and
            the navigation stack stay. A failed build shows its messages in place of the widget until a build succeeds.
            The footer says how long the last save took to reach the screen. Plugins on the search path stay available
            (a contract the widget asks for), and the project's plugin goes first.
            """,
        run: { cli, arguments in try run(cli, arguments) }
    )

    static func run(_ cli: WidgetHostCLI, _ given: Arguments) throws -> Int32 {
        let project: DevProject
        do { project = try DevProject(given.positionals.first ?? ".", environment: cli.environment) } catch {
            cli.console.error("\(error)")
            return ExitStatus.failure
        }
        guard Terminal.isTTY(0) && Terminal.isTTY(1) else {
            cli.console.error("dev needs a terminal, where it shows the widget as you edit it; in a script, build the project, "
                + "then run widget-host validate on the plugin, or launch --once")
            return ExitStatus.failure
        }
        let staging: String
        do { staging = try privateDirectory(cli.environment) } catch {
            cli.console.error("cannot make a private directory for the built plugin: \(error)")
            return ExitStatus.failure
        }
        defer { FileSystem.removeTree(staging) }
        // The project's plugin first on the search path, so it shadows an installed copy; every widget isolated.
        var arguments = given
        arguments.options["--plugin-dir", default: []].insert(staging, at: 0)
        arguments.flags.insert("--isolate")
        let runtime = try cli.runtime(arguments)
        let config = runtime.resolve(HostConfig.self)
        let report = cli.scan(arguments, config: config)
        let session = WidgetSession(runtime: runtime, plugins: report.plugins,
                                    launcher: cli.launcher(for: try cli.isolationSettings(arguments, config: config)))
        let dev = DevSession(project: project, session: session, discovery: cli.discovery(arguments), searchPath: cli.searchPath(arguments),
                             staging: staging, firstScreen: arguments.value("--screen"), environment: cli.environment)
        // Another process's writes to the shared container reach the widget, as in launch.
        let store = StoreWatcher(store: runtime.resolve(SharedStore.self), bus: runtime.resolve(Bus.self))
        store.start()
        defer { store.stop() }
        dev.start()
        defer { dev.stop() }
        var loop = InteractiveLoop(session: session, environment: cli.environment, home: false)
        loop.tick = { dev.tick() }
        loop.cover = { dev.cover }
        loop.status = { dev.status() }
        loop.redrawAfter = { dev.redrawAfter }
        return loop.run()
    }

    /// A fresh directory only this user can enter, canonical (the sandbox
    /// compares resolved paths), named after this process.
    private static func privateDirectory(_ environment: [String: String]) throws(SystemError) -> String {
        let base = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        removeAbandoned(in: base)
        var template = Array((base + "/widget-host-dev-\(getpid())-XXXXXX").utf8CString)
        let made: String? = template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
        }
        guard let made, let real = NewCommand.resolved(made) else { throw SystemError(code: errno) }
        return real
    }

    /// A dev ended by a signal (its terminal closed) leaves its directory
    /// behind: the next one removes those of ours whose process is gone.
    private static func removeAbandoned(in base: String) {
        for name in (try? Discovery.entries(in: base)) ?? [] where name.hasPrefix("widget-host-dev-") {
            let fields = name.split(separator: "-")
            var status = stat()
            guard fields.count == 5, let pid = pid_t(fields[3]), kill(pid, 0) != 0, errno == ESRCH,
                  lstat(base + "/" + name, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == geteuid() else { continue }
            FileSystem.removeTree(base + "/" + name)
        }
    }
}
