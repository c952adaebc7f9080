import Foundation
import Glibc
import WidgetHostKit

/// 9. Isolation: a call into an isolated no-op plugin, against the floor
/// for any out-of-process call (the same bytes bounced off another process
/// over a socketpair, with nothing else done) and against the same call in
/// process.
func isolationBench(_ farm: PluginFarm, _ effort: Effort) throws -> [Measurement] {
    let path = farm.root + "/noop.so"
    if !FileManager.default.fileExists(atPath: path) { try farm.compile("noop.c", to: path) }
    let runtime = Bench.runtime()
    let candidate = Discovery(availableServices: runtime.serviceIDs).inspect(path: path)
    guard let manifest = candidate.manifest else { throw BenchError("noop: \(candidate.status)") }

    var environment = ProcessInfo.processInfo.environment
    environment["XDG_DATA_HOME"] = farm.root + "/isolation-data"
    environment["XDG_STATE_HOME"] = farm.root + "/isolation-state"
    var settings = PluginRunSettings()
    settings.mode = .always
    let launcher = IsolatedLauncher(executable: Bench.productsDirectory + "/widget-host", settings: settings, environment: environment)

    let n = max(effort.iterations / 10, 100)
    let start = try Measure.median(samples: effort.children) {
        let begin = Measure.nanoseconds()
        let instance = try launcher.launch(candidate, runtime)
        let elapsed = Double(Measure.nanoseconds() - begin)
        withExtendedLifetime(instance) {}
        return elapsed
    }
    let isolated = try launcher.launch(candidate, runtime)
    let plugin = try Loader.load(path: path, manifest: manifest, serviceIDs: runtime.serviceIDs)
    let inProcess = try PluginInstance(plugin: plugin, runtime: runtime)
    let local = Measure.perIteration(iterations: n * 10, samples: effort.samples) { _ = try? inProcess.render(screen: "main") }

    // The floor: the render call's and its answer's bytes, bounced off a
    // process that does nothing else. Its samples alternate with the
    // isolated calls', so both see the same scheduling (on a small VM a
    // cross-CPU wake-up can triple either).
    let view = #"{"view":1,"root":{"kind":"text","text":"ok"}}"#
    let (request, reply) = Frame.renderBytes(screen: "main", output: view.utf8.count)
    let peer = try PingPong(request: request, reply: reply)
    defer { peer.stop() }
    var floors: [Double] = [], renders: [Double] = [], actions: [Double] = []
    _ = try? isolated.render(screen: "main", params: [:])
    peer.bounce()
    for _ in 0..<effort.samples {
        floors.append(batch(n) { peer.bounce() })
        renders.append(batch(n) { _ = try? isolated.render(screen: "main", params: [:]) })
        actions.append(batch(n) { try? isolated.handle(action: "tap", value: nil) })
    }
    let floor = Measure.median(floors), render = Measure.median(renders), action = Measure.median(actions)
    let interleaved = "median of \(floors.count) interleaved pairs (range in brackets)"

    return [
        Measurement(group: "isolation", name: "socketpair ping-pong, 2 processes (\(request) B out, \(reply) B back)",
                    value: floor / 1000, unit: "µs"),
        Measurement(group: "isolation", name: "isolated render round trip (no-op plugin)", value: render / 1000, unit: "µs",
                    baseline: ("socketpair ping-pong", floor / 1000), goal: 1.2, note: interleaved,
                    paired: Measure.pairedRatio(renders, floors)),
        Measurement(group: "isolation", name: "isolated action round trip (no-op plugin)", value: action / 1000, unit: "µs",
                    baseline: ("socketpair ping-pong", floor / 1000), note: interleaved, paired: Measure.pairedRatio(actions, floors)),
        Measurement(group: "isolation", name: "in-process render round trip (no-op plugin)", value: local / 1000, unit: "µs",
                    note: "isolation costs \(((render - local) / 1000).figure) µs a call"),
        Measurement(group: "isolation", name: "start an isolated plugin (spawn, sandbox, dlopen, create)", value: start / 1e6, unit: "ms"),
    ]
}

/// Nanoseconds per run of `body`, over `iterations` runs.
private func batch(_ iterations: Int, _ body: () -> Void) -> Double {
    let start = Measure.nanoseconds()
    for _ in 0..<iterations { body() }
    return Double(Measure.nanoseconds() - start) / Double(iterations)
}

/// The floor for a call to another process: a peer that answers each
/// request of `request` bytes with `reply` bytes over a socketpair.
final class PingPong {
    static let mode = "__pong"

    private let fd: Int32
    private let peer: pid_t
    private var out: [UInt8], back: [UInt8]

    init(request: Int, reply: Int) throws {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { throw BenchError("socketpair: \(errno)") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        do {
            peer = try Self.spawn(socket: fds[1], arguments: [String(request), String(reply)])
        } catch {
            close(fds[0]); close(fds[1])
            throw error
        }
        close(fds[1])
        fd = fds[0]
        out = [UInt8](repeating: 1, count: request)
        back = [UInt8](repeating: 0, count: reply)
    }

    /// One round trip.
    func bounce() {
        _ = Self.transfer(fd, &out, writing: true) && Self.transfer(fd, &back, writing: false)
    }

    func stop() {
        close(fd)
        kill(peer, SIGKILL)
        var status: Int32 = 0
        waitpid(peer, &status, 0)
    }

    /// The peer's side: `widget-host-bench __pong REQUEST REPLY`, on fd 3.
    static func serve(_ arguments: [String]) -> Int32 {
        guard arguments.count == 2, let request = Int(arguments[0]), let reply = Int(arguments[1]) else { return 2 }
        var incoming = [UInt8](repeating: 0, count: request), outgoing = [UInt8](repeating: 2, count: reply)
        while transfer(3, &incoming, writing: false) && transfer(3, &outgoing, writing: true) {}
        return 0
    }

    private static func transfer(_ fd: Int32, _ buffer: inout [UInt8], writing: Bool) -> Bool {
        buffer.withUnsafeMutableBytes { raw in
            var done = 0
            while done < raw.count {
                let count = writing ? write(fd, raw.baseAddress! + done, raw.count - done) : read(fd, raw.baseAddress! + done, raw.count - done)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
    }

    private static func spawn(socket: Int32, arguments: [String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, socket, 3)
        let argv = (["/proc/self/exe", mode] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/proc/self/exe", &actions, nil, argv, environ)
        guard spawned == 0 else { throw BenchError("posix_spawn: \(spawned)") }
        return pid
    }
}
