/// A screen as rendered for a person or a script.
public struct RenderedScreen: Sendable {
    public let plugin: PluginID
    public let screen: String
    public let title: String
    /// The view, or why there is none (the plugin failed, or its
    /// description was refused); either way the host stays up.
    public let view: Result<ViewNode, RenderFailure>

    public var actions: [ScreenAction] { (try? view.get())?.actions ?? [] }

    /// An indeterminate progress node: the widget says it is still loading.
    public var isLoading: Bool {
        guard case let .success(view) = view else { return false }
        return view.containsIndeterminateProgress
    }
}

public struct RenderFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
}

public struct SessionError: Error, Equatable, CustomStringConvertible {
    public let description: String
}

/// The widgets of one `launch` or home screen: the plugins that may be
/// loaded, their instances (made when first shown), and the navigator whose
/// stack says which screen is current. Drive it from one thread (main).
public final class WidgetSession {
    public let runtime: HostRuntime
    public let navigator: Navigator
    public let wakeup = Wakeup()
    private let candidates: [PluginCandidate]
    private var instances: [PluginID: PluginInstance] = [:]
    private var failures: [PluginID: String] = [:]

    public init(runtime: HostRuntime, plugins: [PluginCandidate]) {
        self.runtime = runtime
        let usable = plugins.filter { $0.status == .ok && $0.manifest != nil }
        candidates = usable
        let manifests = usable.map { $0.manifest! }
        navigator = Navigator(bus: runtime.bus) { name in
            manifests.first { $0.id.value == name } ?? {
                let matches = manifests.filter { $0.id.shortName == name }
                return matches.count == 1 ? matches[0] : nil
            }()
        }
        navigator.start()
    }

    public var manifests: [Manifest] { candidates.map { $0.manifest! } }

    /// Opens a plugin's screen as the root of the stack.
    public func open(_ target: NavigationTarget) throws(SessionError) {
        let entry: NavigationEntry
        do { entry = try navigator.resolve(target) } catch { throw SessionError(description: error.description) }
        runtime.bus.enqueue(BusEvent(topic: "nav.root", payload: NavigationTarget(plugin: entry.plugin.value, screen: entry.screen).json.serialized))
        settleEvents()
    }

    public var current: NavigationEntry? { navigator.top }

    /// Renders the current screen. A plugin that cannot load or render gets
    /// an error panel, never a crash of the host.
    public func render() -> RenderedScreen? {
        guard let entry = current else { return nil }
        let title = manifest(entry.plugin)?.screens.first { $0.id == entry.screen }?.title ?? entry.screen
        let view: Result<ViewNode, RenderFailure>
        do {
            let instance = try self.instance(entry.plugin)
            let bytes: [UInt8]
            do { bytes = try instance.render(screen: entry.screen, params: entry.params.serialized) } catch {
                throw SessionError(description: "render failed: \(error)")
            }
            do { view = .success(try ViewDescription.parse(bytes)) } catch { throw SessionError(description: error.description) }
        } catch {
            view = .failure(RenderFailure(description: "\(error)"))
        }
        return RenderedScreen(plugin: entry.plugin, screen: entry.screen, title: title, view: view)
    }

    /// Performs a person's action on the current screen: a plugin action
    /// id (with a value for fields and rows), `back`, or a deep link.
    public func perform(_ action: String, value: String? = nil) throws(SessionError) {
        if action == "back" {
            guard navigator.stack.count > 1 else { throw SessionError(description: "already at the first screen") }
            runtime.bus.enqueue(BusEvent(topic: "nav.pop", payload: "{}"))
        } else if action.hasPrefix("widget://") {
            let target: NavigationTarget
            do { target = try NavigationTarget(link: action) } catch { throw SessionError(description: error.description) }
            do { _ = try navigator.resolve(target) } catch { throw SessionError(description: error.description) }
            runtime.bus.enqueue(BusEvent(topic: "nav.push", payload: target.json.serialized))
        } else {
            guard let entry = current else { throw SessionError(description: "no screen is open") }
            do {
                try instance(entry.plugin).handle(action: action, value: value)
            } catch let error as PluginInstance.CallError {
                throw SessionError(description: "action '\(action)' failed: \(error)")
            } catch {
                throw error as! SessionError
            }
        }
        settleEvents()
    }

    /// Delivers waiting bus events to every instance, until none are left.
    public func settleEvents() {
        var delivered = 1
        while delivered > 0 {
            delivered = instances.values.reduce(0) { $0 + $1.pump() }
        }
    }

    private func manifest(_ id: PluginID) -> Manifest? {
        candidates.first { $0.manifest!.id == id }?.manifest
    }

    private func instance(_ id: PluginID) throws(SessionError) -> PluginInstance {
        if let instance = instances[id] { return instance }
        if let failure = failures[id] { throw SessionError(description: failure) }
        guard let candidate = candidates.first(where: { $0.manifest!.id == id }) else {
            throw SessionError(description: "unknown plugin \(id)")
        }
        do {
            let plugin = try Loader.load(path: candidate.path, manifest: candidate.manifest!, serviceIDs: runtime.serviceIDs)
            let instance = try PluginInstance(plugin: plugin, runtime: runtime)
            let wakeup = self.wakeup
            instance.context.onWake { wakeup.signal() }
            instances[id] = instance
            return instance
        } catch {
            let reason = "\(id) could not start: \(error)"
            failures[id] = reason
            throw SessionError(description: reason)
        }
    }
}

extension ViewNode {
    var containsIndeterminateProgress: Bool {
        switch self {
        case .progress(_, nil): true
        case let .stack(_, children), let .section(_, children): children.contains { $0.containsIndeterminateProgress }
        default: false
        }
    }
}
