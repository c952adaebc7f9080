import Glibc

/// `widget-host serve`: the dashboard as a web page on a local address,
/// live through Server-Sent Events, until interrupted.
enum ServeCommand {
    static let options: [Option] = [
        .value("--bind", "ADDR", "the IPv4 address to listen on (default 127.0.0.1; any other is reachable by others: a warning says so)"),
        .value("--port", "N", "the port (default 8787; 0 picks a free one)"),
        .flag("--open", "open the address in the user's browser (xdg-open)"),
        .value("--address-file", "PATH", "also write the address (with its secret) to PATH, for scripts"),
        DashboardCommand.columns,
    ] + LaunchCommand.sessionOptions

    static let command = Command(
        name: "serve",
        summary: "the dashboard as a live web page on a local address, with a secret",
        operands: [],
        options: options,
        notes: """
            The address printed carries a random secret; every request needs it (the browser keeps it in a
            SameSite=Strict cookie). Only the Host named in the address is answered. See docs/browser.md.
            """,
        run: { cli, arguments in try run(cli, arguments) }
    )

    static func run(_ cli: WidgetHostCLI, _ arguments: Arguments) throws -> Int32 {
        let bind = arguments.value("--bind") ?? "127.0.0.1"
        let port = try arguments.value("--port").map { (text) throws(UsageError) -> Int in
            guard let number = Int(text), (0...65535).contains(number) else { throw UsageError("--port takes a number from 0 to 65535, not '\(text)'") }
            return number
        } ?? 8787
        let columns = try DashboardCommand.columnCount(arguments)
        var probe = in_addr()
        guard inet_pton(AF_INET, bind, &probe) == 1 else { throw UsageError("--bind takes an IPv4 address such as 127.0.0.1, not '\(bind)'") }
        guard let secret = WebGate.randomSecret() else {
            cli.console.error("no random bytes for the secret (/dev/urandom)")
            return ExitStatus.failure
        }
        let runtime = try cli.runtime(arguments)
        let config = runtime.resolve(HostConfig.self)
        let report = cli.scan(arguments, config: config)
        let settings = try cli.isolationSettings(arguments, config: config)
        let usable = report.plugins.filter { $0.status == .ok && $0.manifest != nil }
        var spec = try DashboardConfig.spec(config, manifests: usable.compactMap(\.manifest))
        spec.columns = columns ?? spec.columns
        let launcher = DashboardIsolation(cli: cli, settings: settings, spec: spec, plugins: usable).launcher
        let session = WidgetSession(runtime: runtime, plugins: report.plugins, launcher: launcher)
        let dashboard = Dashboard(session: session, spec: spec, cache: CardCache(environment: cli.environment), clock: runtime.resolve(HostClock.self),
                                  replacingShipped: report.shadowedIDs(in: cli.executableDirectory))

        let box = AppBox()
        let server: HTTPServer
        do {
            server = try HTTPServer(address: bind, port: port) { request in box.app?.handle(request) ?? .text(503, "starting") }
        } catch {
            cli.console.error("cannot listen on \(bind):\(port): \(error)")
            return ExitStatus.failure
        }
        let host = "\(bind):\(server.port)"
        let app = WebApp(dashboard: dashboard, gate: WebGate(secret: secret, host: host), columns: spec.columns)
        app.withDashboard {
            session.settleEvents()
            dashboard.cards.indices.forEach(dashboard.render)
        }
        box.app = app
        if bind != "127.0.0.1" {
            cli.console.error("warning: listening on \(bind), not only this machine: anyone who can reach it and learns the address can use your widgets")
        }
        // Watching before the address is given out: a write made once a
        // client has it reaches the client.
        let watcher = StoreWatcher(store: runtime.resolve(SharedStore.self), bus: runtime.resolve(Bus.self))
        watcher.start()
        defer { watcher.stop() }
        let address = "http://\(host)/?\(WebGate.parameter)=\(secret)"
        if let path = arguments.value("--address-file") {
            let temporary = path + ".\(getpid()).tmp"
            do {
                try FileSystem.write(Array((address + "\n").utf8), to: temporary, mode: 0o600)
                guard rename(temporary, path) == 0 else { throw SystemError(code: errno) }
            } catch {
                unlink(temporary)
                cli.console.error("cannot write \(path): \(error)")
                return ExitStatus.failure
            }
        }
        cli.console.out("Open \(address)\n(Ctrl-C stops the server)\n")
        if arguments.has("--open") { openInBrowser(address, cli) }

        // Sleep until a widget asks to be drawn or a card's time comes; nothing else wakes this loop.
        while true {
            let timeout = app.withDashboard { dashboard.nextDue() }.map { Double(max($0 - DashboardLoop.now(dashboard), 0)) / 1000 }
            session.wakeup.wait(seconds: timeout ?? 3600)
            app.update([])
        }
    }

    private static func openInBrowser(_ address: String, _ cli: WidgetHostCLI) {
        var pid = pid_t()
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("xdg-open"), strdup(address), nil]
        defer { argv.forEach { free($0) } }
        if posix_spawnp(&pid, "xdg-open", nil, nil, argv, environ) != 0 {
            cli.console.error("could not run xdg-open; open the address yourself")
        }
    }

    private final class AppBox: @unchecked Sendable { var app: WebApp? }
}
