import Glibc

/// `widget-host launch ID`: renders a widget, interactively on a terminal,
/// or once (for scripts, with `--actions` run first). `widget-host` with no
/// arguments opens the home screen, which lists the widgets.
enum LaunchCommand {
    /// How long `--wait` waits for a loading widget unless told (launch and timeline).
    static let defaultWait = 15.0

    static let command = Command(
        name: "launch",
        summary: "show a widget: interactive on a terminal, rendered once otherwise",
        operands: [Operand(name: "ID|NAME|LINK", help: "the widget: a full id, the last part of one (crypto), its display name "
                               + "(\"My Trips\"), or a widget://ID/SCREEN?PARAMS link",
                           completion: .plugin)],
        options: [.value("--screen", "NAME", "open this screen instead of the first (it may carry parameters: exchange?id=kraken)"),
                  .flag("--once", "render once and exit, even on a terminal"),
                  .value("--format", "text|json", "text for people (default), JSON for scripts", completion: .words(["text", "json"])),
                  .value("--actions", "LIST", "run these actions first, comma-separated: retrieve,exchanges or update=250.00; "
                          + "back pops, widget://... navigates"),
                  .flag("--status", "print the widget's answer to the status query as JSON instead of its screen (after --actions)"),
                  .wait("how long to wait for a loading widget before rendering (default \(Int(defaultWait)))"),
                  .flag("--trace-events", "print every bus event on stderr as it is published: a line of `event` and the event as JSON")]
            + sessionOptions,
        run: { cli, arguments in
            guard let name = arguments.positionals.first else { throw UsageError("launch needs a widget id or name") }
            return try launch(cli, arguments, target: try target(name, screen: arguments.value("--screen")))
        }
    )

    /// What launch, dashboard, serve and the home screen share: the clock, where plugins run, the configuration and the search
    /// path. `--list` is not among them: only the home screen has a list to open instead of the dashboard, and a command that
    /// took it would ignore it.
    static let sessionOptions: [Option] = [.now("the clock's starting time, such as 2026-05-01T09:30:00Z"), .isolate, .allowWeakSandbox]
        + Option.configuration + Option.search
    /// `widget-host [OPTIONS]`: the home screen takes the options that make sense without a widget.
    static let homeOptions: [Option] = sessionOptions + [list]
    /// The home screen before the dashboard: the widgets as a list.
    static let list = Option.flag("--list", "open the list of widgets (the home screen before the dashboard) instead of the dashboard")
    static let homeSpec = Option.spec(homeOptions, operands: 0)

