import Foundation
import PluginKit
import TripsPlugin
import WidgetHostKit

/// The operations `--instructions` counts, each as its set-up returning the
/// body to repeat. Every body runs through the same closure call, whose cost
/// ("empty") is subtracted from each figure: a row is the operation itself.
enum InstructionOperations {
    static var all: [String: () throws -> () -> Void] { [
        "empty": { return {} },
        "bus10": { try publish(subscribers: 10, payload: "{}", handler: nearEmptyHandler()) },
        "bus100": { try publish(subscribers: 100, payload: "{}", handler: nearEmptyHandler()) },
        // A payload of one field, which the bus must scan.
        "bus10field": { try publish(subscribers: 10, payload: #"{"n":1}"#, handler: nearEmptyHandler()) },
        "bus10realistic": { try publish(subscribers: 10, payload: #"{"n":1}"#, handler: realisticHandler) },
        "closures10": { loop(closures: 10, payload: "{}", handler: nearEmptyHandler()) },
        "closures100": { loop(closures: 100, payload: "{}", handler: nearEmptyHandler()) },
        "closures10realistic": { loop(closures: 10, payload: #"{"n":1}"#, handler: realisticHandler) },
        "borrowed10": { borrowedLoop(count: 10, payload: "{}", handler: nearEmptyHandler()) },
        "borrowed100": { borrowedLoop(count: 100, payload: "{}", handler: nearEmptyHandler()) },
        "borrowed10realistic": { borrowedLoop(count: 10, payload: #"{"n":1}"#, handler: realisticHandler) },
        "notificationcenter10": {
            let center = NotificationCenter()
            let counter = Counter()
            let name = Notification.Name("bench.tick")
            for _ in 0..<10 { _ = center.addObserver(forName: name, object: nil, queue: nil) { _ in counter.increment() } }
            return { center.post(name: name, object: nil) }
        },
        "resolve": {
            let registry = Registry()
            registry.register(CachedService.self, scope: .cached) { _ in CachedService() }
            return { blackHole(try? registry.resolve(CachedService.self)) }
        },
        "resolvename": {
            let registry = Registry()
            registry.register(CachedService.self, name: "primary", scope: .cached) { _ in CachedService() }
            return { blackHole(try? registry.resolve(CachedService.self, name: "primary")) }
        },
        "slot": {
            let registry = Registry()
            registry.register(CachedService.self, scope: .cached) { _ in CachedService() }
            let slot = registry.slot(CachedService.self)
            return { blackHole(try? slot.resolve()) }
        },
        "lockeddictionary": {
            let table = WidgetHostKit.Locked<[ObjectIdentifier: Any]>([ObjectIdentifier(CachedService.self): CachedService()])
            return { blackHole(table.withLock { $0[ObjectIdentifier(CachedService.self)] } as! CachedService) }
        },
        // A warm re-listing of the farm's plugins (WIDGET_HOST_BENCH_DIR),
        // every file already in the discovery cache.
        "warmscan": {
            let directory = ProcessInfo.processInfo.environment["WIDGET_HOST_BENCH_DIR"] ?? "."
            let path = SearchPath(directories: [.init(path: directory, origin: "bench", explicit: true)])
            let discovery = Discovery(availableServices: Bench.runtime().serviceIDs, cache: DiscoveryCache())
            _ = discovery.scan(path)
            return { blackHole(discovery.scan(path).plugins.count) }
        },
        // A first listing of the same farm: no cache, so each file is read
        // and its manifest parsed and checked.
        "coldscan": {
            let directory = ProcessInfo.processInfo.environment["WIDGET_HOST_BENCH_DIR"] ?? "."
            let path = SearchPath(directories: [.init(path: directory, origin: "bench", explicit: true)])
            let discovery = Discovery(availableServices: Bench.runtime().serviceIDs)
            return { blackHole(discovery.scan(path).plugins.count) }
        },
        // An action into the no-op plugin loaded in this process: the host's
        // marks and checks around one C call.
        "inprocessaction": {
            let path = (ProcessInfo.processInfo.environment["WIDGET_HOST_BENCH_DIR"] ?? ".") + "/noop.so"
            let runtime = Bench.runtime()
            guard let manifest = Discovery(availableServices: runtime.serviceIDs).inspect(path: path).manifest else { throw BenchError("noop.so") }
            let instance = try PluginInstance(plugin: try Loader.load(path: path, manifest: manifest, serviceIDs: runtime.serviceIDs), runtime: runtime)
            return { try? instance.handle(action: "tap", value: nil) }
        },
        // Calls into the isolated no-op plugin (WIDGET_HOST_BENCH_DIR/noop.so):
        // the host's side of a render and of an action.
        "isorender": {
            let instance = try isolatedNoop()
            return { _ = try? instance.render(screen: "main", params: [:]) }
        },
        "isoaction": {
            let instance = try isolatedNoop()
            return { try? instance.handle(action: "tap", value: nil) }
        },
        "directcall": {
            let call = DirectWidget.opaqueCHandle()
            return { "tap".withCString { blackHole(call($0, nil)) } }
        },
        // My Trips adapting and rendering a file of bookings (issue 30: per booking, flat to 100,000).
        "trips1000": { tripsTimeline(bookings: 1_000) },
        "trips100000": { tripsTimeline(bookings: 100_000) },
        // The same bytes through our parser and through Foundation's.
        "jsonmanifest": { let bytes = BenchDocuments.manifest; return { blackHole(try? PluginKit.JSONParser.parse(bytes)) } },
        "jsonmanifestfoundation": { let data = Data(BenchDocuments.manifest); return { blackHole(try? JSONSerialization.jsonObject(with: data)) } },
        "jsonbookings": { let bytes = BenchDocuments.bookings; return { blackHole(try? PluginKit.JSONParser.parse(bytes)) } },
        "jsonbookingsfoundation": { let data = Data(BenchDocuments.bookings); return { blackHole(try? JSONSerialization.jsonObject(with: data)) } },
    ] }

    /// Operations that cost a hundred times the others (a listing of 100
    /// plugins, a bookings file) run a hundredth as
    /// often, so that valgrind spends seconds, not minutes, on them.
    static let fewerRuns: [String: Int] = ["jsonbookings": 100, "jsonbookingsfoundation": 100, "warmscan": 100, "coldscan": 100,
                                           "trips1000": 1_000, "trips100000": 21_000]

    /// What the trips rows time: the timeline built from the bookings' JSON and its current screen rendered.
    private static func tripsTimeline(bookings count: Int) -> () -> Void {
        let start: Int64 = 1_780_000_000_000
        let bytes = SyntheticBookings.json(count: count, start: start, seed: 1), now = start + Int64(count / 2) * 3_600_000
        return { blackHole(TripViews.current(TripsTimeline.build(json: bytes, now: now), now: now).screen.utf8.count) }
    }

    final class CachedService: @unchecked Sendable {}

    // Every handler here, on the bus and in its floors, is a `Bus.Handler`
    // (it may throw), as a closure written at `subscribe` is: one that
    // cannot throw would reach the bus wrapped in a conversion thunk, 4
    // instructions a call that no subscriber written in place pays.

    /// The least a subscriber can do that the optimiser cannot remove.
    /// Never inlined: inlined into each operation, it left one of them a
    /// merged copy of the closure's forwarder, which calls the other (5
    /// instructions a call that only that operation paid).
    @inline(never)
    private static func nearEmptyHandler() -> Bus.Handler {
        let counter = Counter()
        return { _ in counter.increment() }
    }

    /// What a subscriber usually does: read the payload.
    private static let realisticHandler: Bus.Handler = { event in
        blackHole((try? PluginKit.JSONParser.parse(event.payload))?["n"]?.int64)
    }

    private static func publish(subscribers: Int, payload: String, handler: @escaping Bus.Handler) throws -> () -> Void {
        let bus = Bus()
        for _ in 0..<subscribers { _ = try bus.subscribe("bench.tick", handler: handler) }
        return { try? bus.publish("bench.tick", payload: payload) }
    }

    /// The floor of a publish: the same handlers called from an array.
    private static func loop(closures count: Int, payload: String, handler: @escaping Bus.Handler) -> () -> Void {
        let closures = [Bus.Handler](repeating: handler, count: count)
        let event = BusEvent(topic: "bench.tick", payload: payload)
        return { for closure in closures { try? closure(event) } }
    }

    /// The strictest floor of a publish (issue 30): each handler kept at its
    /// own type in a class, as the bus keeps its subscribers, and borrowed
    /// from the array's buffer, each subscriber known to be alive, so that
    /// no call retains its closure's context. An array of closures stores
    /// them at the most general abstraction, so each of its calls goes
    /// through a reabstraction thunk and retains the closure's context.
    private static func borrowedLoop(count: Int, payload: String, handler: @escaping Bus.Handler) -> () -> Void {
        let subscribers = ContiguousArray((0..<count).map { _ in Subscriber(handler) })
        let event = BusEvent(topic: "bench.tick", payload: payload)
        return {
            subscribers.withUnsafeBufferPointer { subscribers in
                for index in subscribers.indices {
                    // Guaranteed alive by the array, as the bus tells the compiler: no retain of the handler's context.
                    Unmanaged.passUnretained(subscribers[index])._withUnsafeGuaranteedRef { try? $0.handler(event) }
                }
            }
        }
    }

    private final class Subscriber: Sendable {
        let handler: Bus.Handler
        init(_ handler: @escaping Bus.Handler) { self.handler = handler }
    }

    private static func isolatedNoop() throws -> any WidgetInstance {
        let path = (ProcessInfo.processInfo.environment["WIDGET_HOST_BENCH_DIR"] ?? ".") + "/noop.so"
        let runtime = Bench.runtime()
        var settings = PluginRunSettings()
        settings.mode = .always
        // The child runs from a stripped copy elsewhere: the parent says where the host is.
        let host = ProcessInfo.processInfo.environment["WIDGET_HOST_BENCH_HOST"] ?? Bench.productsDirectory + "/widget-host"
        let launcher = IsolatedLauncher(executable: host, settings: settings,
                                        environment: ProcessInfo.processInfo.environment)
        let instance = try launcher.launch(Discovery(availableServices: runtime.serviceIDs).inspect(path: path), runtime)
        _ = try instance.render(screen: "main", params: [:])
        return instance
    }
}

/// Documents the JSON rows parse: a shipped widget's manifest (Crypto's,
/// the largest) and a bookings file of 100 trips as the Trips widget reads it.
enum BenchDocuments {
    static let manifest = Array("""
        {"abi": "1.0","id": "org.widgethost.crypto","name": "Crypto","version": "0.2.0","vendor": "WidgetHost",\
        "description": "A live Bitcoin price and the exchanges that trade it.","screens": [{"id": "price",\
         "title": "Bitcoin price", "actions": ["retrieve", "exchanges"]},{"id": "exchanges", "title": "Exchanges",\
         "actions": ["refresh", "exchange"]},{"id": "exchange", "title": "Exchange", "actions": ["refresh"]}],\
        "services": {"required": ["widget-host.log/1", "widget-host.clock/1", "widget-host.config/1"],\
         "optional": ["widget-host.http/3", "widget-host.http/2", "widget-host.http/1", "widget-host.navigator/1"]},\
        "topics": {"publish": [], "subscribe": []},"contracts": {"provides": ["org.widgethost.crypto.price/1"]},\
        "http": {"hosts": ["api.coinbase.com", "api.kraken.com", "api.binance.com", "127.0.0.1", "localhost"]}}
        """.utf8)
    static let bookings = SyntheticBookings.json(count: 100, start: 1_780_000_000_000, seed: 1)
}
