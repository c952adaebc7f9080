import Glibc
import HostShim

/// The interactive dashboard: draws the grid, then sleeps until something
/// happens (a key, a widget asking to be drawn, a resize, a plugin or the
/// configuration changing, or the next time a card is due) and redraws
/// only the cards that changed, line by line. Nothing wakes it otherwise.
struct DashboardLoop {
    let cli: WidgetHostCLI
    let arguments: Arguments
    let dashboard: Dashboard
    let spec: DashboardSpec
    let isolation: PluginRunSettings
    /// Isolated widgets answer off this thread while the grid shows.
    let calls: OffThreadCalls
    /// The configuration's live reload, if its file's directory exists.
    var reload: ConfigReload?
    private let input = KeyReader()

    init(cli: WidgetHostCLI, arguments: Arguments, dashboard: Dashboard, spec: DashboardSpec, isolation: PluginRunSettings, calls: OffThreadCalls) {
        self.calls = calls
        self.cli = cli
        self.arguments = arguments
        self.dashboard = dashboard
        self.spec = spec
        self.isolation = isolation
    }

    static let keysHelp = """
        Keys on the dashboard:
          Tab, Shift-Tab, ← ↑ → ↓   move the focus between cards
          1-9                       jump to that card
          Enter                     open the focused widget full screen (b or Esc comes back)
          r                         ask the focused card's widget for fresh data
          e                         edit the focused card's settings (a number edits one; b or Esc comes back)
          l                         the list of widgets (the former home screen)
          q, Ctrl-C                 quit
          A mouse click on a card opens it.
        """

    static let footer = "Tab ←↑→↓ move · 1-9 jump · Enter open · e settings · r refresh · l list · q quit · click opens"

    func run() -> Int32 {
        guard wh_shim_terminal_enter_raw(0) == 0 else { return 1 }
        defer { wh_shim_terminal_restore() }
        calls.enabled = true
        defer { calls.enabled = false }
        let log = dashboard.session.runtime.resolve(HostLog.self)
        let wasOwned = log.screenOwned
        log.screenOwned = true
        defer { log.screenOwned = wasOwned }
        let session = dashboard.session
        // Mouse clicks as SGR reports (xterm 1000 + 1006); the keyboard reaches everything too.
        FileDescriptor.standardOutput.write("\u{1B}[?1000h\u{1B}[?1006h")
        _ = wh_shim_terminal_notify_resize(session.wakeup.writeEnd)
        let watcher = StoreWatcher(store: session.runtime.resolve(SharedStore.self), bus: session.runtime.resolve(Bus.self))
        watcher.start()
        defer { watcher.stop() }
        let live = LivePlugins(cli: cli, arguments: arguments, session: session, restartChanged: isolation.mode == .always)
        live.start()
        defer { live.stop() }

        var screen = DashboardScreen(dashboard: dashboard, environment: cli.environment, columns: spec.columns, footer: Self.footer)
        screen.renderVisible()
        screen.drawAll()
        var quit = false, status = ExitStatus.success
        while !quit {
            var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: session.wakeup.readEnd, events: Int16(POLLIN), revents: 0)]
            let timeout = screen.dashboard.nextDue().map { Int32(clamping: max($0 - Self.now(dashboard), 0)) } ?? -1
            let ready = poll(&fds, 2, timeout)
            if ready < 0 && errno != EINTR { break }
            if fds[1].revents != 0 { session.wakeup.drain() }
            live.refresh()
            if let reload, reload.takeChange() { apply(reload, &screen) }
            if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 { break }
            if fds[0].revents != 0 {
                input.fill()
                while !quit, let key = input.nextKey() {
                    switch screen.handle(key) {
                    case .stay: break
                    case let .quit(code): quit = true; status = code
                    case let .open(index): if let code = open(screen.dashboard.cards[index].manifest, &screen) { quit = true; status = code }
                    case .list: if let code = list(&screen) { quit = true; status = code }
                    case let .settings(index): if let code = settings(screen.dashboard.cards[index].manifest, &screen) { quit = true; status = code }
                    }
                }
            }
            session.settleEvents()
            screen.update(woken: screen.dashboard.wokenCards(), due: screen.dashboard.dueCards())
        }
        return status
    }

    static func now(_ dashboard: Dashboard) -> Int64 { dashboard.session.runtime.resolve(HostClock.self).nowMilliseconds }

    /// The focused widget full screen, as `launch` shows it; its cards wait
    /// meanwhile (nothing offscreen renders). Nil when it came back.
    private func open(_ manifest: Manifest?, _ screen: inout DashboardScreen) -> Int32? {
        guard let manifest else { return nil }
        do { try dashboard.session.open(NavigationTarget(plugin: manifest.id.value, screen: nil)) } catch {
            screen.message = "\(error)"
            screen.drawAll()
            return nil
        }
        return embedded(InteractiveLoop(session: dashboard.session, environment: cli.environment, home: false), &screen)
    }

    /// The former home screen, the widgets as a list.
    private func list(_ screen: inout DashboardScreen) -> Int32? {
        embedded(InteractiveLoop(session: dashboard.session, environment: cli.environment, home: true), &screen)
    }

    /// The settings screen of a card's widget. An edit saved there is
    /// applied at once, as an edit of the file from elsewhere is: the
    /// widgets are given the new configuration and the cards drawn again.
    private func settings(_ manifest: Manifest?, _ screen: inout DashboardScreen) -> Int32? {
        guard let manifest else { return nil }
        let path = arguments.value("--config") ?? HostConfig.defaultPath(cli.environment)
        let page = SettingsScreen(manifest: manifest, manifests: dashboard.session.manifests, path: path)
        calls.enabled = false
        let result = SettingsLoop(screen: page, environment: cli.environment).run()
        calls.enabled = true
        if let code = result.quit { return code }
        if result.changed, let reload { apply(reload, &screen) } else {
            screen.renderVisible()
            screen.drawAll()
        }
        return nil
    }

    /// A new layout from an edited configuration, or the last good one
    /// kept with the reason on screen.
    private func apply(_ reload: ConfigReload, _ screen: inout DashboardScreen) {
        do {
            let spec = try reload.load()
            let clock = dashboard.session.runtime.resolve(HostClock.self)
            let next = Dashboard(session: dashboard.session, spec: spec, cache: CardCache(environment: cli.environment), clock: clock,
                                 replacingShipped: dashboard.replacingShipped)
            let previous = screen
            screen = DashboardScreen(dashboard: next, environment: cli.environment, columns: spec.columns, footer: Self.footer)
            screen.keepFocus(of: previous)
            screen.message = "configuration reloaded"
        } catch {
            screen.message = "\(error.description); keeping the last good layout"
        }
        screen.renderVisible()
        screen.drawAll()
    }

    private func embedded(_ loop: InteractiveLoop, _ screen: inout DashboardScreen) -> Int32? {
        calls.enabled = false
        let result = loop.runInDashboard()
        calls.enabled = true
        guard result.back else { return result.status }
        screen.shownAgain()
        return nil
    }
}
