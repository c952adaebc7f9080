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
        operands: [Operand(name: "ID|NAME", help: "the widget: a full id, the last part of one (trips) or its display name; it must declare a 'timeline' screen",
                           completion: .plugin)],
        options: [.json, .now("the time to build the timeline at, such as 2026-06-10T09:00:00Z"),
                  .wait("how long to wait for a loading widget (default 15)")] + Option.configuration + Option.search,
        run: { cli, arguments in
            guard let name = arguments.positionals.first else { throw UsageError("timeline needs a widget id or name") }
            let wait = try LaunchCommand.seconds(arguments.value("--wait"), default: 15)
            let runtime = try cli.runtime(arguments)
            let report = cli.scan(arguments, config: runtime.config)
            let session = WidgetSession(runtime: runtime, plugins: report.plugins)
            guard let manifest = LaunchCommand.usablePlugin(cli, named: name, in: report.plugins) else { return 1 }
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
