import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

@Suite("Start-up: one scan, byte-ordered listings, the environment")
struct StartupScanTests {
    @Test("names sort by their UTF-8 bytes, shorter first on a common prefix, whatever their normal form")
    func byteOrder() {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"   // equal as Strings, different bytes
        let names = ["b", composed, "a.so", "B", decomposed, "a", "", "\u{1F600}", "z"]
        let sorted = names.sorted(by: Discovery.utf8Precedes)
        #expect(sorted == names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        // By bytes: firstIndex(of:) would find either, as String's == calls them equal.
        func position(_ name: String) -> Int? { sorted.firstIndex { $0.utf8.elementsEqual(name.utf8) } }
        #expect(position(decomposed)! < position(composed)!)   // "e" (0x65) before 0xC3
        #expect(!Discovery.utf8Precedes("a", "a") && Discovery.utf8Precedes("a", "a.so") && !Discovery.utf8Precedes("a.so", "a"))
    }

    @Test("a scan keeps names ending in .so with a name before it")
    func sharedObjectNames() {
        let kept = ["a.so", "libX.so", ".so.so", "x.y.so"], dropped = [".so", "so", "a.so.1", "a.SO", "a.so ", "", "aso"]
        for name in kept { #expect(Discovery.isSharedObjectName(name), "\(name)") }
        for name in dropped { #expect(!Discovery.isSharedObjectName(name), "\(name)") }
    }

    @Test("a directory lists in byte order, . and .. left out")
    func directoryListing() throws {
        let directory = try #require(mkdtemp(strdup("/tmp/startup-scan-XXXXXX")).map { String(cString: $0) })
        defer {
            (try? Discovery.entries(in: directory))?.forEach { unlink(directory + "/" + $0) }
            rmdir(directory)
        }
        let names = ["libZ.so", "liba.so", "caf\u{E9}.so", "cafe\u{301}.so", "lib.so", "prefix12.so", "prefix12-b.so", "prefix12-a.so", "\u{E9}.so"]
        for name in names { close(open(directory + "/" + name, O_CREAT | O_WRONLY, 0o600)) }
        #expect(try Discovery.entries(in: directory) == names.sorted(by: Discovery.utf8Precedes))
        // The first 8 bytes decide most pairs; "prefix12..." shares them and is decided by the rest.
        #expect(try Discovery.entries(in: directory) == [
            "cafe\u{301}.so", "caf\u{E9}.so", "lib.so", "libZ.so", "liba.so", "prefix12-a.so", "prefix12-b.so", "prefix12.so", "\u{E9}.so",
        ])
    }

    @Test("the configuration's report is handed to the first scan of the same search path, once")
    func handOver() {
        let path = SearchPath(directories: [.init(path: "/nonexistent-a", origin: "--plugin-dir", explicit: true)])
        let other = SearchPath(directories: [.init(path: "/nonexistent-b", origin: "--plugin-dir", explicit: true)])
        let report = DiscoveryReport(plugins: [], warnings: ["left"])
        let handOver = ScanHandOver()
        handOver.leave(report, for: path, allowInsecure: false)
        handOver.leave(DiscoveryReport(plugins: [], warnings: ["later"]), for: path, allowInsecure: false)
        #expect(handOver.take(for: path, allowInsecure: false)?.warnings == ["left"])
        #expect(handOver.take(for: path, allowInsecure: false) == nil)   // once a run

        let mismatched = ScanHandOver()
        mismatched.leave(report, for: path, allowInsecure: false)
        #expect(mismatched.take(for: other, allowInsecure: false) == nil)
        #expect(mismatched.take(for: path, allowInsecure: false) == nil)   // a mismatch ends the hand-over too
        let insecure = ScanHandOver()
        insecure.leave(report, for: path, allowInsecure: false)
        #expect(insecure.take(for: path, allowInsecure: true) == nil)
    }

    @Test("the environment splits at the first '=', keeps a name's first value and skips an entry without '='")
    func environment() {
        let texts: [String] = ["A=1", "EQUALS=a=b=c", "EMPTY=", "NOEQUALS", "A=2", "=nameless", "\u{E9}T\u{E9}=\u{E9}"]
        let entries = texts.map { strdup($0) } + [nil]
        defer { entries.forEach { free($0) } }
        let values = entries.withUnsafeBufferPointer { Environment.read($0.baseAddress!) }
        #expect(values == ["A": "1", "EQUALS": "a=b=c", "EMPTY": "", "": "nameless", "\u{E9}T\u{E9}": "\u{E9}"])
        for (name, value) in Environment.current where !name.isEmpty {
            #expect(getenv(name).map { String(cString: $0) } == value, "\(name)")
        }
    }
}
