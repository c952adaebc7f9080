import Foundation
import Glibc
import PluginABI
import PluginKit
import WidgetHostKit

/// How much work each measurement does: the full run for the README's
/// table, or a quick smoke run for the tests.
struct Effort {
    let quick: Bool
    var pluginCounts: [Int] { quick ? [10] : [10, 100, 1000, 10_000] }
    var samples: Int { quick ? 3 : 9 }
    var children: Int { quick ? 2 : 7 }
    var iterations: Int { quick ? 200 : 100_000 }
}

enum Bench {
    static func runtime() -> HostRuntime {
        HostRuntime(storeDirectory: NSTemporaryDirectory() + "widget-host-bench-store-\(getpid())", log: HostLog(threshold: .error))
    }

    static var productsDirectory: String {
        (Children.readLink("/proc/self/exe") as NSString).deletingLastPathComponent
    }
}

extension Children {
    static func readLink(_ path: String) -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? path
    }
}

/// 1. Discovery: listing N plugins, against dlopen + dlsym of the same files.
func discoveryBench(_ farm: PluginFarm, _ effort: Effort) throws -> [Measurement] {
    var rows: [Measurement] = []
    let services = Bench.runtime().serviceIDs
    let widgetHost = Bench.productsDirectory + "/widget-host"
    let empty = farm.root + "/empty"
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    let listBase = try Measure.median(samples: effort.children) { try wallTime([widgetHost, "list", "--plugin-dir", empty, "--json"]) }
    for count in effort.pluginCounts {
        let directory = try farm.plugins(count: count)
        let path = SearchPath(directories: [.init(path: directory, origin: "bench", explicit: true)])
        let floor = try Measure.median(samples: effort.children) { try Children.run("__dlopen", [directory])[0] }
        // First scan: every file read. Warm: the same host scanning again
        // with its cache, as a long-running host does on a directory change.
        let first = Measure.median(samples: effort.samples) {
            let start = Measure.nanoseconds()
            let report = Discovery(availableServices: services).scan(path)
            let elapsed = Double(Measure.nanoseconds() - start) / Double(count)
            return report.usable.count == count ? elapsed : .nan
        }
        let discovery = Discovery(availableServices: services, cache: DiscoveryCache())
        _ = discovery.scan(path)
        let warm = Measure.median(samples: effort.samples) {
            let start = Measure.nanoseconds()
            let report = discovery.scan(path)
            let elapsed = Double(Measure.nanoseconds() - start) / Double(count)
            return report.usable.count == count ? elapsed : .nan
        }
        // The whole command, against the same command listing nothing: a
        // per-plugin difference of two noisy process times went negative.
        let cold = try Measure.median(samples: effort.children) {
            try wallTime([widgetHost, "list", "--plugin-dir", directory, "--json"])
        }
        rows.append(Measurement(group: "discovery", name: "warm listing, N=\(count)", value: warm, unit: "ns/plugin",
                        baseline: ("dlopen+dlsym", floor), goal: 0.05))
        rows.append(Measurement(group: "discovery", name: "first listing in a process, N=\(count)", value: first, unit: "ns/plugin",
                        baseline: ("dlopen+dlsym", floor)))
        rows.append(Measurement(group: "discovery", name: "cold listing (new process), N=\(count)", value: cold / 1e6, unit: "ms",
                        baseline: ("list with no plugins", listBase / 1e6)))
    }
    return rows
}

/// 2. Load: dlopen plus the handshake, against a raw dlopen + dlsym.
func loadBench(_ effort: Effort) throws -> [Measurement] {
    try ["libCryptoPlugin.so", "libCheckoutPlugin.so", "libTripsPlugin.so"].map { file in
        let path = Bench.productsDirectory + "/" + file
        let load = try Measure.median(samples: effort.children) { try Children.run("__load", [path])[0] }
        let raw = try Measure.median(samples: effort.children) { try Children.run("__load", [path, "raw"])[0] }
        return Measurement(group: "load", name: "load + handshake, \(file)", value: load / 1000, unit: "µs",
                   baseline: ("dlopen+dlsym", raw / 1000))
    }
}

