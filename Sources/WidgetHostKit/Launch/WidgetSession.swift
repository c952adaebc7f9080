import PluginABI

/// The widgets of one `launch` or home screen: the plugins that may be
/// loaded, their instances (made when first shown), and the navigator whose
/// stack says which screen is current. Drive it from one thread (main).
public final class WidgetSession {
    public let runtime: HostRuntime
    public let navigator: Navigator
    public let wakeup = Wakeup()
    private var candidates: [PluginCandidate]
    /// What the navigator resolves names against; replaced with `candidates`.
    private let catalog: ManifestCatalog
    private let launcher: WidgetLauncher
    private var instances: [PluginID: any WidgetInstance] = [:]
    private var failures: [PluginID: String] = [:]
    /// Widgets loaded in process whose file has changed since, by the file's name.
    private var outdated: [PluginID: String] = [:]
    /// Each contract's provider, replaced with `candidates`: asked from any
    /// thread (a plugin's `get_service`), unlike the rest of the session.
    private let contractProviders = Locked<[String: PluginID]>([:])
    /// The widgets that asked to be drawn again since `takeWoken()`; set
    /// from any thread, so a dashboard redraws only their cards.
    private let woken = Locked<Set<PluginID>>([])
    /// The thread that made the session, where contracts asked off it are answered.
    let owner: OwnerThread

    public convenience init(runtime: HostRuntime, plugins: [PluginCandidate], launcher: @escaping WidgetLauncher = launchInProcess) {
        self.init(runtime: runtime, plugins: plugins, launcher: launcher, owner: OwnerThread())
    }

    /// `owner`: made on the thread that drives the session.
    init(runtime: HostRuntime, plugins: [PluginCandidate], launcher: @escaping WidgetLauncher = launchInProcess, owner: OwnerThread) {
        self.owner = owner
        self.runtime = runtime
        self.launcher = launcher
        let usable = plugins.filter { $0.status == .ok && $0.manifest != nil }
        candidates = usable
        let catalog = ManifestCatalog(usable.map { $0.manifest! })
        self.catalog = catalog
        navigator = Navigator(bus: runtime.resolve(Bus.self)) { name in catalog.find(name) }
        navigator.start()
        contractProviders.withLock { $0 = Self.providers(among: usable) }
        runtime.resolve(ContractBroker.self).attach(self)
    }

    /// The first plugin in search-path order that provides each contract, as
    /// the first of two copies of a plugin is the one listed.
    private static func providers(among candidates: [PluginCandidate]) -> [String: PluginID] {
        var providers: [String: PluginID] = [:]
        for manifest in candidates.compactMap(\.manifest) {
            for contract in manifest.providedContracts where providers[contract] == nil { providers[contract] = manifest.id }
        }
        return providers
    }

    /// Takes a new scan of the plugin directories (one changed while the
    /// session runs): new plugins can be opened, vanished ones cannot, and
    /// with `restartChanged` a widget whose file is in `changedPaths` (or
    /// gone) is dropped, so the next render starts the new version. Only an
    /// isolated launcher can do that: an image loaded in process stays.
    public func replacePlugins(_ plugins: [PluginCandidate], changedPaths: Set<String>, restartChanged: Bool) {
        let usable = plugins.filter { $0.status == .ok && $0.manifest != nil }
        for id in Array(instances.keys) + Array(failures.keys) {
            let old = candidates.first { $0.manifest!.id == id }
            let new = usable.first { $0.manifest!.id == id }
            guard old?.path != new?.path || old.map({ changedPaths.contains($0.path) }) == true else { continue }
            if restartChanged {
                instances[id] = nil
                failures[id] = nil
            } else if instances[id] != nil, let old {
                outdated[id] = FileSystem.lastComponent(of: old.path)
            }
        }
        candidates = usable
        catalog.replace(usable.map { $0.manifest! })
        contractProviders.withLock { $0 = Self.providers(among: usable) }
    }

    /// Takes an edited configuration (its file changed while the session
    /// runs): a widget reads its section when it starts, so one whose section
    /// changed is dropped and the next render starts it with the new
    /// settings; the others keep running, and their state.
    public func reconfigure(_ config: HostConfig) {
        let old = runtime.resolve(HostConfig.self)
        guard old != config else { return }
        runtime.registry.register(HostConfig.self, scope: .application) { _ in config }
        for id in Array(instances.keys) + Array(failures.keys) where old.section(for: id) != config.section(for: id) {
            instances[id] = nil
            failures[id] = nil
        }
    }

    public var manifests: [Manifest] { candidates.map { $0.manifest! } }

    /// What to tell a person looking at a widget whose file changed on disk
    /// while its image stays loaded in this process, or nil: an image with
    /// Swift in it can never be unloaded, so the old code keeps running.
    public func outdatedNotice(_ id: PluginID) -> String? {
        outdated[id].map { file in
            "\(file) changed on disk, but this process keeps running the code it loaded. "
                + "To see the change: q, then launch again; or launch with --isolate, which reloads a changed widget."
        }
    }

    /// Opens a plugin's screen as the root of the stack.
    public func open(_ target: NavigationTarget) throws(SessionError) {
        try move(.root(try resolve(target)))
        settleEvents()
    }

