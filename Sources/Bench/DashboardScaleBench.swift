import Foundation
import Glibc

/// 12. The dashboard at the size issue 24 names: 12 cards (the 4 shipped
/// widgets and 8 C fixtures). Its first frame in instructions against 12
/// separate `launch --once` renders of the same widgets; the memory (PSS of
/// the host and its children) of the 12 cards and of one more isolated
/// card, C and Swift; and its idle wake-ups with all 12 cards. The first
/// frame runs under callgrind (13 runs of the host, minutes): only with
/// `callgrind`.
func dashboardScaleBench(_ farm: PluginFarm, _ effort: Effort, callgrind: Bool) throws -> [Measurement] {
    let scale = try DashboardScale(farm)
    return try (callgrind ? scale.firstFrame() : []) + scale.memory() + scale.idle(effort)
}

private struct DashboardScale {
    static let shipped = ["crypto", "checkout", "trips", "ticker"]
    static let fixtures = 8

    let farm: PluginFarm
    /// Stripped copies of the host and the shipped widgets, side by side (valgrind 3.19 reads no DWARF 5).
    let host: String
    /// The 8 C fixtures' directory and their ids.
    let fixtureDirectory: String
    let fixtureIDs: [String]
    let home: String

    init(_ farm: PluginFarm) throws {
        self.farm = farm
        let shipped = farm.root + "/dashboard-shipped"
        try FileManager.default.createDirectory(atPath: shipped, withIntermediateDirectories: true)
        for image in Instructions.shippedWidgets { _ = try Instructions.strippedCopy(of: Bench.productsDirectory + "/" + image, to: shipped + "/" + image) }
        host = try Instructions.strippedCopy(of: Bench.productsDirectory + "/widget-host", to: shipped + "/widget-host")
        fixtureDirectory = try farm.plugins(count: Self.fixtures)
        fixtureIDs = (0..<Self.fixtures).map { String(format: "org.bench.p%06d", $0) }
        home = farm.root + "/dashboard-scale-home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    var environment: [String: String] {
        ["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state",
         "COLUMNS": "120", "LINES": "40", "TERM": "xterm", "NO_COLOR": "1", "PATH": "/usr/bin:/bin"]
    }

    /// Settings that keep every widget off the network and out of error:
    /// Crypto's price from a closed loopback port, Checkout's amounts.
    static let settings = ["crypto.priceURL=http://127.0.0.1:9/price", "checkout.minimumAmount=50.00", "checkout.maximumAmount=2000.00",
                           "checkout.currencyCode=USD", "checkout.locale=en_US", "checkout.amount=250.00"].flatMap { ["--set", $0] }