    /// `target` nil opens the home screen.
    static func launch(_ cli: WidgetHostCLI, _ arguments: Arguments, target: NavigationTarget?) throws -> Int32 {
        let format = try ScreenFormat(rawValue: arguments.value("--format") ?? "text").orThrow(UsageError("--format takes text or json"))
        let wait = try seconds(arguments.value("--wait"), default: defaultWait)
        let actions = try parseActions(arguments.value("--actions"))
        let runtime = try cli.runtime(arguments)
        let report = cli.scan(arguments, config: runtime.resolve(HostConfig.self))
        let isolation = try cli.isolationSettings(arguments, config: runtime.resolve(HostConfig.self))
        let session = WidgetSession(runtime: runtime, plugins: report.plugins, launcher: cli.launcher(for: isolation))
        if arguments.has("--trace-events") {
            let console = cli.console
            _ = try runtime.resolve(Bus.self).subscribe("#") { event in
                let line: JSONValue = ["topic": .string(event.topic), "payload": (try? JSONParser.parse(event.payload)) ?? .string(event.payload)]
                console.err("event " + line.serialized + "\n")
            }
        }

        warnMissingContracts(cli, target.map { PluginLookup.find($0.plugin, in: report.plugins) }, among: report.plugins)
        if let target {
            guard let manifest = usablePlugin(cli, named: target.plugin, in: report.plugins) else { return 1 }
            do { try session.open(NavigationTarget(plugin: manifest.id.value, screen: target.screen, params: target.params)) } catch {
                let screens = manifest.screens.map(\.id)
                // A screen that exists was refused for its parameters: naming screens would not help.
                let hint = screens.contains(target.screen ?? screens[0]) ? ""
                    : Suggestions.closest(to: target.screen ?? "", among: screens, limit: 3).map { ". Did you mean: \($0.joined(separator: ", "))?" }
                    ?? ". Its screens: \(screens.joined(separator: ", "))"
                cli.console.error("\(error)\(hint)")
                return ExitStatus.failure
            }
        }
        let interactive = !arguments.has("--once") && !arguments.has("--status") && actions.isEmpty && format == .text && Terminal.isTTY(0) && Terminal.isTTY(1)
        if interactive {
            // Another process's writes to the shared container reach the widgets as store.changed.
            let watcher = StoreWatcher(store: runtime.resolve(SharedStore.self), bus: runtime.resolve(Bus.self))
            watcher.start()
            defer { watcher.stop() }
            // Plugins dropped into (or rebuilt in) a plugin directory appear with no restart.
            let live = LivePlugins(cli: cli, arguments: arguments, session: session, restartChanged: isolation.mode == .always)
            live.start()
            defer { live.stop() }
            var loop = InteractiveLoop(session: session, environment: cli.environment, home: target == nil)
            loop.tick = { live.refresh() }
            return loop.run()
        }
        guard target != nil else {
            cli.console.out(HomeScreen.text(session.manifests, renderer: renderer(cli)))
            return ExitStatus.success
        }
        var failed = false
        for parsed in actions {
            do {
                try session.perform(try parsed.get())
            } catch {
                cli.console.error("\(error)\((try? parsed.get()).map { validValues(session, refused: $0) } ?? "")")
                failed = true
            }
            settle(session, seconds: wait)
        }
        settle(session, seconds: wait)
        if arguments.has("--status") { return printStatus(cli, session) ?? (failed ? ExitStatus.failure : ExitStatus.success) }
        guard let screen = session.render() else { return 1 }
        let status = format == .json ? try? session.status() : nil
        cli.console.out(format.present(screen, stack: session.navigator.stack, renderer: renderer(cli), status: status))
        // The screen is out: the widgets are not destroyed, so a fetch still
        // in flight (past --wait) cannot hold the exit up.
        _ = Unmanaged.passRetained(session)
        if stillLoading(screen, wait: wait, console: cli.console) { return 1 }
        return failed ? ExitStatus.failure : ExitStatus.success
    }

    /// A required contract no plugin provides is a warning, not only the
    /// info-level line of the moment the widget asks for it.
    /// Those of the target's plugin, or of every plugin for the home screen.
    private static func warnMissingContracts(_ cli: WidgetHostCLI, _ target: PluginLookup.Result?, among plugins: [PluginCandidate]) {
        let provided = ManifestWarnings.providedContracts(plugins)
        var shown = plugins
        if let target {
            guard case let .found(candidate) = target else { return }
            shown = [candidate]
        }
        for manifest in shown.filter({ $0.status == .ok }).compactMap(\.manifest) {
            ManifestWarnings.missingContracts(of: manifest, provided: provided).forEach { cli.console.error("warning: \(manifest.id): \($0)") }
        }
    }

    /// The manifest of the plugin `name` resolves to, if a usable copy of it
    /// was found; else nil, having said why (no such name, or the copy found
    /// was refused, and for what).
    static func usablePlugin(_ cli: WidgetHostCLI, named name: String, in plugins: [PluginCandidate]) -> Manifest? {
        switch PluginLookup.find(name, in: plugins) {
        case let .failed(message):
            cli.console.error(message)
            return nil
        case let .found(candidate):
            guard candidate.status == .ok, let manifest = candidate.manifest else {
                let id = candidate.manifest?.id.value ?? name
                cli.console.error("\(id) cannot be used: \(candidate.path) is \(candidate.status.name): \(candidate.status.reason ?? "")")
                return nil
            }
            return manifest
        }
    }

