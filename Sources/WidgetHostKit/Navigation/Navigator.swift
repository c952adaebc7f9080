
/// One screen on the navigation stack.
public struct NavigationEntry: Equatable, Sendable {
    public let plugin: PluginID
    public let screen: String
    public let params: JSONValue
}

/// A bus subscriber holding the stack of screens. It handles `nav.push`,
/// `nav.pop`, `nav.replace` and `nav.root`; after each change it publishes
/// `nav.changed` with the new top, and for a request it cannot honour
/// (an unknown plugin or screen, a malformed link, popping the last screen)
/// it publishes `nav.error` and leaves the stack as it was.
public final class Navigator: Sendable {
    public typealias Catalog = @Sendable (String) -> Manifest?

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

    /// Starts listening on the bus.
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

    func handle(_ event: BusEvent) {
        if event.topic == "nav.pop" {
            let popped = entries.withLock { stack -> Bool in
                guard stack.count > 1 else { return false }
                stack.removeLast()
                return true
            }
            return popped ? changed() : refuse(event, "cannot pop the last screen")
        }
        let entry: NavigationEntry
        do {
            entry = try Self.request(in: event, resolvedBy: resolve)
        } catch {
            return refuse(event, "\(error)")
        }
        entries.withLock { stack in
            switch event.topic {
            case "nav.push": stack.append(entry)
            case "nav.replace": if stack.isEmpty { stack = [entry] } else { stack[stack.count - 1] = entry }
            default: stack = [entry]
            }
        }
        changed()
    }

    /// The screen an event asks for. The host's own requests carry it as a
    /// value, resolved (the session's) or parsed from a plugin's link (the
    /// navigator service's), so that only what came as JSON is parsed.
    private static func request(
        in event: BusEvent, resolvedBy resolve: (NavigationTarget) throws(NavigationError) -> NavigationEntry
    ) throws -> NavigationEntry {
        switch event.value {
        case let entry as NavigationEntry: return entry
        case let target as NavigationTarget: return try resolve(target)
        default:
            let json: JSONValue
            do { json = try JSONParser.parse(event.payload) } catch { throw NavigationError("payload is not JSON") }
            return try resolve(try NavigationTarget(json: json))
        }
    }

    /// The entry for a target, checked against the loaded plugins.
    public func resolve(_ target: NavigationTarget) throws(NavigationError) -> NavigationEntry {
        guard let manifest = catalog(target.plugin) else { throw NavigationError("unknown plugin '\(target.plugin)'") }
        let screen = target.screen ?? manifest.screens[0].id
        guard manifest.screens.contains(where: { $0.id == screen }) else {
            throw NavigationError("\(manifest.id) has no screen '\(screen)'")
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
