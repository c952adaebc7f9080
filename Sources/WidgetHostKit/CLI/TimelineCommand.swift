/// `widget-host timeline ID`: prints a widget's timeline, the entries it
/// will show and from when. The host cannot know a plugin's entries, so a
/// widget with a timeline declares a screen named `timeline` whose view
/// lists them; this command renders that screen once, at `--now`, as text
/// or (with `--json`) as the same JSON `launch --format json` prints, plus
/// the clock's time.
enum TimelineCommand {
    static let screen = "timeline"

    static let command = Command(
        name: "timeline",
        summary: "print a widget's timeline: the entries it will show, with their dates",
        usage: "widget-host timeline ID|NAME [--json] [--now ISO8601] [--wait SECONDS] [--set PLUGIN.KEY=VALUE]... [--config FILE] [--plugin-dir DIR]...",
        help: [("ID|NAME", "the widget: a full id or the last part of one (trips); it must declare a 'timeline' screen"),
               CommonOptions.json,
               ("--now ISO8601", "the time to build the timeline at, such as 2026-06-10T09:00:00Z"),
               ("--wait SECONDS", "how long to wait for a loading widget (default 15)")] + LaunchCommand.runtimeHelp
            + [CommonOptions.pluginDir, CommonOptions.allowInsecure],
        spec: ArgumentSpec(flags: CommonOptions.searchFlags.union(["--json"]),
                           options: CommonOptions.searchOptions.union(["--wait"]).union(LaunchCommand.runtimeOptions),
                           maxPositionals: 1),
        run: { cli, arguments in
            guard let name = arguments.positionals.first else { throw UsageError("timeline needs a widget id or name") }
            let wait = try LaunchCommand.seconds(arguments.value("--wait"), default: 15)
            let runtime = try cli.runtime(arguments)
            let report = cli.discovery(arguments).scan(cli.searchPath(arguments))
            report.warnings.forEach { cli.console.error("warning: \($0)") }
            WidgetHostCLI.configWarnings(runtime.config, plugins: report.plugins.compactMap(\.manifest?.id)).forEach { cli.console.error("warning: \($0)") }
            let session = WidgetSession(runtime: runtime, plugins: report.plugins)
            let target = NavigationTarget(plugin: name, screen: nil)
            let manifest: Manifest
            do {
                let entry = try session.navigator.resolve(target)
                manifest = try session.manifests.first { $0.id == entry.plugin }.orThrow(SessionError(description: "unknown plugin \(name)"))
            } catch {
                cli.console.error("\(error)")
                return 1
            }
            guard manifest.screens.contains(where: { $0.id == screen }) else {
                cli.console.error("\(manifest.id) has no timeline: its manifest declares no '\(screen)' screen")
                return 1
            }
            try session.open(NavigationTarget(plugin: manifest.id.value, screen: screen))
            LaunchCommand.settle(session, seconds: wait)
            guard let rendered = session.render() else { return 1 }
            if arguments.has("--json") {
                guard case let .object(members) = ScreenFormat.json(rendered, stack: session.navigator.stack) else { return 1 }
                let now = JSONValue.number(String(runtime.clock.nowMilliseconds))
                cli.console.line(JSONValue.object(members + [("now_ms", now)]).serialized)
            } else {
                cli.console.out(ScreenFormat.text.present(rendered, stack: session.navigator.stack, renderer: LaunchCommand.renderer(cli)))
            }
            if case .failure = rendered.view { return 1 }
            if LaunchCommand.stillLoading(rendered, wait: wait, console: cli.console) { return 1 }
            return 0
        }
    )
}
