import Foundation
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// `store put KEY --lines`: one long-lived writer for a program that updates
/// a value often (the soak's store writes every 100 ms go through it).
@Suite("store put --lines")
struct StoreFeedTests {
    @Test("each line is written as it arrives, not when the input ends")
    func writesEachLineAsItArrives() throws {
        let home = try ServiceTestKit.temporaryDirectory("store-feed")
        let store = SharedStore(directory: SharedStore.defaultDirectory(["XDG_DATA_HOME": home + "/data", "HOME": home]))
        let writer = Process(), input = Pipe(), errors = Pipe()
        writer.executableURL = URL(fileURLWithPath: TestSupport.widgetHost)
        writer.arguments = ["store", "put", "feed.value", "--lines"]
        writer.environment = SpawnedProcess.hostEnvironment(home: home)
        writer.standardInput = input
        writer.standardError = errors
        try writer.run()
        defer { if writer.isRunning { writer.terminate() } }

        for value in ["{\"n\": 1}", "{\"n\": 2}", "{\"n\": 3}"] {
            input.fileHandleForWriting.write(Data((value + "\n").utf8))
            // The writer is still running (its input is open), so the value can only come from that line.
            let deadline = Date().addingTimeInterval(60)
            while try store.get("feed.value") != Array(value.utf8) && Date() < deadline { usleep(10_000) }
            #expect(try store.get("feed.value") == Array(value.utf8), "\(value) not written while the input stays open")
            #expect(writer.isRunning)
        }
        try input.fileHandleForWriting.close()
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0, "\(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
        #expect(try store.keys() == ["feed.value"])
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory)
        #expect(names == ["feed.value"], "no temporary file is left: \(names)")
    }

    @Test("blank lines are skipped and a last line without a newline is written")
    func blankLinesAndLastLine() throws {
        let home = try ServiceTestKit.temporaryDirectory("store-feed-last")
        let environment = SpawnedProcess.hostEnvironment(home: home)
        let run = try SpawnedProcess.run([TestSupport.widgetHost, "store", "put", "feed.value", "--lines", "-"], environment: environment,
                                         input: Array("first\n\n\nsecond\nlast".utf8))
        #expect(run.status == 0, "\(run)")
        let get = try SpawnedProcess.run([TestSupport.widgetHost, "store", "get", "feed.value"], environment: environment, input: [])
        #expect(get.stdout == "last")

        let blank = try SpawnedProcess.run([TestSupport.widgetHost, "store", "put", "feed.value", "--lines"], environment: environment,
                                           input: Array("\n\n".utf8))
        #expect(blank.status == 0, "\(blank)")
        let after = try SpawnedProcess.run([TestSupport.widgetHost, "store", "get", "feed.value"], environment: environment, input: [])
        #expect(after.stdout == "last", "only blank lines change nothing")
    }

    @Test("a bad line stops the feed with its error and keeps the value written before it")
    func badLineStopsTheFeed() throws {
        let home = try ServiceTestKit.temporaryDirectory("store-feed-bad")
        let environment = SpawnedProcess.hostEnvironment(home: home)
        let lines = "{\"at\": \"2026-06-11T08:00:00Z\"}\nnot json\n{\"at\": \"2026-06-12T08:00:00Z\"}\n"
        let run = try SpawnedProcess.run([TestSupport.widgetHost, "store", "put", "feed.value", "--lines", "--shift-dates", "2026-06-11T12:00:00Z",
                                          "--now", "2026-06-13T12:00:00Z"], environment: environment, input: Array(lines.utf8))
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("--shift-dates needs a JSON value"), "\(run.stderr)")
        let get = try SpawnedProcess.run([TestSupport.widgetHost, "store", "get", "feed.value"], environment: environment, input: [])
        #expect(get.stdout == "{\"at\":\"2026-06-13T08:00:00Z\"}", "the first line, shifted two days, stays: \(get.stdout)")
    }

    @Test("--lines reads standard input only")
    func refusesAFile() throws {
        let home = try ServiceTestKit.temporaryDirectory("store-feed-usage")
        let environment = SpawnedProcess.hostEnvironment(home: home)
        let withFile = try SpawnedProcess.run([TestSupport.widgetHost, "store", "put", "feed.value", "--lines", "--file", "/etc/hostname"],
                                              environment: environment, input: Array("x\n".utf8))
        #expect(withFile.status == 2 && withFile.stderr.contains("--lines reads standard input"), "\(withFile)")
        let extra = try SpawnedProcess.run([TestSupport.widgetHost, "store", "put", "feed.value", "--lines", "more"],
                                           environment: environment, input: Array("x\n".utf8))
        #expect(extra.status == 2 && extra.stderr.contains("unexpected argument 'more'"), "\(extra)")
        let list = try SpawnedProcess.run([TestSupport.widgetHost, "store", "list"], environment: environment, input: [])
        #expect(list.stdout.isEmpty, "nothing was written: \(list.stdout)")
    }

    @Test("a usage error ends the writer without reading its input, and whoever pipes to it only sees the pipe close")
    func usageErrorLeavesInputUnread() throws {
        // More than a pipe holds, so the feeding side is still writing when
        // the refused writer has exited: it must get EPIPE, not SIGPIPE.
        let home = try ServiceTestKit.temporaryDirectory("store-feed-unread")
        let environment = SpawnedProcess.hostEnvironment(home: home)
        let unread = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        let run = try SpawnedProcess.run([TestSupport.widgetHost, "store", "put", "feed.value", "--lines", "--file", "/etc/hostname"],
                                         environment: environment, input: unread)
        #expect(run.status == 2 && run.stderr.contains("--lines reads standard input"), "\(run)")
        let list = try SpawnedProcess.run([TestSupport.widgetHost, "store", "list"], environment: environment, input: [])
        #expect(list.stdout.isEmpty, "nothing was written: \(list.stdout)")
    }
}
