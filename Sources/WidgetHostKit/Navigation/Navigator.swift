
/// One screen on the navigation stack.
public struct NavigationEntry: Equatable, Sendable {
    public let plugin: PluginID
    public let screen: String
    public let params: JSONValue
}

/// The stack of screens. The session moves it by calling `apply`; plugins
/// move it through the bus (the navigator service publishes `nav.push`,
/// `nav.pop`, `nav.replace` and `nav.root`), which `start` subscribes to.
/// After each change it publishes `nav.changed` with the new top. A move it
/// cannot make (an unknown plugin or screen, a malformed link, popping the
/// last screen) leaves the stack as it was: `apply` throws why, and a bus
/// request gets `nav.error` instead, as its sender is not waiting.
public final class Navigator: Sendable {
    public typealias Catalog = @Sendable (String) -> Manifest?

    /// A change of the stack, its screen already resolved.
    public enum Move: Equatable, Sendable {
        case push(NavigationEntry)
        case replace(NavigationEntry)
        case root(NavigationEntry)
        case pop
    }

    private let bus: Bus
    private let catalog: Catalog
    private let entries = Locked<[NavigationEntry]>([])
    private let subscriptions = Locked<[Bus.Subscription]>([])

    public static let topics = ["nav.push", "nav.pop", "nav.replace", "nav.root"]

    /// `catalog` finds a loaded plugin's manifest by full id or last segment.
    public init(bus: Bus, catalog: @escaping Catalog) {
        self.bus = bus
        self.catalog = catalog
    }

    /// Starts listening on the bus for plugins' requests.
    public func start() {
        let subscribed = Self.topics.compactMap { topic in
            try? bus.subscribe(topic) { [weak self] event in self?.handle(event) }
        }
        subscriptions.withLock { $0 += subscribed }
    }

    deinit {
        for subscription in subscriptions.withLock({ $0 }) { bus.unsubscribe(subscription) }
    }

    public var stack: [NavigationEntry] { entries.withLock { $0 } }
    public var top: NavigationEntry? { stack.last }

    /// Moves the stack and publishes `nav.changed`, or throws why not.
    public func apply(_ move: Move) throws(NavigationError) {
        let moved = entries.withLock { stack -> Bool in
            switch move {
            case let .push(entry): stack.append(entry)
            case let .replace(entry): if stack.isEmpty { stack = [entry] } else { stack[stack.count - 1] = entry }
            case let .root(entry): stack = [entry]
            case .pop:
                guard stack.count > 1 else { return false }
                stack.removeLast()
            }
            return true
        }
        guard moved else { throw NavigationError("cannot pop the last screen") }
        changed()
    }

    /// A plugin's request from the bus.
    func handle(_ event: BusEvent) {
        do { try apply(try move(for: event)) } catch { refuse(event, "\(error)") }
    }

    /// The move a bus event asks for. The navigator service sends the link
    /// it parsed as a value, so that only what came as JSON is parsed.
    private func move(for event: BusEvent) throws -> Move {
        if event.topic == "nav.pop" { return .pop }
        let target: NavigationTarget
        if let parsed = event.value as? NavigationTarget {
            target = parsed
        } else {
            let json: JSONValue
            do { json = try JSONParser.parse(event.payload) } catch { throw NavigationError("payload is not JSON") }
            target = try NavigationTarget(json: json)
        }
        let entry = try resolve(target)
        switch event.topic {
        case "nav.push": return .push(entry)
        case "nav.replace": return .replace(entry)
        default: return .root(entry)
        }
    }

    /// The entry for a target, checked against the loaded plugins.
    public func resolve(_ target: NavigationTarget) throws(NavigationError) -> NavigationEntry {
        guard let manifest = catalog(target.plugin) else { throw NavigationError("unknown plugin '\(target.plugin)'") }
        let screen = target.screen ?? manifest.screens[0].id
        guard manifest.screens.contains(where: { $0.id == screen }) else {
            throw NavigationError("\(manifest.id) has no screen '\(screen)'")
        }
        // Every way to a screen (--screen, a link, a served address, a plugin's nav.push) comes here: a reserved
        // name such as widget-host.size would have the plugin draw the host's card instead of the screen asked for.
        if let reserved = target.params.first(where: { $0.0.hasPrefix(DeclaredActions.hostPrefix) }) {
            throw NavigationError("the parameter '\(reserved.0)' is the host's to set: names starting \(DeclaredActions.hostPrefix) are reserved")
        }
        // A JSON object with a name twice is no object to a plugin's parser, and an isolated child's reader takes it for a
        // broken protocol and ends the widget: `?id=1&id=2` in a served address must not stop it.
        var names = Set<String>()
        if let repeated = target.params.first(where: { !names.insert($0.0).inserted }) {
            throw NavigationError("the parameter '\(repeated.0)' is given twice; give each parameter once")
        }
        return NavigationEntry(plugin: manifest.id, screen: screen, params: .object(target.params.map { ($0.0, .string($0.1)) }))
    }

    private func changed() {
        guard let top else { return }
        let payload: JSONValue = ["plugin": .string(top.plugin.value), "screen": .string(top.screen), "params": top.params,
                                  "depth": .number(String(stack.count))]
        bus.enqueue(BusEvent(topic: "nav.changed", payload: payload.serialized))
    }

    private func refuse(_ event: BusEvent, _ reason: String) {
        let payload: JSONValue = ["request": .string(event.topic), "reason": .string(reason)]
        bus.enqueue(BusEvent(topic: "nav.error", payload: payload.serialized))
    }
}

public struct NavigationError: Error, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
