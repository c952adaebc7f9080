/// `widget-host timeline ID`: prints a widget's timeline, the entries it
/// will show and from when. The host cannot know a plugin's entries: a
/// widget with a timeline declares a screen named `timeline` whose view
/// lists them (printed as text), and answers the `timeline` query (plugin.h)
/// with them as data (printed by `--json`, each entry's date and data).
/// `--screen-json` prints the rendered screen as `launch --format json` does.
enum TimelineCommand {
    static let screen = "timeline"

    static let command = Command(
        name: "timeline",
        summary: "print a widget's timeline: the entries it will show, with their dates",
        operands: [Operand(name: "ID|NAME", help: "the widget: a full id, the last part of one (trips) or its display name; "
                               + "it must declare a 'timeline' screen",
                           completion: .plugin)],
        options: [.flag("--json", "print the entries as JSON: each entry's date and data (the widget's answer to the timeline query)"),
                  .flag("--screen-json", "print the rendered timeline screen as JSON, as launch --format json does"),
                  .now("the time to build the timeline at, such as 2026-06-10T09:00:00Z"),
                  .wait("how long to wait for a loading widget (default \(Int(LaunchCommand.defaultWait)))")] + Option.configuration + Option.search,
        run: { cli, arguments in
            guard let name = arguments.positionals.first else { throw UsageError("timeline needs a widget id or name") }
            let wait = try LaunchCommand.seconds(arguments.value("--wait"), default: LaunchCommand.defaultWait)
            let runtime = try cli.runtime(arguments)
            let report = cli.scan(arguments, config: runtime.resolve(HostConfig.self))
            let session = WidgetSession(runtime: runtime, plugins: report.plugins)
            guard let manifest = LaunchCommand.usablePlugin(cli, named: name, in: report.plugins) else { return 1 }
            if arguments.has("--json") {
                return try printEntries(cli, session, manifest, wait: wait, now: runtime.resolve(HostClock.self).nowMilliseconds)
            }
            guard manifest.screens.contains(where: { $0.id == screen }) else {
                cli.console.error("\(manifest.id) has no timeline: its manifest declares no '\(screen)' screen")
                return ExitStatus.failure
            }
            try session.open(NavigationTarget(plugin: manifest.id.value, screen: screen))
            LaunchCommand.settle(session, seconds: wait)
            guard let rendered = session.render() else { return 1 }
            if arguments.has("--screen-json") {
                guard case let .object(members) = ScreenFormat.json(rendered, stack: session.navigator.stack) else { return 1 }
                let now = JSONValue.number(String(runtime.resolve(HostClock.self).nowMilliseconds))
                cli.console.line(JSONValue.object(members + [("now_ms", now)]).serialized)
            } else {
                cli.console.out(ScreenFormat.text.present(rendered, stack: session.navigator.stack, renderer: LaunchCommand.renderer(cli)))
            }
            if case .failure = rendered.view { return 1 }
            if LaunchCommand.stillLoading(rendered, wait: wait, console: cli.console) { return 1 }
            return ExitStatus.success
        }
    )

    /// `--json`: the widget's answer to the `timeline` query, asked again
    /// while it says it is still loading (up to `wait`), with the plugin's id
    /// and the clock's time added.
    private static func printEntries(_ cli: WidgetHostCLI, _ session: WidgetSession, _ manifest: Manifest,
                                     wait: Double, now: Int64) throws -> Int32 {
        try session.open(NavigationTarget(plugin: manifest.id.value, screen: nil))
        let deadline = Clock.now + wait
        while true {
            session.settleEvents()
            do {
                guard let answer = try session.query(screen, of: manifest.id) else {
                    cli.console.error("\(manifest.id) answers no timeline query, so its entries cannot be given as data; "
                        + "--screen-json prints its rendered timeline screen")
                    return ExitStatus.failure
                }
                guard case let .object(members) = answer else {
                    cli.console.error("the timeline of \(manifest.id.shortName) is not a JSON object")
                    return ExitStatus.failure
                }
                let head: [(String, JSONValue)] = [("plugin", .string(manifest.id.value)), ("now_ms", .number(String(now)))]
                cli.console.line(JSONValue.object(head + members.filter { $0.0 != "plugin" && $0.0 != "now_ms" }).serialized)
                return ExitStatus.success
            } catch {
                // A widget still loading its data refuses the query; it may answer once loaded.
                guard Clock.now < deadline else {
                    cli.console.error("\(error) (after --wait \(wait) seconds)")
                    return ExitStatus.failure
                }
                session.wakeup.wait(seconds: min(0.1, max(deadline - Clock.now, 0)))
            }
        }
    }
}
