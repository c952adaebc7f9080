import Foundation
import Glibc
import PluginABI
import Testing
@testable import WidgetHostKit
@testable import TestSupport

private typealias Kit = IsolationTestKit

/// Issue 12's "in process, a noisy plugin must not freeze the host" and
/// issue 14's crash report: hostile.c floods the bus with events to itself,
/// publishes 100 MB, calls exit(0) and crashes inside render. Each run in
/// process (and isolated, where both modes can answer) checks what the
/// user is told, never how long it took.
@Suite("In process: a noisy plugin does not freeze or silently end the host")
struct NoisyPluginTests {
    static let floodReason = "flooded the bus: more than 1000 events in a second"

    @Test("a plugin publishing 20,000 events to itself is stopped with the same words in both modes", arguments: [false, true])
    func selfFlood(_ isolated: Bool) throws {
        let directory = try Kit.hostileDirectory("self-flood", defines: ["-DSELF_FLOOD=20000"])
        let home = try Kit.Home()
        let mode = isolated ? ["--isolate"] : []
        let run = try home.run(["launch", "hostile", "--plugin-dir", directory, "--once", "--format", "json"] + mode)
        #expect(run.status == 0, "\(run)")
        #expect(try Kit.screen(run)["error"]?.string == "widget hostile stopped: \(Self.floodReason)", "\(run)")
        #expect(run.stderr.contains("org.example.hostile: stopped: \(Self.floodReason)"), "\(run)")

        // The same host goes on serving another widget after the flood.
        let after = try home.run(["launch", "hello", "--plugin-dir", directory, "--once", "--format", "json",
                                  "--actions", "widget://org.example.hostile,back"] + mode)
        #expect(after.status == 0, "\(after)")
        let screen = try Kit.screen(after)
        #expect(screen["plugin"]?.string == "org.example.hello", "\(after)")
        #expect(screen["view"]?["text"]?.string == "Hello, world! Waves: 0", "\(after)")
        #expect(after.stderr.contains("org.example.hostile: stopped: \(Self.floodReason)"), "\(after)")
    }

    @Test("the limit is the configuration's, in process too")
    func configuredLimit() throws {
        let directory = try Kit.hostileDirectory("self-flood-limit", defines: ["-DSELF_FLOOD=200"])
        let home = try Kit.Home()
        let config = try home.config(#"{"limits": {"eventsPerSecond": 100}}"#)
        let run = try home.run(["launch", "hostile", "--plugin-dir", directory, "--once", "--format", "json", "--config", config])
        #expect(try Kit.screen(run)["error"]?.string == "widget hostile stopped: flooded the bus: more than 100 events in a second", "\(run)")
    }

    @Test("under the limit, every event is published and delivered; past the mailbox's cap, the rest are dropped and said once")
    func mailboxCap() throws {
        let count = PluginContext.mailboxLimit * 2
        let directory = try Kit.hostileDirectory("self-flood-mailbox", defines: ["-DSELF_FLOOD=\(count)"])
        let recorder = LogRecorder()
        let runtime = try Kit.Home().runtime(recorder)
        let candidate = try Kit.candidate(directory + "/hostile.so")
        let loaded = try Loader.load(path: candidate.path, manifest: candidate.manifest!, serviceIDs: runtime.serviceIDs)
        let instance = try PluginInstance(plugin: loaded, runtime: runtime, maxEventsPerSecond: 1_000_000)

        #expect(try text(instance.render(screen: "main")) == "queued \(count), refused 0 (0), received 0")
        #expect(runtime.resolve(Bus.self).waitUntilIdle())
        #expect(instance.pump() == PluginContext.mailboxLimit)
        let dropped = recorder.recorded.filter { $0.contains("dropped bus events") }
        #expect(dropped.count == 1, "\(dropped)")
        #expect(dropped.first?.contains("\(PluginContext.mailboxLimit) are already waiting for it") == true, "\(dropped)")
        // The second render's own events wait again; the count is of what arrived before.
        #expect(try text(instance.render(screen: "main")) == "queued \(count), refused 0 (0), received \(PluginContext.mailboxLimit)")
        #expect(instance.context.stopReason == nil)
    }

    @Test("a stopped in-process plugin is called no more, and publishes nothing more")
    func stoppedInProcess() throws {
        let directory = try Kit.hostileDirectory("self-flood-stopped", defines: ["-DSELF_FLOOD=1500"])
        let recorder = LogRecorder()
        let runtime = try Kit.Home().runtime(recorder)
        let candidate = try Kit.candidate(directory + "/hostile.so")
        let loaded = try Loader.load(path: candidate.path, manifest: candidate.manifest!, serviceIDs: runtime.serviceIDs)
        let instance = try PluginInstance(plugin: loaded, runtime: runtime)
        #expect(throws: WidgetCallError.stopped(Self.floodReason)) { try instance.render(screen: "main") }
        #expect(throws: WidgetCallError.stopped(Self.floodReason)) { try instance.handle(action: "any", value: nil) }
        #expect(runtime.resolve(Bus.self).waitUntilIdle())
        #expect(instance.pump() == 0, "events were delivered to a stopped plugin")
        #expect(recorder.recorded.filter { $0.contains("stopped: \(Self.floodReason)") }.count == 1, "\(recorder.recorded)")
    }

    @Test("a 100 MB publish is refused as too large, naming the limit, in both modes", arguments: [false, true])
    func bigPublish(_ isolated: Bool) throws {
        let directory = try Kit.hostileDirectory("big-publish", defines: ["-DBIG_PUBLISH"])
        let run = try Kit.Home().run(["launch", "hostile", "--plugin-dir", directory, "--once", "--format", "json"]
            + (isolated ? ["--isolate"] : []))
        #expect(run.status == 0, "\(run)")
        let screen = try Kit.screen(run)
        #expect(screen["error"] == .null, "\(run)")
        #expect(screen["view"]?["text"]?.string == "publish returned \(WH_BUS_TOO_LARGE)", "\(run)")
        #expect(run.stderr.contains("org.example.hostile: refused publish to hostile.flood: the payload is over the bus's limit of 1048576 bytes"),
                "\(run)")
        #expect(!run.stderr.contains("timed out"), "\(run)")
    }

