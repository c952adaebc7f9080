/// `widget-host dashboard` (and `widget-host` alone on a terminal): every
/// widget as a live card on one screen; with `--once`, every card rendered
/// once and printed, for scripts.
enum DashboardCommand {
    static let options: [Option] = [
        .flag("--once", "render every card once and exit, even on a terminal"),
        .value("--format", "text|json", "with --once: the grid as text (default), or each card as JSON", completion: .words(["text", "json"])),
        .wait("with --once: how long to wait for loading cards (default 15)"),
        columns,
    ] + LaunchCommand.sessionOptions

    /// `--columns`, which `serve` takes too: one declaration and one check, so the two cannot come to disagree.
    static let columns = Option.value("--columns", "N", "at most N grid columns, \(DashboardSpec.columnRange.lowerBound) to "
                                      + "\(DashboardSpec.columnRange.upperBound) (fewer when the terminal or window is narrow)")

    static func columnCount(_ arguments: Arguments) throws(UsageError) -> Int? {
        let range = DashboardSpec.columnRange
        return try arguments.value(columns.name).map { (text) throws(UsageError) -> Int in
            guard let number = Int(text), range.contains(number) else {
                throw UsageError("\(columns.name) takes a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return number
        }
    }

    static let command = Command(
        name: "dashboard",
        summary: "every widget as a live card on one screen (what widget-host alone opens)",
        operands: [],
        options: options,
        notes: DashboardLoop.keysHelp,
        run: { cli, arguments in try run(cli, arguments) }
    )

    static func run(_ cli: WidgetHostCLI, _ arguments: Arguments) throws -> Int32 {
        let format = try ScreenFormat(rawValue: arguments.value("--format") ?? "text").orThrow(UsageError("--format takes text or json"))
        let wait = try LaunchCommand.seconds(arguments.value("--wait"), default: 15)
        let columns = try columnCount(arguments)
        let runtime = try cli.runtime(arguments)
        let config = runtime.resolve(HostConfig.self)
        let report = cli.scan(arguments, config: config)
        let settings = try cli.isolationSettings(arguments, config: config)
        let usable = report.plugins.filter { $0.status == .ok && $0.manifest != nil }
        let configPath = arguments.value("--config") ?? HostConfig.defaultPath(cli.environment)
        var spec: DashboardSpec
        do { spec = try DashboardConfig.spec(config, manifests: usable.compactMap(\.manifest)) } catch {
            cli.console.error(DashboardConfig.located(error, path: configPath))
            return ExitStatus.failure
        }
        spec.columns = columns ?? spec.columns
        let isolation = DashboardIsolation(cli: cli, settings: settings, spec: spec, plugins: usable)
        let session = WidgetSession(runtime: runtime, plugins: report.plugins, launcher: isolation.launcher, owner: isolation.owner)
        // Cards render off this thread: contracts they ask are answered on it.
        session.owner.handsOver.withLock { $0 = true }
        let dashboard = Dashboard(session: session, spec: spec, cache: CardCache(environment: cli.environment), clock: runtime.resolve(HostClock.self),
                                  replacingShipped: report.shadowedIDs(in: cli.executableDirectory))
        let interactive = !arguments.has("--once") && format == .text && Terminal.isTTY(0) && Terminal.isTTY(1)
        if interactive {
            var loop = DashboardLoop(cli: cli, arguments: arguments, dashboard: dashboard, spec: spec, isolation: settings,
                                     calls: isolation.calls)
            loop.reload = ConfigReload(path: configPath, wakeup: session.wakeup) { [cli] () throws(ReloadError) -> DashboardSpec in
                do {
                    let config = try cli.configuration(arguments)
                    var spec = try DashboardConfig.spec(config, manifests: session.manifests)
                    // The widgets see the edit too: those whose settings changed start again with them.
                    session.reconfigure(config)
                    spec.columns = columns ?? spec.columns
                    return spec
                } catch let error as DashboardConfig.Invalid {
                    throw ReloadError(description: DashboardConfig.located(error, path: configPath))
                } catch {
                    throw ReloadError(description: "\(error)")
                }
            }
            return loop.run()
        }
        settle(dashboard, seconds: wait)
        let width = Terminal.width(environment: cli.environment)
        let frame = DashboardFrame(dashboard: dashboard, width: width, columns: spec.columns, color: Terminal.color(environment: cli.environment),
                                   ascii: Terminal.ascii(environment: cli.environment))
        let now = runtime.resolve(HostClock.self).nowMilliseconds
        switch format {
        case .text: cli.console.out(frame.text(of: dashboard, focus: nil, now: now).map { $0 + "\n" }.joined())
        case .json: cli.console.out(json(dashboard, frame: frame, now: now).serialized + "\n")
        }
        // As `launch --once`: widgets are not destroyed, so a fetch past --wait cannot hold the exit up.
        _ = Unmanaged.passRetained(session)
        var failed = false
        for index in dashboard.cards.indices {
            let card = dashboard.cards[index]
            if card.content.view == nil || card.restartAt != nil || card.quarantined {
                cli.console.error("card \(index + 1) (\(card.content.title)) could not render: \(card.content.error ?? "no view")")
                failed = true
            } else if dashboard.isLoading(index) {
                cli.console.error("card \(index + 1) (\(card.content.title)) was still loading when --wait ran out; give a longer --wait")
                failed = true
            }
        }
        return failed ? ExitStatus.failure : ExitStatus.success
    }

    /// Renders every card, then again those whose widgets ask, until none
    /// is loading or the wait runs out.
    static func settle(_ dashboard: Dashboard, seconds: Double) {
        let deadline = Clock.now + seconds
        dashboard.session.settleEvents()
        dashboard.cards.indices.forEach(dashboard.render)
        while dashboard.cards.indices.contains(where: dashboard.isLoading), Clock.now < deadline {
            dashboard.session.wakeup.wait(seconds: min(0.25, deadline - Clock.now))
            dashboard.session.settleEvents()
            for index in Set(dashboard.wokenCards() + dashboard.cards.indices.filter(dashboard.isLoading)).sorted() { dashboard.render(index) }
        }
    }

    static func json(_ dashboard: Dashboard, frame: DashboardFrame, now: Int64) -> JSONValue {
        let cards: [JSONValue] = dashboard.cards.indices.map { index in
            let card = dashboard.cards[index], place = frame.placements[index], content = card.content
            return [
                "number": .number(String(index + 1)),
                "widget": .string(card.manifest?.id.value ?? card.spec.widget),
                "name": .string(content.title),
                "size": .string(card.spec.size.rawValue),
                "position": ["column": .number(String(place.column)), "row": .number(String(place.row)),
                             "columns": .number(String(place.columns)), "rows": .number(String(place.rows))],
                "view": content.view?.json ?? .null,
                "stale": .bool(content.stale),
                "age": content.renderedAt.map { .number(String(max(now - $0, 0) / 1000)) } ?? .null,
                "error": .optional(content.error),
                "notice": .optional(content.notice),
                "cut": .bool(content.cut),
            ]
        }
        return ["width": .number(String(frame.grid.width)), "columns": .number(String(frame.grid.columns)), "cards": .array(cards)]
    }
}
