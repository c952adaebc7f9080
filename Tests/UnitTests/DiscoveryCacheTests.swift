import Foundation
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// A cache may only save work: every change a scan would see without it, a
/// scan with it sees too.
@Suite("Discovery cache: what a rescan reuses, and what it never misses")
struct DiscoveryCacheTests {
    /// A private directory of copies of built plugins, under `parent`.
    final class Farm {
        let root: String, directory: String

        init() throws {
            root = try #require(mkdtemp(strdup("/tmp/discovery-cache-XXXXXX")).map { String(cString: $0) })
            directory = root + "/a/plugins"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o755])
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func add(_ plugin: String, as name: String) throws {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: TestSupport.productsDirectory + "/lib\(plugin).so"))
            // Written beside, then renamed in: what an installer does.
            let staging = root + "/staging.so"
            #expect(FileManager.default.createFile(atPath: staging, contents: bytes, attributes: [.posixPermissions: 0o755]))
            #expect(rename(staging, directory + "/" + name) == 0)
        }

        var searchPath: SearchPath { SearchPath(directories: [.init(path: directory, origin: "test", explicit: true)]) }

        /// Past the margin within which a stamp is not trusted.
        func settle() { usleep(150_000) }
    }

    static let services = Set(ServiceTable.all.map(\.id))

    /// What a person would see of a report.
    static func summary(_ report: DiscoveryReport) -> [String] {
        report.plugins.map { "\(($0.path as NSString).lastPathComponent) \($0.manifest.map { "\($0.id)" } ?? "-") \($0.status.name)" }
            + report.warnings
    }

    static func reads(_ cache: DiscoveryCache) -> (listings: Int, files: Int) { cache.memory.withLock { $0.reads } }

    @Test("a rescan of an unchanged directory lists and reads nothing again, and reports what a fresh scan does")
    func unchangedRescan() throws {
        let farm = try Farm()
        try farm.add("CheckoutPlugin", as: "checkout.so")
        try farm.add("TripsPlugin", as: "trips.so")
        farm.settle()
        let cache = DiscoveryCache()
        let discovery = Discovery(availableServices: Self.services, cache: cache)
        let first = discovery.scan(farm.searchPath)
        #expect(Self.reads(cache) == (1, 2))
        let again = discovery.scan(farm.searchPath)
        #expect(Self.reads(cache) == (1, 2))
        let fresh = Discovery(availableServices: Self.services).scan(farm.searchPath)
        #expect(Self.summary(first) == ["checkout.so org.widgethost.checkout ok", "trips.so org.widgethost.trips ok"])
        #expect(Self.summary(again) == Self.summary(first))
        #expect(Self.summary(fresh) == Self.summary(first))
    }

    @Test("a file added, made unsafe, made safe, replaced or removed shows on the next scan; only the new file is read")
    func changesShow() throws {
        let farm = try Farm()
        try farm.add("CheckoutPlugin", as: "checkout.so")
        farm.settle()
        let cache = DiscoveryCache()
        let discovery = Discovery(availableServices: Self.services, cache: cache)
        func scan() -> [String] {
            defer { farm.settle() }
            return Self.summary(discovery.scan(farm.searchPath))
        }
        #expect(scan() == ["checkout.so org.widgethost.checkout ok"])

        try farm.add("TripsPlugin", as: "trips.so")
        farm.settle()
        #expect(scan() == ["checkout.so org.widgethost.checkout ok", "trips.so org.widgethost.trips ok"])
        #expect(Self.reads(cache) == (2, 2), "the unchanged file was read again")

        #expect(chmod(farm.directory + "/trips.so", 0o757) == 0)
        farm.settle()
        #expect(scan() == ["checkout.so org.widgethost.checkout ok", "trips.so org.widgethost.trips rejected"])
        #expect(chmod(farm.directory + "/trips.so", 0o755) == 0)
        farm.settle()
        #expect(scan() == ["checkout.so org.widgethost.checkout ok", "trips.so org.widgethost.trips ok"])

        try farm.add("CryptoPlugin", as: "trips.so")
        farm.settle()
        #expect(scan() == ["checkout.so org.widgethost.checkout ok", "trips.so org.widgethost.crypto ok"])

        #expect(unlink(farm.directory + "/checkout.so") == 0)
        farm.settle()
        #expect(scan() == ["trips.so org.widgethost.crypto ok"])
    }

    @Test("a directory above made writable by others refuses the plugins on the next scan, and its repair restores them")
    func chainChangeShows() throws {
        let farm = try Farm()
        try farm.add("CheckoutPlugin", as: "checkout.so")
        farm.settle()
        let discovery = Discovery(availableServices: Self.services, cache: DiscoveryCache())
        #expect(discovery.scan(farm.searchPath).usable.count == 1)
        _ = discovery.scan(farm.searchPath)
        // Nothing in the plugins directory changes: only the one above it.
        #expect(chmod(farm.root + "/a", 0o777) == 0)
        let refused = discovery.scan(farm.searchPath)
        #expect(refused.usable.isEmpty)
        #expect(refused.plugins.first?.status.reason?.contains("\(farm.root)/a is writable by others") == true, "\(refused.plugins)")
        #expect(chmod(farm.root + "/a", 0o755) == 0)
        #expect(discovery.scan(farm.searchPath).usable.count == 1)
    }

    @Test("times put back on a directory do not hide a file added to it")
    func restoredTimes() throws {
        let farm = try Farm()
        try farm.add("CheckoutPlugin", as: "checkout.so")
        farm.settle()
        let discovery = Discovery(availableServices: Self.services, cache: DiscoveryCache())
        _ = discovery.scan(farm.searchPath)
        var before = stat()
        #expect(stat(farm.directory, &before) == 0)
        try farm.add("TripsPlugin", as: "trips.so")
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, farm.directory, &times, 0) == 0)
        farm.settle()
        #expect(Self.summary(discovery.scan(farm.searchPath)).count == 2)
    }

    @Test("a directory or file changed within the clock's last tick is judged again on the next scan, not trusted")
    func freshStampsAreNotKept() throws {
        let farm = try Farm()
        try farm.add("CheckoutPlugin", as: "checkout.so")
        var status = stat()
        #expect(stat(farm.directory + "/checkout.so", &status) == 0)
        #expect(!FileStamp(status).isSettled(before: FileStamp.settledCutoff()))
        let cache = DiscoveryCache()
        let discovery = Discovery(availableServices: Self.services, cache: cache)
        _ = discovery.scan(farm.searchPath)
        #expect(cache.memory.withLock { $0.listings.isEmpty && $0.contents.isEmpty })
        _ = discovery.scan(farm.searchPath)
        #expect(Self.reads(cache) == (2, 2))
        farm.settle()
        #expect(FileStamp(status).isSettled(before: FileStamp.settledCutoff()))
        _ = discovery.scan(farm.searchPath)
        _ = discovery.scan(farm.searchPath)
        #expect(Self.reads(cache) == (3, 3))
    }

    @Test("--allow-insecure and the host's services are part of what a remembered verdict was judged under")
    func judgedUnder() throws {
        let farm = try Farm()
        try farm.add("CheckoutPlugin", as: "checkout.so")
        #expect(chmod(farm.directory + "/checkout.so", 0o757) == 0)
        farm.settle()
        let cache = DiscoveryCache()
        let strict = Discovery(availableServices: Self.services, cache: cache)
        let lax = Discovery(allowInsecure: true, availableServices: Self.services, cache: cache)
        #expect(strict.scan(farm.searchPath).usable.isEmpty)
        #expect(lax.scan(farm.searchPath).usable.count == 1)
        #expect(strict.scan(farm.searchPath).usable.isEmpty)

        let fewer = Discovery(allowInsecure: true, availableServices: Self.services.subtracting(["widget-host.store/1"]), cache: cache)
        #expect(fewer.scan(farm.searchPath).plugins.first?.status.reason?.contains("requires service widget-host.store/1") == true)
        #expect(lax.scan(farm.searchPath).usable.count == 1)
    }

    @Test("a directory that is no longer there takes its plugins with it, even one searched quietly")
    func directoryGone() throws {
        let farm = try Farm()
        try farm.add("CheckoutPlugin", as: "checkout.so")
        let quiet = farm.root + "/quiet"
        #expect(mkdir(quiet, 0o755) == 0)
        try FileManager.default.copyItem(atPath: farm.directory + "/checkout.so", toPath: quiet + "/trips.so")
        farm.settle()
        let path = SearchPath(directories: farm.searchPath.directories + [.init(path: quiet, origin: "default", explicit: false)])
        let discovery = Discovery(availableServices: Self.services, cache: DiscoveryCache())
        #expect(Self.summary(discovery.scan(path)).count == 2)
        _ = discovery.scan(path)
        try FileManager.default.removeItem(atPath: quiet)
        let fresh = Discovery(availableServices: Self.services).scan(path)
        #expect(Self.summary(discovery.scan(path)) == Self.summary(fresh))
        #expect(Self.summary(fresh) == ["checkout.so org.widgethost.checkout ok"])
    }

    @Test("a reading stands for a file only when nothing outside the file decided it and the file read is the one stat named")
    func transientFailures() throws {
        let farm = try Farm()
        let garbage = farm.directory + "/garbage.so"
        #expect(FileManager.default.createFile(atPath: garbage, contents: Data("not a plugin".utf8)))
        var status = stat()
        #expect(stat(garbage, &status) == 0)
        let before = FileIdentity(status)
        let refused = FileContents(path: garbage, availableServices: Self.services)
        #expect(refused.problem == "not an ELF file" && refused.lasting(as: before))
        // A path through a regular file fails with ENOTDIR: a system error, as EMFILE or EIO would be.
        let failed = FileContents(path: garbage + "/x.so", availableServices: Self.services)
        #expect(failed.problem?.contains("failed") == true && failed.identity == nil, "\(failed.problem ?? "nil")")
        // Another file renamed in after the stat: what was read is not the file the stat saw.
        try farm.add("CheckoutPlugin", as: "garbage.so")
        let swapped = FileContents(path: garbage, availableServices: Self.services)
        #expect(swapped.problem == nil && !swapped.lasting(as: before))

        #expect(FileSystem.sameContents(garbage, garbage) == true)
        let other = farm.root + "/other.so"
        #expect(FileManager.default.createFile(atPath: other, contents: Data("not a plugin".utf8)))
        #expect(FileSystem.sameContents(garbage, other) == false)
        #expect(FileSystem.sameContents(garbage, farm.directory + "/missing.so") == nil)
    }

    @Test("times in whole seconds come from a coarse file system and settle only after two seconds")
    func coarseTimes() {
        let cutoff = FileStamp.settledCutoff()
        func stamp(secondsAgo: Int64, nanoseconds: Int) -> FileStamp {
            var status = stat()
            let seconds = (cutoff + 100_000_000) / 1_000_000_000 - secondsAgo
            status.st_mtim = timespec(tv_sec: Int(seconds), tv_nsec: nanoseconds)
            status.st_ctim = status.st_mtim
            return FileStamp(status)
        }
        #expect(stamp(secondsAgo: 1, nanoseconds: 5).isSettled(before: cutoff))
        #expect(!stamp(secondsAgo: 1, nanoseconds: 0).isSettled(before: cutoff))
        #expect(stamp(secondsAgo: 3, nanoseconds: 0).isSettled(before: cutoff))
    }
}
