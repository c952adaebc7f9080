import Foundation
import Glibc
import HostShim
import WidgetHostKit

/// 11. The dashboard, as a person runs it on a terminal (a pseudo-terminal
/// here): a Checkout and a Trips card, Trips' next step days away, so
/// nothing is due for an hour. Its wake-ups while idle (voluntary context
/// switches of all its threads, from /proc) against the 1 s tick of wtf and
/// wth; the bytes one card's update writes against its share of a full
/// redraw; the memory (PSS) the host takes for its cards.
func dashboardBench(_ farm: PluginFarm, _ effort: Effort) throws -> [Measurement] {
    let home = farm.root + "/dashboard-home"
    let environment = ["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state",
                       "COLUMNS": "120", "LINES": "40", "TERM": "xterm", "NO_COLOR": "1"]
    // No user plugin directory, as on a fresh machine: the watchers wait
    // on its nearest existing ancestor with inotify, which costs no wake-up.
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    let host = Bench.productsDirectory + "/widget-host"
    let config = home + "/dashboard.json"
    try Data(#"{"dashboard": {"cards": ["checkout", "trips"]}}"#.utf8).write(to: URL(fileURLWithPath: config))
    try putBookings(host, environment, code: "IB3436", daysAhead: 3)

    let terminal = try PseudoTerminal()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: host)
    process.arguments = ["dashboard", "--config", config, "--set", "checkout.minimumAmount=50.00", "--set", "checkout.maximumAmount=2000.00",
                         "--set", "checkout.currencyCode=USD", "--set", "checkout.locale=en_US", "--set", "checkout.amount=250.00"]
    process.environment = environment
    process.standardInput = terminal.replica
    process.standardOutput = terminal.replica
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
    defer {
        process.terminate()
        process.waitUntilExit()
    }
    let pid = process.processIdentifier
    terminal.waitForQuiet()
    let fullRedraw = terminal.bytes

    let window = effort.quick ? 3.0 : 60.0
    let before = voluntarySwitches(pid)
    usleep(useconds_t(window * 1_000_000))
    let idle = voluntarySwitches(pid) - before
    let pss = proportionalSetKiB(pid)

    let beforeUpdate = terminal.bytes
    try putBookings(host, environment, code: "AZ61", daysAhead: 2)
    terminal.waitForQuiet()
    let update = terminal.bytes - beforeUpdate
    let seconds = Int(window)
    return [
        Measurement(group: "Dashboard", name: "idle wake-ups over \(seconds) s, Checkout + Trips", value: Double(idle), unit: "switches",
                    baseline: ("wtf / wth 1 s tick", window), goal: 0.05,
                    note: "voluntary context switches of every thread of the host, /proc/PID/task/*/status"),
        Measurement(group: "Dashboard", name: "one card's update (Trips, a store write)", value: Double(update), unit: "bytes",
                    baseline: ("its share of a full redraw (1 of 2 cards)", Double(fullRedraw) / 2), goal: 1.0),
        Measurement(group: "Dashboard", name: "host PSS with 2 in-process cards", value: Double(pss), unit: "KiB",
                    note: "from /proc/PID/smaps_rollup; shipped widgets run in the host's process"),
    ]
}

/// `widget-host store put trips.bookings`: one outbound flight `daysAhead` days from now.
private func putBookings(_ host: String, _ environment: [String: String], code: String, daysAhead: Double) throws {
    let formatter = ISO8601DateFormatter()
    let departs = Date().addingTimeInterval(daysAhead * 86_400), arrives = departs.addingTimeInterval(7200)
    let flight: JSONValue = ["code": .string(code), "stops": 0, "departure_airport": "MAD", "departure_time": .string(formatter.string(from: departs)),
                             "arrival_airport": "CDG", "arrival_time": .string(formatter.string(from: arrives))]
    let booking: JSONValue = ["id": .string("B-\(code)"), "purchase_date": .string(formatter.string(from: Date().addingTimeInterval(-86_400))),
                              "outbound_flight": flight]
    let json = JSONValue.object([("bookings", .array([booking]))]).serialized
    let file = environment["HOME"]! + "/bookings.json"
    try Data(json.utf8).write(to: URL(fileURLWithPath: file))
    let put = Process()
    put.executableURL = URL(fileURLWithPath: host)
    put.arguments = ["store", "put", "trips.bookings", "--file", file]
    put.environment = environment
    try put.run()
    put.waitUntilExit()
    guard put.terminationStatus == 0 else { throw BenchError("store put failed") }
}

func voluntarySwitches(_ pid: Int32) -> Int {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.reduce(0) { total, task in
        let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
        return total + (line.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0)
    }
}

func proportionalSetKiB(_ pid: Int32) -> Int { ProcessMemory(pid).pss }

/// A process's memory from /proc/PID/smaps_rollup, in KiB. PSS splits each
/// shared page among the processes that map it, so it moves with what else
/// runs (other Swift programs share the runtime's pages); USS (the pages
/// only this process maps: Private_Clean + Private_Dirty) does not.
struct ProcessMemory {
    var pss = 0
    var uss = 0

    init(pss: Int = 0, uss: Int = 0) {
        self.pss = pss
        self.uss = uss
    }

    init(_ pid: Int32) {
        let rollup = (try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8)) ?? ""
        func field(_ name: String) -> Int {
            let line = rollup.split(separator: "\n").first { $0.hasPrefix(name + ":") }
            return line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        }
        pss = field("Pss")
        uss = field("Private_Clean") + field("Private_Dirty")
    }

    static func + (left: Self, right: Self) -> Self { Self(pss: left.pss + right.pss, uss: left.uss + right.uss) }
}

/// A pseudo-terminal whose output a thread counts as it comes.
final class PseudoTerminal: @unchecked Sendable {
    let replica: FileHandle
    private let primary: Int32
    private let count = WidgetHostKit.Locked(0)

    init() throws {
        var name = [CChar](repeating: 0, count: 128)
        primary = wh_shim_open_pty(&name, name.count)
        guard primary >= 0 else { throw BenchError("no pseudo-terminal") }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let replica = FileHandle(forUpdatingAtPath: path) else { throw BenchError("cannot open \(path)") }
        self.replica = replica
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let read = Glibc.read(primary, &buffer, buffer.count)
                if read <= 0 { return }
                count.withLock { $0 += read }
            }
        }
    }

    var bytes: Int { count.withLock { $0 } }

    /// Waits until nothing has been written for a second (at most 30 s).
    func waitForQuiet() {
        var last = -1
        for _ in 0..<30 {
            usleep(1_000_000)
            let now = bytes
            if now == last && now > 0 { return }
            last = now
        }
    }
}