    @Test("exit(0) inside render in process: a non-zero status and a message naming the plugin")
    func exitInRender() throws {
        let directory = try Kit.hostileDirectory("exit-in-process", defines: ["-DEXIT_IN_RENDER"])
        let run = try Kit.Home().run(["launch", "hostile", "--plugin-dir", directory, "--once", "--format", "json"])
        #expect(run.status == 70, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(run.stderr.contains("widget-host: plugin org.example.hostile called exit(0) during render, ending the host."), "\(run)")
        #expect(run.stderr.contains("run it with --isolate"), "\(run)")
    }

    @Test("exit(3) on a thread the plugin started, outside any call: still put down to the plugin")
    func exitOnPluginThread() throws {
        let directory = try Kit.hostileDirectory("exit-on-thread", defines: ["-DEXIT_ON_THREAD"])
        let run = try Kit.Home().run(["launch", "hostile", "--plugin-dir", directory, "--once"])
        #expect(run.status == 70, "\(run)")
        #expect(run.stderr.contains("widget-host: plugin org.example.hostile called exit(3) on a thread of its own, ending the host."), "\(run)")
        #expect(run.stderr.contains("run it with --isolate"), "\(run)")
    }

    @Test("a crash in render in process: a short report naming the plugin and --isolate, not a backtrace",
          arguments: [("-DCRASH_IN_RENDER", SIGSEGV, "SIGSEGV"), ("-DABORT_IN_RENDER", SIGABRT, "SIGABRT")])
    func crashInRender(_ define: String, _ signal: Int32, _ name: String) throws {
        let directory = try Kit.hostileDirectory("crash-in-process-\(name)", defines: [define])
        let run = try Kit.Home().run(["launch", "hostile", "--plugin-dir", directory, "--once", "--format", "json"])
        #expect(run.termination == .signaled(signal), "\(run)")
        let lines = run.stderr.split(separator: "\n")
        #expect(lines == [
            "widget-host: plugin org.example.hostile crashed (\(name)) during render, ending the host.",
            #"widget-host: run it with --isolate (config: "host": {"isolation": "always"}) so that it stops only itself."#,
        ], "\(run)")
    }

    @Test("a crash while loading in process names the plugin and the load")
    func crashOnLoad() throws {
        let directory = try Kit.hostileDirectory("crash-on-load", defines: ["-DCRASH_ON_LOAD"])
        let run = try Kit.Home().run(["launch", "hostile", "--plugin-dir", directory, "--once"])
        #expect(run.termination == .signaled(SIGSEGV), "\(run)")
        #expect(run.stderr.contains("widget-host: plugin org.example.hostile crashed (SIGSEGV) during load, ending the host."), "\(run)")
    }

    private func text(_ bytes: [UInt8]) throws -> String? {
        try ViewDescription.parse(bytes).root.json["text"]?.string
    }
}

@Suite("FIFOQueue")
struct FIFOQueueTests {
    @Test("elements leave in the order they came, across the reclaiming of taken slots")
    func order() {
        var queue = FIFOQueue<Int>()
        var next = 0, expected = 0
        for round in 0..<50 {
            for _ in 0..<(round * 97 % 3000) { queue.append(next); next += 1 }
            for _ in 0..<(round * 61 % 2500) {
                guard let value = queue.popFirst() else { break }
                #expect(value == expected)
                expected += 1
            }
            #expect(queue.count == next - expected)
        }
        while let value = queue.popFirst() {
            #expect(value == expected)
            expected += 1
        }
        #expect(expected == next && queue.isEmpty && queue.popFirst() == nil)
    }

    @Test("an element taken is let go at once, not held until the queue runs dry")
    func takenIsLetGo() {
        final class Box {}
        var queue = FIFOQueue<Box>()
        var first = Box()
        queue.append(first)
        queue.append(Box())
        _ = queue.popFirst()
        #expect(isKnownUniquelyReferenced(&first))
        #expect(queue.count == 1)
    }
}
