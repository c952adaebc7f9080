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

    /// Entry for a child: set up, then run the body `arguments[1]` times.
    static func child(_ arguments: [String]) -> Int32 {
        guard arguments.count == 2, let make = InstructionOperations.all[arguments[0]], let count = Int(arguments[1]) else { return 2 }
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
        let divisor = InstructionOperations.fewerRuns[name] ?? 1
        let few = (effort.quick ? 100 : 1_000) / divisor, many = (effort.quick ? 1_100 : 21_000) / divisor
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
        try strippedCopy(of: binary, to: directory + "/" + (binary.split(separator: "/").last.map(String.init) ?? "binary") + "-stripped")
    }

    static func strippedCopy(of binary: String, to copy: String) throws -> String {
        let result = try Children.runProcess(["/usr/bin/env", "objcopy", "--strip-debug", binary, copy])
        guard result.status == 0 else { throw BenchError("objcopy --strip-debug failed: \(result.output)") }
        return copy
    }

    /// The instruction rows, each with its floor or peer and the goal. Each
    /// figure has the closure call every body runs through subtracted.
    static func bench(_ farm: PluginFarm, _ effort: Effort) throws -> [Measurement] {
        // Swift seeds its hashing afresh in each process, so a hash table's
        // probes, and with them a count, moved by several percent between
        // runs (warm listing: 577 to 648); every counted child hashes alike.
        setenv("SWIFT_DETERMINISTIC_HASHING", "1", 1)
        let binary = try strippedCopy(of: Children.readLink("/proc/self/exe"), in: farm.root)
        let call = try perOperation("empty", binary: binary, effort: effort)
        func ops(_ name: String) throws -> Double { try perOperation(name, binary: binary, effort: effort) - call }
        let unit = "instructions"
        func row(_ name: String, _ value: Double, _ baseline: (String, Double)? = nil, goal: Double? = nil, note: String? = nil) -> Measurement {
            Measurement(group: "instructions", name: name, value: value, unit: unit, baseline: baseline, goal: goal, note: note)
        }
        var rows = [row("closure call (subtracted from every row below)", call)]

        let bus = try ops("bus10"), closures = try ops("closures10")
        let bus100 = try ops("bus100"), busRealistic = try ops("bus10realistic"), closuresRealistic = try ops("closures10realistic")
        rows += [
            row("bus publish, 10 subscribers, near-empty handler", bus, ("closure loop, same handler", closures), goal: 1.5),
            row("bus publish, 10 subscribers, near-empty handler", bus, ("NotificationCenter", try ops("notificationcenter10")), goal: 0.1),
            row("bus publish, 100 subscribers, near-empty handler", bus100, ("closure loop, same handler", try ops("closures100")),
                goal: 1.2),
            row("bus publish, 10 subscribers, payload {\"n\":1}", try ops("bus10field"), ("closure loop, same handler", closures)),
            row("bus publish, 10 subscribers, handler parses the payload", busRealistic, ("closure loop, same handler", closuresRealistic)),
            // Against the strictest floor: the same handlers called from a
            // borrowed buffer, no thunk and no retain, the calls and nothing
            // else (no lock, no check, no queue).
            row("bus publish, 10 subscribers, near-empty handler", bus, ("borrowed handler loop", try ops("borrowed10")), goal: 1.5),
            row("bus publish, 100 subscribers, near-empty handler", bus100, ("borrowed handler loop", try ops("borrowed100")),
                goal: 1.2),
            row("bus publish, 10 subscribers, handler parses the payload", busRealistic, ("borrowed handler loop", try ops("borrowed10realistic"))),
        ]

        let dictionary = try ops("lockeddictionary"), slot = try ops("slot")
        rows += [
            row("cached resolve by type", try ops("resolve"), ("locked dictionary + cast", dictionary), goal: 1.1),
            row("cached resolve by name", try ops("resolvename"), ("locked dictionary + cast", dictionary), goal: 1.1),
            row("cached resolve, through a slot", slot, ("locked dictionary + cast", dictionary), goal: 1.5),
            // Swinject is not a dependency: its figure is cited, never a verdict.
            Measurement(group: "instructions", name: "Swinject resolve of a held instance", value: 7_083, unit: "instructions, cited",
                        note: "a citation (issue 30), not measured in this run: no verdict is drawn from it"),
            row("direct C call (floor of the ABI rows)", try ops("directcall")),
        ]

        rows += [
            row("JSON parse, Crypto's manifest (\(BenchDocuments.manifest.count) B)", try ops("jsonmanifest"),
                ("JSONSerialization, same bytes", try ops("jsonmanifestfoundation")), goal: 1),
            row("JSON parse, 100 bookings (\(BenchDocuments.bookings.count / 1000) kB)", try ops("jsonbookings"),
                ("JSONSerialization, same bytes", try ops("jsonbookingsfoundation")), goal: 1),
        ]

        // My Trips, per booking: 1,000 bookings in every run; 100,000 (some
        // 5 G instructions under callgrind) only without --quick.
        let trips = try ops("trips1000") / 1_000
        rows.append(row("Trips adapt + render, per booking of 1,000", trips, note: "goal ≤ 60,000 (issue 30)"))
        if !effort.quick {
            // n log n allows the cost per booking to grow by log(100,000) / log(1,000).
            rows.append(row("Trips adapt + render, per booking of 100,000", try ops("trips100000") / 100_000, ("per booking of 1,000", trips),
                            goal: log2(100_000) / log2(1_000), note: "goal ≤ 60,000 (issue 30)"))
        }

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
        rows.append(row("warm listing, per plugin of \(plugins)", listing, ("dlopen+dlsym", dlopen), goal: 0.03))
        rows.append(row("first listing, per plugin of \(plugins)", try ops("coldscan") / Double(plugins), goal: nil,
                        note: "goal ≤ 90,000 (issue 30)"))

        // The host's side of a call into an isolated plugin (the child's
        // side runs in its own process, uncounted).
        if !FileManager.default.fileExists(atPath: farm.root + "/noop.so") { try farm.compile("noop.c", to: farm.root + "/noop.so") }
        setenv("WIDGET_HOST_BENCH_DIR", farm.root, 1)
        setenv("WIDGET_HOST_BENCH_HOST", Bench.productsDirectory + "/widget-host", 1)
        setenv("XDG_DATA_HOME", farm.root + "/isolation-data", 1)
        setenv("XDG_STATE_HOME", farm.root + "/isolation-state", 1)
        rows += [
            row("in-process action round trip (no-op plugin)", try ops("inprocessaction"), note: "goal ≤ 500 (issue 30)"),
            row("isolated render, the host's side", try ops("isorender"), note: "goal ≤ 3,000 (issue 30)"),
            row("isolated action, the host's side", try ops("isoaction"), note: "goal ≤ 3,000 (issue 30)"),
        ]
        return rows + (try startup(farm))
    }

    /// The shipped widgets, as `swift build` names their images.
    static let shippedWidgets = ["CryptoPlugin", "CheckoutPlugin", "TripsPlugin", "TickerPlugin"].map { "lib\($0).so" }

    /// `widget-host list` of the shipped widgets, whole process, against the
    /// Swift hello world that the start-up suite compiled (absent in a quick
    /// run). Stripped copies of the host and the widgets share a directory,
    /// so the host lists them from its own directory, as an install would.
    private static func startup(_ farm: PluginFarm) throws -> [Measurement] {
        let shipped = farm.root + "/shipped"
        try FileManager.default.createDirectory(atPath: shipped, withIntermediateDirectories: true)
        for image in shippedWidgets { _ = try strippedCopy(of: Bench.productsDirectory + "/" + image, to: shipped + "/" + image) }
        let host = try strippedCopy(of: Bench.productsDirectory + "/widget-host", to: shipped + "/widget-host")
        let hello = farm.root + "/hello-swift"
        let peer = access(hello, X_OK) == 0 ? ("Swift hello world", try count([hello]) / 1e6) : nil
        let names = shippedWidgets.count
        return [
            Measurement(group: "instructions", name: "widget-host list, the \(names) shipped widgets", value: try count([host, "list"]) / 1e6,
                        unit: "M instructions", baseline: peer, goal: peer == nil ? nil : 1.5),
            Measurement(group: "instructions", name: "widget-host --version", value: try count([host, "--version"]) / 1e6,
                        unit: "M instructions", baseline: peer),
        ]
    }
}
