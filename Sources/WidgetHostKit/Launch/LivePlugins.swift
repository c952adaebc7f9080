/// Keeps a running session's plugins in step with its plugin directories:
/// the watcher's thread notes what changed and wakes the interactive loop,
/// whose main thread then rescans (unchanged files cost a stat, thanks to
/// the discovery cache) and hands the result to the session.
final class LivePlugins {
    private let session: WidgetSession
    private let discovery: Discovery
    private let searchPath: SearchPath
    private let restartChanged: Bool
    private let watcher: PluginDirectoryWatcher

    init(cli: WidgetHostCLI, arguments: Arguments, session: WidgetSession, restartChanged: Bool) {
        self.session = session
        var discovery = cli.discovery(arguments)
        discovery.cache = DiscoveryCache()
        self.discovery = discovery
        searchPath = cli.searchPath(arguments)
        self.restartChanged = restartChanged
        let wakeup = session.wakeup
        watcher = PluginDirectoryWatcher(directories: searchPath.directories.map(\.path)) { wakeup.signal() }
        // Warm the cache, so the first change costs a stat per unchanged file.
        _ = discovery.scan(searchPath)
    }

    func start() { watcher.start() }
    func stop() { watcher.stop() }

    /// On the main thread: applies what changed since the last call, if anything.
    func refresh() {
        guard let changed = watcher.takeChanges() else { return }
        let report = discovery.scan(searchPath)
        session.replacePlugins(report.plugins, changedPaths: changed, restartChanged: restartChanged)
    }
}