    /// `--status`: the widget's status as one line of JSON. Returns 1 (with
    /// a message) when there is none, nil when it was printed.
    private static func printStatus(_ cli: WidgetHostCLI, _ session: WidgetSession) -> Int32? {
        do {
            guard let status = try session.status() else {
                cli.console.error("widget \(session.current?.plugin.shortName ?? "?") answers no status query")
                return ExitStatus.failure
            }
            cli.console.out(status.serialized + "\n")
            return nil
        } catch {
            cli.console.error("\(error)")
            return ExitStatus.failure
        }
    }

    /// What to open: a name with an optional screen (which may carry params,
    /// `exchange?id=kraken`), or a deep link, `widget://crypto/exchange?id=kraken`.
    static func target(_ name: String, screen: String?) throws -> NavigationTarget {
        if name.hasPrefix("widget://") {
            guard screen == nil else { throw UsageError("give either a widget:// link or --screen, not both") }
            return try NavigationTarget(link: name)
        }
        guard let screen, screen.contains("?") else { return NavigationTarget(plugin: name, screen: screen) }
        return try NavigationTarget(link: "widget://\(name)/\(screen)")
    }

    static func renderer(_ cli: WidgetHostCLI) -> TerminalRenderer {
        TerminalRenderer(environment: cli.environment)
    }

    /// The values the current screen offers for `action` (its list rows and
    /// buttons), when the one given is not among them: a refused value names
    /// the ones that would work.
    static func validValues(_ session: WidgetSession, refused intent: Intent) -> String {
        guard case let .action(action, refused) = intent else { return "" }
        let offered = (session.render()?.actions ?? []).filter { $0.action == action }.compactMap(\.value)
        guard let refused, !offered.isEmpty, !offered.contains(refused) else { return "" }
        return ". Valid values for \(action) here: \(offered.joined(separator: ", "))"
    }

    /// A loading screen after `--wait` ran out is a failure to render: says
    /// so, naming the widget and the wait, so a script does not take it for data.
    static func stillLoading(_ screen: RenderedScreen, wait: Double, console: Console) -> Bool {
        guard screen.isLoading else { return false }
        let seconds = wait == wait.rounded() ? String(Int(wait)) : String(wait)
        console.error("\(screen.plugin) was still loading '\(screen.screen)' when --wait \(seconds) (seconds) ran out; give a longer --wait")
        return true
    }

    /// Waits, up to a limit, while the widget shows that it is loading.
    static func settle(_ session: WidgetSession, seconds: Double) {
        let deadline = Clock.now + seconds
        session.settleEvents()
        while let screen = session.render(), screen.isLoading, Clock.now < deadline {
            session.wakeup.wait(seconds: min(0.25, deadline - Clock.now))
            session.settleEvents()
        }
    }

    /// `retrieve,update=250.00,back,widget://...` into intents, parsed here
    /// once. A malformed link fails when its turn comes, as an action the
    /// widget refuses does: the actions before it still run.
    static func parseActions(_ text: String?) throws(UsageError) -> [Result<Intent, DeepLinkError>] {
        guard let text else { return [] }
        return try text.split(separator: ",", omittingEmptySubsequences: false).map { (item) throws(UsageError) -> Result<Intent, DeepLinkError> in
            // A deep link keeps its query: widget://trips/booking?id=B-1 is one action.
            let parts = item.hasPrefix("widget://") ? [item] : item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard !parts[0].isEmpty else { throw UsageError("--actions has an empty action in '\(text)'") }
            return Result { () throws(DeepLinkError) -> Intent in try Intent(parsing: String(parts[0]), value: parts.count == 2 ? String(parts[1]) : nil) }
        }
    }

    static func seconds(_ text: String?, default value: Double) throws(UsageError) -> Double {
        guard let text else { return value }
        guard let seconds = Double(text), seconds >= 0, seconds <= 3600 else { throw UsageError("expected a number of seconds, not '\(text)'") }
        return seconds
    }
}

extension Optional {
    func orThrow<E: Error>(_ error: E) throws(E) -> Wrapped {
        guard let value = self else { throw error }
        return value
    }
}