    /// Moves the navigator's stack by a direct call: the bus carries only
    /// plugins' requests and the `nav.changed` that follows every move.
    private func move(_ move: Navigator.Move) throws(SessionError) {
        do { try navigator.apply(move) } catch { throw SessionError(description: error.description) }
    }

    private func resolve(_ target: NavigationTarget) throws(SessionError) -> NavigationEntry {
        do { return try navigator.resolve(target) } catch { throw SessionError(description: error.description) }
    }

    public var current: NavigationEntry? { navigator.top }

    /// Renders the current screen. A plugin that cannot load or render gets
    /// an error panel, never a crash of the host.
    public func render() -> RenderedScreen? {
        guard let entry = current else { return nil }
        return render(entry.plugin, screen: entry.screen, params: entry.params)
    }

    /// Renders any screen of a plugin, the navigator's stack aside: what a
    /// dashboard card shows.
    public func render(_ plugin: PluginID, screen: String, params: JSONValue) -> RenderedScreen {
        let entry = (plugin: plugin, screen: screen)
        let title = manifest(entry.plugin)?.screens.first { $0.id == entry.screen }?.title ?? entry.screen
        let view: Result<ViewScreen, RenderFailure>
        do {
            let instance = try self.instance(entry.plugin)
            let bytes: [UInt8]
            do { bytes = try instance.render(screen: entry.screen, params: params) } catch {
                if case let .busy(seconds) = error {
                    let busy = RenderFailure(description: error.description, busySeconds: seconds)
                    return RenderedScreen(plugin: plugin, screen: screen, title: title, view: .failure(busy))
                }
                throw stopIfGone(entry.plugin, error, during: "render")
            }
            do { view = .success(try ViewDescription.parse(bytes)) } catch { throw SessionError(description: error.description) }
        } catch {
            view = .failure(RenderFailure(description: "\(error)"))
        }
        return RenderedScreen(plugin: entry.plugin, screen: entry.screen, title: title, view: view.map(\.root),
                              declaredError: try? view.get().error)
    }

    /// The current widget's answer to the `status` query (plugin.h): its
    /// JSON, nil when the widget answers no status, or why asking failed.
    public func status() throws(SessionError) -> JSONValue? {
        guard let entry = current else { throw SessionError(description: "no screen is open") }
        return try query("status", of: entry.plugin)
    }

    /// A widget's answer to a host-level query (plugin.h), nil when it
    /// answers no such query, or why asking failed.
    public func query(_ id: String, of plugin: PluginID) throws(SessionError) -> JSONValue? {
        let instance = try instance(plugin)
        let bytes: [UInt8]
        do { bytes = try instance.query(id) } catch {
            if error == .status(WH_UNKNOWN_QUERY.rawValue) { return nil }
            throw stopIfGone(plugin, error, during: "\(id) query")
        }
        do { return try JSONParser.parse(bytes) } catch {
            throw SessionError(description: "the \(id) of \(plugin.shortName) is not valid JSON: \(error)")
        }
    }

    /// Does what a person asked of the current screen. Returns false only
    /// for a refresh the widget has nothing for (the screen is drawn anew).
    @discardableResult
    public func perform(_ intent: Intent) throws(SessionError) -> Bool {
        switch intent {
        case .back:
            guard navigator.stack.count > 1 else { throw SessionError(description: "already at the first screen") }
            try move(.pop)
        case let .link(target):
            try move(.push(try resolve(target)))
        case .refresh:
            return try refresh()
        case let .action(action, value):
            guard let entry = current else { throw SessionError(description: "no screen is open") }
            // The C ABI takes both as NUL-terminated text: the plugin would read up to the NUL and take that for all of it.
            if action.utf8.contains(0) || value?.utf8.contains(0) == true {
                throw SessionError(description: "refused action '\(action.replacing("\0", with: "\\0"))': "
                    + "its \(action.utf8.contains(0) ? "id" : "value") holds a NUL byte, which a plugin cannot be given")
            }
            // The host's one check of actions, for every plugin: an undeclared one never reaches it.
            if let manifest = manifest(entry.plugin), let refusal = DeclaredActions.refusal(of: action, for: manifest) {
                runtime.resolve(HostLog.self).log(.warning, entry.plugin.value, "refused \(refusal)")
                throw SessionError(description: "refused \(refusal)")
            }
            let instance = try instance(entry.plugin)
            do {
                try instance.handle(action: action, value: value)
            } catch {
                throw stopIfGone(entry.plugin, error, during: "action '\(action)'")
            }
        }
        settleEvents()
        return true
    }

    /// Asks the current widget for fresh data (`WH_ACTION_REFRESH`, the
    /// `r` key): a widget that stopped is started again first. Returns false
    /// when the widget has nothing to refresh (it does not know the action);
    /// either way the next render shows what it has.
    private func refresh() throws(SessionError) -> Bool {
        guard let entry = current else { return false }
        return try refresh(entry.plugin, screen: entry.screen)
    }

