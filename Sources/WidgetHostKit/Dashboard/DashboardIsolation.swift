/// Where each card's widget runs. A hang must never freeze the dashboard,
/// so a plugin that did not ship with the host (its file is not in the
/// host's own directory) runs isolated, in a sandboxed child whose calls
/// have deadlines and are made off the dashboard's thread, one queue per
/// widget (`OffThreadInstance`); the shipped ones run in the host's process, which costs
/// no child. A card's `"isolated"` in the configuration decides for its
/// widget either way, and `--isolate` isolates every one.
struct DashboardIsolation {
    let launcher: WidgetLauncher
    /// On while the grid shows: then isolated widgets answer when they can.
    let calls = OffThreadCalls()
    /// The thread that makes this: the session's (`WidgetSession(owner:)`), which answers the cards' contracts.
    let owner = OwnerThread()
    static let renderDeadline = 2.0

    init(cli: WidgetHostCLI, settings: PluginRunSettings, spec: DashboardSpec, plugins: [PluginCandidate]) {
        var chosen: [PluginID: Bool] = [:]
        let manifests = plugins.compactMap(\.manifest)
        for card in spec.cards {
            guard let isolated = card.isolated, case let .found(id) = PluginNames.resolve(card.widget, among: manifests) else { continue }
            chosen[id] = isolated
        }
        let shippedDirectory = cli.executableDirectory
        let inProcess = launchInProcess(maxEventsPerSecond: settings.maxEventsPerSecond)
        var isolatedSettings = settings
        isolatedSettings.mode = .always
        // A card is a glance: a widget that takes longer to draw one is
        // not responding, and is stopped (and restarted) sooner.
        isolatedSettings.deadlines[.render] = min(settings.deadlines[.render] ?? Self.renderDeadline, Self.renderDeadline)
        let isolated = IsolatedLauncher(executable: cli.executable, settings: isolatedSettings, environment: cli.environment).launcher
        let everyone = settings.mode == .always
        let calls = self.calls, owner = self.owner
        launcher = { candidate, runtime in
            let shipped = shippedDirectory.map { FileSystem.directory(of: candidate.path) == $0 } ?? false
            let wanted = candidate.manifest.flatMap { chosen[$0.id] } ?? (everyone || !shipped)
            guard wanted else { return try inProcess(candidate, runtime) }
            return OffThreadInstance(name: candidate.manifest?.id.value ?? candidate.path, calls: calls, owner: owner) { try isolated(candidate, runtime) }
        }
    }
}