    /// A configuration of these cards, each isolated or not as given (nil: the host's default).
    func config(_ name: String, _ cards: [(widget: String, isolated: Bool?)]) throws -> String {
        let items: [String] = cards.map { card in
            card.isolated.map { #"{"widget": "\#(card.widget)", "isolated": \#($0)}"# } ?? #""\#(card.widget)""#
        }
        let path = home + "/" + name + ".json"
        try Data(#"{"dashboard": {"cards": [\#(items.joined(separator: ", "))]}}"#.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The first frame of 12 cards (`dashboard --once --wait 0`: what shows
    /// before any widget had time to fetch), every card in process so that
    /// callgrind counts all of its work, against `launch W --once --wait 0`
    /// of each of the 12 in turn (12 processes).
    func firstFrame() throws -> [Measurement] {
        let cards = Self.shipped + fixtureIDs
        let config = try config("twelve-in-process", cards.map { ($0, false) })
        let common = ["--plugin-dir", fixtureDirectory, "--wait", "0"] + Self.settings
        let dashboard = try count(["dashboard", "--once", "--config", config] + common)
        var launches = 0.0
        for card in cards { launches += try count(["launch", card, "--once"] + common) }
        return [Measurement(group: "Dashboard", name: "first frame of 12 cards (4 shipped, 8 C), in process", value: dashboard / 1e6,
                            unit: "M instructions", baseline: ("12 × launch --once", launches / 1e6),
                            note: "whole processes under callgrind, --wait 0")]
    }

    /// Instructions of one run of the host, whatever its exit status (a card
    /// still loading at --wait 0 makes it 1; the frame was drawn all the same).
    private func count(_ arguments: [String]) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", "--log-file=" + home + "/callgrind.log", host]
            + arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let log = (try? String(contentsOfFile: home + "/callgrind.log", encoding: .utf8)) ?? ""
        guard let line = log.split(separator: "\n").first(where: { $0.contains("Collected :") }),
              let figure = line.split(separator: " ").last.flatMap({ Double($0) }) else {
            throw BenchError("callgrind of widget-host \(arguments.joined(separator: " ")) failed: \(log.suffix(400))")
        }
        return figure
    }

    /// PSS and USS of the interactive dashboard (host and isolated
    /// children) for several layouts, each on a pseudo-terminal once it is
    /// quiet. PSS is what the processes cost together on this machine now;
    /// USS (pages no other process maps) leaves out the shared libraries'
    /// pages, so it does not move with what else runs.
    func memory() throws -> [Measurement] {
        let c = fixtureIDs
        let oneC = try memory(config("one-c", [(c[0], true)]))
        let fiveC = try memory(config("five-c", c[0..<5].map { ($0, true) }))
        let withCheckout = try memory(config("c-checkout", [(c[0], true), ("checkout", true)]))
        let withTrips = try memory(config("c-checkout-trips", [(c[0], true), ("checkout", true), ("trips", true)]))
        let twelve = try memory(config("twelve-default", (Self.shipped + c).map { ($0, nil) }))
        let note = "host and children, /proc/PID/smaps_rollup"
        func row(_ name: String, _ kib: Int, goal: Double? = nil, baseline: (String, Double)? = nil, note: String = note) -> Measurement {
            Measurement(group: "Dashboard", name: name, value: Double(kib) / 1024, unit: "MiB", baseline: baseline, goal: goal, note: note)
        }
        func split(_ figure: KeyPath<ProcessMemory, Int>) -> String {
            let children = twelve.children.map { $0[keyPath: figure] }
            return note + "; host \(twelve.host[keyPath: figure]) KiB, children \(children.map(String.init).joined(separator: " + ")) KiB"
        }
        var rows: [Measurement] = []
        for (kind, figure) in [("PSS", \ProcessMemory.pss), ("USS", \ProcessMemory.uss)] {
            let c = (fiveC.total[keyPath: figure] - oneC.total[keyPath: figure]) / 4
            rows += [
                row("\(kind), 12 cards (4 shipped in process, 8 C isolated)", twelve.total[keyPath: figure], goal: 1,
                    baseline: ("Glance, as users report it", 26), note: split(figure)),
                row("\(kind), one more isolated C card", c, goal: 1, baseline: ("goal", 2), note: "mean of 4 more, beside one"),
                row("\(kind), one more isolated Swift card (Checkout)", withCheckout.total[keyPath: figure] - oneC.total[keyPath: figure], goal: 1,
                    baseline: ("goal", 4), note: "the first Swift child: it shares no Swift runtime pages with another child"),
                row("\(kind), a second isolated Swift card (Trips)", withTrips.total[keyPath: figure] - withCheckout.total[keyPath: figure], goal: 1,
                    baseline: ("goal", 4)),
            ]
        }
        return rows
    }

    /// The memory of the interactive dashboard with this configuration: the host's and each child's.
    private func memory(_ config: String) throws -> (host: ProcessMemory, children: [ProcessMemory], total: ProcessMemory) {
        try withDashboard(config) { pid, _ in
            let host = ProcessMemory(pid)
            let children = processTree(pid).dropFirst().map(ProcessMemory.init)
            return (host, children, children.reduce(host, +))
        }
    }

    /// Voluntary context switches of the host over the window, 12 cards as
    /// the host runs them by default: with Crypto on a real source (here a
    /// closed loopback port, so each refresh is a retry that fails at once),
    /// whose refresh every 30 s is a date on its timeline; and with Crypto on
    /// the sample source, which has nothing to fetch and asks for no refresh.
    func idle(_ effort: Effort) throws -> [Measurement] {
        let config = try config("twelve-idle", (Self.shipped + fixtureIDs).map { ($0, nil) })
        let window = effort.quick ? 3.0 : 60.0
        func switches(_ more: [String]) throws -> Double {
            try withDashboard(config, more) { pid, _ in
                let before = voluntarySwitches(pid)
                usleep(useconds_t(window * 1_000_000))
                return Double(voluntarySwitches(pid) - before)
            }
        }
        let network = try switches([])
        let sample = try switches(["--set", "crypto.source=sample"])
        func row(_ name: String, _ value: Double, _ note: String) -> Measurement {
            Measurement(group: "Dashboard", name: "idle wake-ups over \(Int(window)) s, 12 cards, \(name)", value: value, unit: "switches",
                        baseline: ("wtf / wth 1 s tick", window), goal: 0.05, note: "every thread of the host; " + note)
        }
        return [row("Crypto on a network source", network, "all from Crypto's refresh every 30 s (a timeline date): "
                    + "the timer, the fetch and the card's render"),
                row("Crypto on the sample source", sample, "the first-run configuration: nothing is due, so nothing wakes")]
    }

    /// Runs the interactive dashboard on a pseudo-terminal until it is quiet, then `body` with its pid.
    private func withDashboard<T>(_ config: String, _ more: [String] = [], _ body: (Int32, PseudoTerminal) throws -> T) throws -> T {
        let terminal = try PseudoTerminal()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Bench.productsDirectory + "/widget-host")
        process.arguments = ["dashboard", "--config", config, "--plugin-dir", fixtureDirectory] + Self.settings + more
        process.environment = environment
        process.standardInput = terminal.replica
        process.standardOutput = terminal.replica
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        terminal.waitForQuiet()
        return try body(process.processIdentifier, terminal)
    }
}

/// The process and all its descendants (by each process's parent in /proc).
func processTree(_ root: Int32) -> [Int32] {
    var parents: [Int32: Int32] = [:]
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
        guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { continue }
        // After "pid (comm) ": the state, then the parent.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        if fields.count > 1, let parent = Int32(fields[1]) { parents[pid] = parent }
    }
    var tree = [root], index = 0
    while index < tree.count {
        tree += parents.filter { $0.value == tree[index] }.map(\.key)
        index += 1
    }
    return tree
}