/// 3. The C-ABI call path, against direct Swift calls; and the view
/// description's encoding and decoding.
func callBench(_ farm: PluginFarm, _ effort: Effort) throws -> [Measurement] {
    let path = farm.root + "/noop.so"
    try farm.compile("noop.c", to: path)
    let runtime = Bench.runtime()
    let candidate = Discovery(availableServices: runtime.serviceIDs).inspect(path: path)
    guard let manifest = candidate.manifest else { throw BenchError("noop: \(candidate.status)") }
    let plugin = try Loader.load(path: path, manifest: manifest, serviceIDs: runtime.serviceIDs)
    let instance = try PluginInstance(plugin: plugin, runtime: runtime)

    let n = effort.iterations
    let render = Measure.perIteration(iterations: n, samples: effort.samples) { _ = try? instance.render(screen: "main") }
    let directRender = Measure.perIteration(iterations: n, samples: effort.samples) { _ = DirectWidget.render() }
    let action = Measure.perIteration(iterations: n, samples: effort.samples) { try? instance.handle(action: "tap", value: nil) }
    let directAction = Measure.perIteration(iterations: n, samples: effort.samples) { DirectWidget.handle("tap", nil) }
    // The bare crossing: one call through the descriptor's function pointer
    // with C strings made once, against one non-inlined Swift call.
    let handleAction = plugin.rawDescriptor.handle_action!
    let handle = instance.rawHandle
    let crossing = "tap".withCString { tap in
        Measure.perIteration(iterations: n * 10, samples: effort.samples) { blackHole(handleAction(handle, tap, nil)) }
    }
    // The floor: the same shape of call to a C-convention function the
    // optimiser cannot see through, its result consumed, so it is not
    // optimised away (it printed 0.00 ns when called by name).
    let directCall = DirectWidget.opaqueCHandle()
    let direct = "tap".withCString { tap in
        Measure.perIteration(iterations: n * 10, samples: effort.samples) { blackHole(directCall(tap, nil)) }
    }

    let screen = typicalScreen()
    let bytes = Array(screen.utf8)
    let encode = Measure.perIteration(iterations: n / 10, samples: effort.samples) { _ = typicalScreen() }
    let decode = Measure.perIteration(iterations: n / 10, samples: effort.samples) { _ = try? ViewDescription.parse(bytes) }
    let foundation = Measure.perIteration(iterations: n / 10, samples: effort.samples) {
        _ = try? JSONSerialization.jsonObject(with: Data(bytes))
    }
    return [
        Measurement(group: "abi", name: "render round trip (no-op plugin)", value: render, unit: "ns", baseline: ("direct Swift call", directRender)),
        Measurement(group: "abi", name: "action round trip (no-op plugin)", value: action, unit: "ns", baseline: ("direct Swift call", directAction)),
        Measurement(group: "abi", name: "bare C-ABI call", value: crossing, unit: "ns", baseline: ("direct Swift call", direct),
            note: "overhead \((crossing - direct).figure) ns"),
        Measurement(group: "abi", name: "encode a typical screen (PluginKit DSL)", value: encode, unit: "ns"),
        Measurement(group: "abi", name: "decode + validate a typical screen", value: decode, unit: "ns",
            baseline: ("Foundation JSONSerialization", foundation)),
    ]
}

