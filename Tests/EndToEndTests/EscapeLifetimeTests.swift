import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// Issue 23, escape 6: an isolated plugin must not outlive its host. The
/// attacker (escapes.c, OUTLIVE_HOST) clears its parent-death signal and
/// parks the child's hang-up watcher; the host is then ended by a signal.
@Suite("Escapes: an isolated plugin dies with its host")
struct EscapeLifetimeTests {
    static let plugin = Result { () throws -> String in
        let directory = try TestSupport.makeTemporaryDirectory("outlive")
        try TestSupport.compileC(source: TestSupport.fixtureDirectory + "/escapes.c", flags: ["-pthread", "-DOUTLIVE_HOST"],
                                 output: directory + "/outlive.so")
        return directory
    }

    /// The pids whose parent is `pid`, from /proc.
    static func children(of pid: pid_t) -> [pid_t] {
        guard let entries = try? Discovery.entries(in: "/proc") else { return [] }
        return entries.compactMap { Int32($0) }.filter { parent(of: $0) == pid }
    }

    /// The parent of `pid` from /proc/PID/stat, nil once it is gone (a zombie counts as gone).
    static func parent(of pid: pid_t) -> pid_t? {
        guard let file = fopen("/proc/\(pid)/stat", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 1024)
        guard fgets(&line, Int32(line.count), file) != nil else { return nil }
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // "PID (COMM) STATE PPID ...": COMM may hold spaces, so read after its last ')'.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 1, fields[0] != "Z" else { return nil }
        return Int32(fields[1])
    }

    @Test("killing the host ends the isolated child, whatever the plugin did to stay", arguments: [SIGKILL, SIGTERM, SIGHUP, SIGINT])
    func childDiesWithHost(signal: Int32) throws {
        let home = try IsolationTestKit.Home()
        var host = try SpawnedProcess.start([TestSupport.widgetHost, "launch", "outlive", "--isolate", "--once", "--wait", "60",
                                             "--plugin-dir", try Self.plugin.get()], environment: home.environment)
        defer { if !host.reaped { host.kill(SIGKILL); _ = host.wait() } }
        var child: pid_t?
        #expect(IsolationTestKit.eventually(400) {
            child = Self.children(of: host.pid).first
            return child != nil
        }, "the host never started its child")
        let plugin = try #require(child)
        // Give the plugin time to clear its parent-death signal and park the watcher.
        usleep(1_500_000)
        #expect(Self.parent(of: plugin) == host.pid, "the child ended before the host did")
        host.kill(signal)
        let ended = host.wait()
        #expect(ended == .signaled(signal), "\(ended)")
        let gone = IsolationTestKit.eventually(100) { Self.parent(of: plugin) == nil }
        if !gone { _ = Glibc.kill(plugin, SIGKILL) }
        #expect(gone, "the plugin's process \(plugin) outlived its host (\(ChildProcess.Termination.signalName(signal)))")
    }
}
