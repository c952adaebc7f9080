import Foundation
import Glibc
import PluginABI
import WidgetHostKit

/// `--instructions`: the hot operations counted in instructions under
/// callgrind, which a loaded machine cannot move the way it moves wall
/// clock. Each operation runs in a child of a copy of this binary with its
/// debug info stripped (valgrind 3.19 cannot read DWARF 5), twice, with few
/// and with many iterations: the difference divided by the extra iterations
/// is the cost of one operation, set-up and start-up cancelled out.
enum Instructions {
    static let childMode = "__ops"

    /// Each operation: its set-up, returning the body to repeat.
    static var operations: [String: () throws -> () -> Void] { [
        "bus10": {
            let bus = Bus()
            let counter = Counter()
            for _ in 0..<10 { _ = try bus.subscribe("bench.tick") { _ in counter.increment() } }
            return { try? bus.publish("bench.tick", payload: "{}") }
        },
        // The same with a payload of one field, which the bus must scan.
        "bus10field": {
            let bus = Bus()
            let counter = Counter()
            for _ in 0..<10 { _ = try bus.subscribe("bench.tick") { _ in counter.increment() } }
            return { try? bus.publish("bench.tick", payload: #"{"n":1}"#) }
        },
        "closures10": {
            let counter = Counter()
            let closures: [(BusEvent) -> Void] = (0..<10).map { _ in { _ in counter.increment() } }
            let event = BusEvent(topic: "bench.tick", payload: "{}")
            return { for closure in closures { closure(event) } }
        },
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
        // Calls into the isolated no-op plugin (WIDGET_HOST_BENCH_DIR/noop.so):
        // the host's side of a render and of an action.
        "isorender": {
            let instance = try isolatedNoop()
            return { _ = try? instance.render(screen: "main", params: "{}") }
        },
        "isoaction": {
            let instance = try isolatedNoop()
            return { try? instance.handle(action: "tap", value: nil) }
        },
        "directcall": {
            let call = DirectWidget.opaqueCHandle()
            return { "tap".withCString { blackHole(call($0, nil)) } }
        },
    ] }

    final class CachedService: @unchecked Sendable {}

    private static func isolatedNoop() throws -> any WidgetInstance {
        let path = (ProcessInfo.processInfo.environment["WIDGET_HOST_BENCH_DIR"] ?? ".") + "/noop.so"
        let runtime = Bench.runtime()
        var settings = IsolationSettings()
        settings.mode = .always
        // The child runs from a stripped copy elsewhere: the parent says where the host is.
        let host = ProcessInfo.processInfo.environment["WIDGET_HOST_BENCH_HOST"] ?? Bench.productsDirectory + "/widget-host"
        let launcher = IsolatedLauncher(executable: host, settings: settings,
                                        environment: ProcessInfo.processInfo.environment)
        let instance = try launcher.launch(Discovery(availableServices: runtime.serviceIDs).inspect(path: path), runtime)
        _ = try instance.render(screen: "main", params: "{}")
        return instance
    }

    /// Entry for a child: set up, then run the body `arguments[1]` times.
    static func child(_ arguments: [String]) -> Int32 {
        guard arguments.count == 2, let make = operations[arguments[0]], let count = Int(arguments[1]) else { return 2 }
        let body: () -> Void
        do { body = try make() } catch {
            FileHandle.standardError.write(Data("\(arguments[0]): \(error)\n".utf8))
            return 2
        }
        for _ in 0..<count { body() }
        return 0
    }

    /// Instructions per run of operation `name`.
    static func perOperation(_ name: String, binary: String, effort: Effort) throws -> Double {
        let few = effort.quick ? 100 : 1_000, many = effort.quick ? 1_100 : 21_000
        let low = try count([binary, childMode, name, String(few)]), high = try count([binary, childMode, name, String(many)])
        return (high - low) / Double(many - few)
    }

    /// Total instructions of one run of a command, as callgrind reports them.
    static func count(_ command: [String]) throws -> Double {
        let name = command.joined(separator: " ")
        let result = try Children.runProcess(["/usr/bin/env", "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", "--log-fd=1"]
                                             + command)
        guard result.status == 0,
              let line = result.output.split(separator: "\n").first(where: { $0.contains("Collected :") }),
              let figure = line.split(separator: " ").last.flatMap({ Double($0) }) else {
            throw BenchError("callgrind of \(name) failed: \(result.output.suffix(400))")
        }
        return figure
    }

    /// A copy of a binary without debug info, for valgrind 3.19.
    static func strippedCopy(of binary: String, in directory: String) throws -> String {
        let copy = directory + "/" + (binary.split(separator: "/").last.map(String.init) ?? "binary") + "-stripped"
        let result = try Children.runProcess(["/usr/bin/env", "objcopy", "--strip-debug", binary, copy])
        guard result.status == 0 else { throw BenchError("objcopy --strip-debug failed: \(result.output)") }
        return copy
    }

    /// The instruction rows, each with its floor or peer and the goal.
    static func bench(_ farm: PluginFarm, _ effort: Effort) throws -> [Measurement] {
        let binary = try strippedCopy(of: Children.readLink("/proc/self/exe"), in: farm.root)
        func ops(_ name: String) throws -> Double { try perOperation(name, binary: binary, effort: effort) }
        let bus = try ops("bus10"), closures = try ops("closures10"), center = try ops("notificationcenter10")
        let busWithField = try ops("bus10field")
        let resolve = try ops("resolve"), dictionary = try ops("lockeddictionary"), direct = try ops("directcall")
        let slot = try ops("slot")
        // Listing: per plugin of a 100-plugin directory, warm, against
        // dlopen + dlsym of the same files (a child with them less one
        // with an empty directory). In instructions dlopen's kernel work
        // (mmap, page faults) is not counted, so the wall-clock row holds the goal.
        let plugins = 100
        let directory = try farm.plugins(count: plugins), empty = farm.root + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        setenv("WIDGET_HOST_BENCH_DIR", directory, 1)
        let listing = try ops("warmscan") / Double(plugins)
        let dlopen = (try count([binary, "__dlopen", directory]) - (try count([binary, "__dlopen", empty]))) / Double(plugins)
        // The host's side of a call into an isolated plugin (the child's
        // side runs in its own process, uncounted).
        if !FileManager.default.fileExists(atPath: farm.root + "/noop.so") { try farm.compile("noop.c", to: farm.root + "/noop.so") }
        setenv("WIDGET_HOST_BENCH_DIR", farm.root, 1)
        setenv("WIDGET_HOST_BENCH_HOST", Bench.productsDirectory + "/widget-host", 1)
        setenv("XDG_DATA_HOME", farm.root + "/isolation-data", 1)
        setenv("XDG_STATE_HOME", farm.root + "/isolation-state", 1)
        let isolatedRender = try ops("isorender"), isolatedAction = try ops("isoaction")
        // Swinject is not a dependency here: its figure is the one measured
        // for issue 16 (a synchronized resolve of a held instance).
        let swinject = 7_100.0
        let unit = "instructions"
        return [
            Measurement(group: "instructions", name: "bus publish, 10 subscribers", value: bus, unit: unit,
                        baseline: ("closure loop", closures), goal: 2),
            Measurement(group: "instructions", name: "bus publish, 10 subscribers", value: bus, unit: unit,
                        baseline: ("NotificationCenter", center), goal: 0.1),
            Measurement(group: "instructions", name: "bus publish, 10 subscribers, payload {\"n\":1}", value: busWithField, unit: unit,
                        baseline: ("closure loop", closures), note: "the rows above publish the default payload, {}"),
            Measurement(group: "instructions", name: "cached resolve", value: resolve, unit: unit,
                        baseline: ("locked dictionary + cast", dictionary), goal: 1.5),
            Measurement(group: "instructions", name: "cached resolve, through a slot", value: slot, unit: unit,
                        baseline: ("locked dictionary + cast", dictionary), goal: 1.5),
            Measurement(group: "instructions", name: "cached resolve, through a slot", value: slot, unit: unit,
                        baseline: ("Swinject, documented figure", swinject), goal: 0.02,
                        note: "Swinject not run here: its figure from issue 16"),
            Measurement(group: "instructions", name: "direct C call (floor of the ABI rows)", value: direct, unit: unit),
            Measurement(group: "instructions", name: "warm listing, per plugin of \(plugins)", value: listing, unit: unit,
                        baseline: ("dlopen+dlsym", dlopen)),
            Measurement(group: "instructions", name: "isolated render, the host's side", value: isolatedRender, unit: unit),
            Measurement(group: "instructions", name: "isolated action, the host's side", value: isolatedAction, unit: unit),
        ] + (try startup(farm))
    }

    /// `widget-host list` start-up against the Swift hello world that the
    /// start-up suite compiled (absent in a quick run).
    private static func startup(_ farm: PluginFarm) throws -> [Measurement] {
        let hello = farm.root + "/hello-swift"
        guard access(hello, X_OK) == 0 else { return [] }
        let host = try strippedCopy(of: Bench.productsDirectory + "/widget-host", in: farm.root)
        let peer = ("Swift hello world", try count([hello]) / 1e6)
        return [
            Measurement(group: "instructions", name: "widget-host list", value: try count([host, "list"]) / 1e6, unit: "M instructions",
                        baseline: peer, goal: 2),
            Measurement(group: "instructions", name: "widget-host --version", value: try count([host, "--version"]) / 1e6,
                        unit: "M instructions", baseline: peer),
        ]
    }
}