/// A Swift stand-in for the no-op plugin, called directly.
enum DirectWidget {
    static let view = Array(#"{"view":1,"root":{"kind":"text","text":"ok"}}"#.utf8)

    @inline(never) static func render() -> [UInt8] { Array(view) }
    @inline(never) static func handle(_ action: String, _ value: String?) { blackHole(action.utf8.count + (value?.utf8.count ?? 0)) }
    typealias CHandle = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32

    /// A C function pointer passed through an opaque call, so that calls
    /// through it stay real indirect calls, like the plugin's.
    @inline(never) static func opaqueCHandle() -> CHandle {
        let handle: CHandle = { action, _ in action == nil ? 1 : 0 }
        return withExtendedLifetime(handle) { handle }
    }
}

@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

/// A screen like the crypto widget's: title, price, age, two buttons, a list.
func typicalScreen() -> String {
    VStack {
        Text("Bitcoin").style(.title)
        Text("$43,210.55").color(.positive)
        Text("Updated 12 seconds ago").style(.caption)
        HStack {
            Button("Retrieve", action: "retrieve")
            Link("See Exchanges", to: "widget://crypto/exchanges")
        }
        Section("Exchanges") {
            List(action: "select", rows: [
                PluginKit.Row(id: "coinbase", title: "Coinbase", detail: "$43,211.00", badge: "+0.01%"),
                PluginKit.Row(id: "kraken", title: "Kraken", detail: "$43,205.10", badge: "-0.01%"),
                PluginKit.Row(id: "binance", title: "Binance", detail: "$43,215.40", badge: "+0.02%"),
            ])
        }
    }.screen
}

/// 4. The bus: publish to delivery, against NotificationCenter and a plain
/// loop over closures doing the same work.
func busBench(_ effort: Effort) throws -> [Measurement] {
    var rows: [Measurement] = []
    for subscribers in [1, 10, 100] {
        let counter = Counter()
        let bus = Bus()
        for _ in 0..<subscribers { _ = try bus.subscribe("bench.tick") { _ in counter.increment() } }
        let n = effort.iterations / max(subscribers / 10, 1)

        let center = NotificationCenter()
        let name = Notification.Name("bench.tick")
        let observers = (0..<subscribers).map { _ in center.addObserver(forName: name, object: nil, queue: nil) { _ in counter.increment() } }
        let closures: [Bus.Handler] = (0..<subscribers).map { _ in { _ in counter.increment() } }
        let event = BusEvent(topic: "bench.tick", payload: "{}")
        let samples = Measure.interleaved(iterations: n, samples: effort.samples, [
            { try? bus.publish("bench.tick", payload: "{}") },
            { center.post(name: name, object: nil) },
            { for closure in closures { try? closure(event) } },
        ])
        observers.forEach(center.removeObserver)
        blackHole(counter.value)

        let ours = Measure.median(samples[0]), interleaved = "median of \(samples[0].count) interleaved pairs (range in brackets)"
        rows.append(Measurement(group: "bus", name: "publish→deliver, \(subscribers) subscriber\(subscribers == 1 ? "" : "s")", value: ours,
                                unit: "ns", baseline: ("NotificationCenter", Measure.median(samples[1])), goal: subscribers == 10 ? 0.1 : nil,
                                note: interleaved, paired: Measure.pairedRatio(samples[0], samples[1])))
        rows.append(Measurement(group: "bus", name: "  same, against a loop over closures (near-empty handler)", value: ours, unit: "ns",
                                baseline: ("closure loop", Measure.median(samples[2])), goal: subscribers == 10 ? 1.5 : nil,
                                note: interleaved, paired: Measure.pairedRatio(samples[0], samples[2])))
    }
    return rows
}

/// 4b. A plugin's mailbox: taking an event out when 10,000 wait (the cap)
/// costs what it costs when 100 wait. hostile.c with SELF_FLOOD queues the
/// events to itself in render; pump() delivers them, timed per event.
func mailboxBench(_ farm: PluginFarm, _ effort: Effort) throws -> [Measurement] {
    let runtime = Bench.runtime()
    func perEvent(_ count: Int) throws -> Double {
        let path = farm.root + "/self-flood-\(count).so"
        try farm.compile("hostile.c", to: path, defines: ["-DSELF_FLOOD=\(count)", "-DPLUGIN_ID=\"org.bench.flood\(count)\""])
        let candidate = Discovery(availableServices: runtime.serviceIDs).inspect(path: path)
        guard let manifest = candidate.manifest else { throw BenchError("self-flood: \(candidate.status)") }
        let plugin = try Loader.load(path: path, manifest: manifest, serviceIDs: runtime.serviceIDs)
        let instance = try PluginInstance(plugin: plugin, runtime: runtime, maxEventsPerSecond: 1_000_000)
        return try Measure.median(samples: effort.samples) {
            _ = try instance.render(screen: "main")
            _ = runtime.resolve(Bus.self).waitUntilIdle()
            let start = Measure.nanoseconds()
            let delivered = instance.pump()
            let elapsed = Double(Measure.nanoseconds() - start)
            guard delivered == count else { throw BenchError("self-flood: \(delivered) of \(count) events delivered") }
            return elapsed / Double(count)
        }
    }
    let few = try perEvent(100)
    let many = try perEvent(10_000)
    return [Measurement(group: "bus", name: "mailbox: deliver one of 10,000 waiting events", value: many, unit: "ns",
                        baseline: ("one of 100 waiting", few), goal: 3)]
}

final class Counter: @unchecked Sendable {
    private(set) var value = 0
    func increment() { value &+= 1 }
}

/// 5. The registry: a resolve in each scope, against a locked dictionary lookup.
func registryBench(_ effort: Effort) throws -> [Measurement] {
    // One type per scope, registered without a name: the same key the
    // dictionary baseline uses (a type), so both do the same lookup work.
    final class Service<Scope>: @unchecked Sendable {}
    enum Application {}
    enum Cached {}
    enum Shared {}
    enum Graph {}
    enum Unique {}
    let registry = Registry()
    registry.register(Service<Application>.self, scope: .application) { _ in Service() }
    registry.register(Service<Cached>.self, scope: .cached) { _ in Service() }
    registry.register(Service<Shared>.self, scope: .shared) { _ in Service() }
    registry.register(Service<Graph>.self, scope: .graph) { _ in Service() }
    registry.register(Service<Unique>.self, scope: .unique) { _ in Service() }
    // The floor the goal names: a dictionary lookup under a lock, and the cast.
    let table = WidgetHostKit.Locked<[ObjectIdentifier: Any]>([ObjectIdentifier(Service<Cached>.self): Service<Cached>()])
    let n = effort.iterations
    let dictionary = Measure.perIteration(iterations: n, samples: effort.samples) {
        blackHole(table.withLock { $0[ObjectIdentifier(Service<Cached>.self)] } as! Service<Cached>)
    }
    let keepAlive = try registry.resolve(Service<Shared>.self)
    func measure<T>(_ type: T.Type, _ name: String) -> Measurement {
        let resolve = Measure.perIteration(iterations: n, samples: effort.samples) { blackHole(try? registry.resolve(type)) }
        return Measurement(group: "registry", name: "resolve, \(name) scope", value: resolve, unit: "ns",
                           baseline: ("locked dictionary + cast", dictionary), goal: name == "cached" ? 1.5 : nil)
    }
    defer { blackHole(keepAlive) }
    return [measure(Service<Application>.self, "application"), measure(Service<Cached>.self, "cached"),
            measure(Service<Shared>.self, "shared"), measure(Service<Graph>.self, "graph"), measure(Service<Unique>.self, "unique")]
}

/// 7. Memory: resident memory after loading the three plugins.
func memoryBench() throws -> [Measurement] {
    let files = ["libCryptoPlugin.so", "libCheckoutPlugin.so", "libTripsPlugin.so"]
    let figures = try Children.run("__rss", files.map { Bench.productsDirectory + "/" + $0 })
    guard figures.count == files.count + 1 else { throw BenchError("__rss printed \(figures)") }
    let mib = 1024.0 * 1024
    var rows = [Measurement(group: "memory", name: "resident, host alone", value: figures[0] / mib, unit: "MiB")]
    for (index, file) in files.enumerated() {
        rows.append(Measurement(group: "memory", name: "  + \(file)", value: (figures[index + 1] - figures[index]) / mib, unit: "MiB"))
    }
    rows.append(Measurement(group: "memory", name: "resident, three plugins loaded", value: figures[files.count] / mib, unit: "MiB"))
    return rows
}

/// 8. Start-up: whole commands, against /bin/true and a Swift hello world.
func startupBench(_ farm: PluginFarm, _ effort: Effort) throws -> [Measurement] {
    let widgetHost = Bench.productsDirectory + "/widget-host"
    let trueTime = try Measure.median(samples: effort.children * 2) { try wallTime(["/bin/true"]) }
    let helloSource = farm.root + "/hello.swift", helloBinary = farm.root + "/hello-swift"
    try "print(\"hello\")\n".write(toFile: helloSource, atomically: true, encoding: .utf8)
    // A quick run skips compiling the peer: it is a smoke test, not a measurement.
    let hasHello = !effort.quick && (try? Children.runProcess(["/usr/bin/env", "swiftc", "-O", helloSource, "-o", helloBinary]))?.status == 0
    // `list` runs in turn with its peer, so that both see the same load.
    var lists: [Double] = [], hellos: [Double] = []
    for _ in 0..<effort.children * 2 {
        if hasHello { hellos.append(try wallTime([helloBinary])) }
        lists.append(try wallTime([widgetHost, "list"]))
    }
    let list = Measure.median(lists), hello = hasHello ? Measure.median(hellos) : nil
    let launch = try Measure.median(samples: effort.children * 2) { try wallTime([widgetHost, "launch", "checkout", "--once"]) }
    let peer = hello.map { ("Swift hello world", $0 / 1e6) } ?? ("/bin/true", trueTime / 1e6)
    let paired = hasHello ? Measure.pairedRatio(lists, hellos) : Measure.pairedRatio(lists, lists.map { _ in trueTime })
    let shipped = Instructions.shippedWidgets.filter { access(Bench.productsDirectory + "/" + $0, R_OK) == 0 }.count
    return [Measurement(group: "startup", name: "/bin/true", value: trueTime / 1e6, unit: "ms")]
        + (hello.map { [Measurement(group: "startup", name: "Swift hello world", value: $0 / 1e6, unit: "ms")] } ?? [])
        + [
            Measurement(group: "startup", name: "widget-host list, \(shipped) shipped widgets", value: list / 1e6, unit: "ms", baseline: peer,
                        goal: 1.5, note: "median of \(lists.count) interleaved pairs (range in brackets)", paired: paired),
            Measurement(group: "startup", name: "widget-host launch checkout --once", value: launch / 1e6, unit: "ms", baseline: peer),
        ]
}

/// Wall-clock nanoseconds of one run of a command, started with posix_spawn
/// (Foundation's Process adds milliseconds of its own).
func wallTime(_ arguments: [String]) throws -> Double {
    let start = Measure.nanoseconds()
    let result = try ChildProcess.run(arguments, timeout: 120)
    guard result.termination == .exited(0) else { throw BenchError("\(arguments.joined(separator: " ")): \(result.termination)") }
    return Double(Measure.nanoseconds() - start)
}
