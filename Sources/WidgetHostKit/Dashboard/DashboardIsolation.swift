/// Where each card's widget runs. A hang must never freeze the dashboard,
/// so a plugin that did not ship with the host (its file is not in the
/// host's own directory) runs isolated, in a sandboxed child whose calls
/// have deadlines; the shipped ones run in the host's process, which costs
/// no child. A card's `"isolated"` in the configuration decides for its
/// widget either way, and `--isolate` isolates every one.
struct DashboardIsolation {
    let launcher: WidgetLauncher
    static let renderDeadline = 2.0

    init(cli: WidgetHostCLI, settings: IsolationSettings, spec: DashboardSpec, plugins: [PluginCandidate]) {
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
        // A card is a glance: a render that takes longer holds the whole
        // dashboard (calls are made one at a time), so it is cut short sooner.
        isolatedSettings.deadlines[.render] = min(settings.deadlines[.render] ?? Self.renderDeadline, Self.renderDeadline)
        let isolated = IsolatedLauncher(executable: cli.executable, settings: isolatedSettings, environment: cli.environment).launcher
        let everyone = settings.mode == .always
        launcher = { candidate, runtime in
            let shipped = shippedDirectory.map { FileSystem.directory(of: candidate.path) == $0 } ?? false
            let wanted = candidate.manifest.flatMap { chosen[$0.id] } ?? (everyone || !shipped)
            return try (wanted ? isolated : inProcess)(candidate, runtime)
        }
    }
}