    /// Forgets a widget that stopped or failed to start, so the next render
    /// starts it afresh (the `r` key after "widget X stopped"). A running
    /// widget keeps its state.
    public func restartIfStopped(_ id: PluginID) {
        guard failures[id] != nil else { return }
        instances[id] = nil
        failures[id] = nil
    }

    /// A widget whose process stopped is dropped and remembered as stopped;
    /// any other failure is just this call's.
    private func stopIfGone(_ id: PluginID, _ error: WidgetCallError, during call: String) -> SessionError {
        if case let .stopped(reason) = error {
            instances[id] = nil
            let message = "widget \(id.shortName) stopped: \(reason)"
            failures[id] = message
            return SessionError(description: message)
        }
        return SessionError(description: "\(call) failed: \(error)")
    }

    /// The widgets that asked for a render (or stopped) since the last call.
    public func takeWoken() -> Set<PluginID> {
        woken.withLock { ids in
            defer { ids = [] }
            return ids
        }
    }

    /// Whether the widget stopped or could not start (the reason), so that
    /// a card can say so and try again later.
    public func failure(of id: PluginID) -> String? { failures[id] }

    /// Asks a widget for fresh data, as `refresh()` does for the current one.
    public func refresh(_ id: PluginID, screen: String) throws(SessionError) -> Bool {
        restartIfStopped(id)
        let instance = try instance(id)
        do {
            try instance.handle(action: WH_ACTION_REFRESH, value: screen)
        } catch {
            if error == .status(WH_UNKNOWN_ACTION.rawValue) { return false }
            throw stopIfGone(id, error, during: "refresh")
        }
        settleEvents()
        return true
    }

    /// Runs what other threads handed the session's thread (a contract
    /// asked off it), then delivers waiting bus events to every instance,
    /// until none are left.
    public func settleEvents() {
        owner.runPending()
        var delivered = 1
        while delivered > 0 {
            delivered = instances.values.reduce(0) { $0 + $1.pump() }
        }
    }

    /// The manifest of the widget `name` names, from any thread.
    public func manifest(named name: String) -> Manifest? { catalog.find(name) }

    private func manifest(_ id: PluginID) -> Manifest? {
        candidates.first { $0.manifest!.id == id }?.manifest
    }

    private func instance(_ id: PluginID) throws(SessionError) -> any WidgetInstance {
        if let instance = instances[id] { return instance }
        if let failure = failures[id] { throw SessionError(description: failure) }
        guard let candidate = candidates.first(where: { $0.manifest!.id == id }) else {
            throw SessionError(description: "unknown plugin \(id)")
        }
        do {
            let instance = try launcher(candidate, runtime)
            let wakeup = self.wakeup, woken = self.woken
            instance.onWake {
                woken.withLock { _ = $0.insert(id) }
                wakeup.signal()
            }
            instances[id] = instance
            return instance
        } catch {
            let reason = "\(id) could not start: \(error)"
            failures[id] = reason
            throw SessionError(description: reason)
        }
    }
}

/// The session starts and asks the providers of contracts (contract.h), as
/// it starts the widgets it shows: one instance per plugin, whoever uses it.
extension WidgetSession: ContractProviders {
    public func provider(of contract: String) -> PluginID? {
        contractProviders.withLock { $0[contract] }
    }

    /// Asked from any thread; the provider is found (and started) on the
    /// session's own thread (`OwnerThread`), which alone touches its widgets.
    public func answer(_ contract: String, from provider: PluginID) -> Result<[UInt8], ContractFailure> {
        let session = SessionReference(session: self)
        return owner.perform(signal: wakeup.signal) { session.session.answerOnOwner(contract, from: provider) }
            ?? .failure(.unavailable("the host was busy for \(Int(OwnerThread.timeout)) s and did not get to it"))
    }

    private func answerOnOwner(_ contract: String, from provider: PluginID) -> Result<[UInt8], ContractFailure> {
        let instance: any WidgetInstance
        do { instance = try self.instance(provider) } catch { return .failure(.unavailable(error.description)) }
        do {
            return .success(try instance.query(contract))
        } catch {
            if error == .status(WH_UNKNOWN_QUERY.rawValue) { return .failure(.failed("\(provider) does not answer it")) }
            if case .stopped = error { return .failure(.unavailable(stopIfGone(provider, error, during: contract).description)) }
            return .failure(.failed("\(provider) failed to answer: \(error)"))
        }
    }
}

/// A session handed to its own thread by another (`OwnerThread.perform`), which runs it there only.
private struct SessionReference: @unchecked Sendable {
    let session: WidgetSession
}

/// The manifests a session knows, shared with its navigator's catalog
/// lookups on the bus's thread.
private final class ManifestCatalog: Sendable {
    private let manifests: Locked<[Manifest]>

    init(_ manifests: [Manifest]) { self.manifests = Locked(manifests) }

    func replace(_ new: [Manifest]) { manifests.withLock { $0 = new } }

    /// As `PluginNames` resolves a name a person gave.
    func find(_ name: String) -> Manifest? {
        manifests.withLock { manifests in
            guard case let .found(id) = PluginNames.resolve(name, among: manifests) else { return nil }
            return manifests.first { $0.id == id }
        }
    }
}
