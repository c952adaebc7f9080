import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

@Suite("Search path")
struct SearchPathTests {
    static func paths(_ searchPath: SearchPath) -> [String] { searchPath.directories.map(\.path) }

    @Test func orderIsPluginDirsThenEnvironmentThenDataThenExecutable() {
        let searchPath = SearchPath.resolve(
            pluginDirs: ["/first", "/second"],
            environment: ["WIDGET_HOST_PLUGIN_PATH": "/env/a:/env/b", "XDG_DATA_HOME": "/data", "HOME": "/home/u"],
            executableDirectory: "/opt/widget-host/bin")
        #expect(searchPath.directories == [
            .init(path: "/first", origin: "--plugin-dir", explicit: true),
            .init(path: "/second", origin: "--plugin-dir", explicit: true),
            .init(path: "/env/a", origin: "WIDGET_HOST_PLUGIN_PATH", explicit: true),
            .init(path: "/env/b", origin: "WIDGET_HOST_PLUGIN_PATH", explicit: true),
            .init(path: "/data/widget-host/plugins", origin: "XDG_DATA_HOME", explicit: false),
            .init(path: "/opt/widget-host/bin", origin: "executable directory", explicit: false),
        ])
    }

    @Test func emptyPartsOfThePluginPathAreSkipped() {
        let searchPath = SearchPath.resolve(
            pluginDirs: [], environment: ["WIDGET_HOST_PLUGIN_PATH": ":/a::/b:", "HOME": "/h"], executableDirectory: nil)
        #expect(Self.paths(searchPath) == ["/a", "/b", "/h/.local/share/widget-host/plugins"])
        let empty = SearchPath.resolve(pluginDirs: [], environment: ["WIDGET_HOST_PLUGIN_PATH": "", "HOME": "/h"], executableDirectory: nil)
        #expect(Self.paths(empty) == ["/h/.local/share/widget-host/plugins"])
        let colons = SearchPath.resolve(pluginDirs: [], environment: ["WIDGET_HOST_PLUGIN_PATH": ":::", "HOME": "/h"], executableDirectory: nil)
        #expect(Self.paths(colons) == ["/h/.local/share/widget-host/plugins"])
    }

    @Test func duplicatesKeepTheirFirstPlace() {
        let searchPath = SearchPath.resolve(
            pluginDirs: ["/a", "/b", "/a"],
            environment: ["WIDGET_HOST_PLUGIN_PATH": "/b:/c:/c", "XDG_DATA_HOME": "/x", "HOME": "/h"],
            executableDirectory: "/a")
        #expect(Self.paths(searchPath) == ["/a", "/b", "/c", "/x/widget-host/plugins"])
        // The first occurrence keeps its origin.
        #expect(searchPath.directories[1] == .init(path: "/b", origin: "--plugin-dir", explicit: true))

        let dataTwice = SearchPath.resolve(
            pluginDirs: [], environment: ["XDG_DATA_HOME": "/x", "WIDGET_HOST_PLUGIN_PATH": "/x/widget-host/plugins"],
            executableDirectory: "/x/widget-host/plugins")
        #expect(dataTwice.directories == [.init(path: "/x/widget-host/plugins", origin: "WIDGET_HOST_PLUGIN_PATH", explicit: true)])
    }

    @Test func relativeOrEmptyDataHomeFallsBackToHome() {
        for dataHome in ["relative/data", "", "./data", "~/data"] {
            let searchPath = SearchPath.resolve(
                pluginDirs: [], environment: ["XDG_DATA_HOME": dataHome, "HOME": "/home/u"], executableDirectory: nil)
            #expect(Self.paths(searchPath) == ["/home/u/.local/share/widget-host/plugins"], "XDG_DATA_HOME=\(dataHome)")
        }
        let unset = SearchPath.resolve(pluginDirs: [], environment: ["HOME": "/home/u"], executableDirectory: nil)
        #expect(Self.paths(unset) == ["/home/u/.local/share/widget-host/plugins"])
    }

    @Test func homeFallsBackToThePasswordDatabase() throws {
        let entry = try #require(getpwuid(geteuid()))
        let home = String(cString: entry.pointee.pw_dir)
        #expect(UserDirectories.home([:]) == home)
        #expect(UserDirectories.home(["HOME": ""]) == home)
        #expect(UserDirectories.home(["HOME": "/elsewhere"]) == "/elsewhere")
        #expect(UserDirectories.data([:]) == home + "/.local/share")
        #expect(UserDirectories.config(["XDG_CONFIG_HOME": "/cfg", "HOME": "/h"]) == "/cfg")
        #expect(UserDirectories.config(["XDG_CONFIG_HOME": "cfg", "HOME": "/h"]) == "/h/.config")
    }

    @Test func executableDirectoryIsOurs() throws {
        let directory = try #require(UserDirectories.executableDirectory())
        #expect(directory.hasPrefix("/"))
        var status = stat()
        #expect(stat(directory, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR)
    }
}

@Suite("File safety")
struct FileSafetyTests {
    static let nobodysGroup: gid_t = 54321
    static let nobody: uid_t = 54321

    /// Root's group passes the private-group rule in FileSafety: it is the
    /// user's primary group, has the user's name, and lists no members.
    static var userHasPrivateGroup: Bool {
        guard let user = getpwuid(geteuid()), let group = getgrgid(user.pointee.pw_gid) else { return false }
        let noMembers = group.pointee.gr_mem == nil || group.pointee.gr_mem[0] == nil
        return strcmp(user.pointee.pw_name, group.pointee.gr_name) == 0 && noMembers
    }

    static var isRoot: Bool { geteuid() == 0 }

    /// A fresh directory (0755) holding `plugin.so` (0755); removed by the caller.
    static func layout() throws -> (root: String, directory: String, file: String) {
        let root = try UnitFixtures.temporaryDirectory()
        try UnitFixtures.changeMode(root, 0o755)
        let directory = root + "/plugins"
        try UnitFixtures.makeDirectory(directory, mode: 0o755)
        let file = directory + "/plugin.so"
        try UnitFixtures.writeFile(file, "not really ELF", mode: 0o755)
        return (root, directory, file)
    }

    static func problem(_ path: String) -> String? {
        var safety = FileSafety()
        return safety.problem(with: path)
    }

    @Test func privateFileInAPrivateDirectoryIsFine() throws {
        let (root, _, file) = try Self.layout()
        defer { UnitFixtures.remove(root) }
        #expect(Self.problem(file) == nil)
        try UnitFixtures.changeMode(file, 0o600)
        #expect(Self.problem(file) == nil)
    }

    @Test func fileWritableByOthersIsRefused() throws {
        let (root, _, file) = try Self.layout()
        defer { UnitFixtures.remove(root) }
        try UnitFixtures.changeMode(file, 0o666)
        #expect(Self.problem(file) == "plugin file \(file) is writable by others (mode 0666); to fix: chmod o-w \(file)")
        try UnitFixtures.changeMode(file, 0o702)
        #expect(Self.problem(file) == "plugin file \(file) is writable by others (mode 0702); to fix: chmod o-w \(file)")
    }

    @Test func directoryWritableByOthersIsRefused() throws {
        let (root, directory, file) = try Self.layout()
        defer { UnitFixtures.remove(root) }
        try UnitFixtures.changeMode(directory, 0o777)
        #expect(Self.problem(file) == "directory \(directory) is writable by others (mode 0777); to fix: chmod o-w \(directory)")
        // Any directory above, not only the nearest.
        try UnitFixtures.changeMode(directory, 0o755)
        try UnitFixtures.changeMode(root, 0o757)
        #expect(Self.problem(file) == "directory \(root) is writable by others (mode 0757); to fix: chmod o-w \(root)")
    }

    @Test func stickyWorldWritableDirectoryIsAccepted() throws {
        let (root, directory, file) = try Self.layout()
        defer { UnitFixtures.remove(root) }
        try UnitFixtures.changeMode(directory, 0o1777)
        #expect(Self.problem(file) == nil)
        // The sticky bit on a file is no excuse.
        try UnitFixtures.changeMode(file, 0o1777)
        #expect(Self.problem(file) == "plugin file \(file) is writable by others (mode 01777); to fix: chmod o-w \(file)")
    }

    @Test(.enabled(if: FileSafetyTests.userHasPrivateGroup, "needs a user-private group"))
    func groupWritableDirectoryOfYourPrivateGroupIsAccepted() throws {
        let (root, directory, file) = try Self.layout()
        defer { UnitFixtures.remove(root) }
        try UnitFixtures.changeOwner(directory, group: getegid())
        try UnitFixtures.changeMode(directory, 0o775)
        try UnitFixtures.changeMode(file, 0o775)
        #expect(Self.problem(file) == nil)
    }

    @Test(.enabled(if: FileSafetyTests.isRoot, "changing a file's group to any group needs root"))
    func groupWritableDirectoryOfAnotherGroupIsRefused() throws {
        let (root, directory, file) = try Self.layout()
        defer { UnitFixtures.remove(root) }
        try UnitFixtures.changeOwner(directory, group: Self.nobodysGroup)
        // Group ownership alone is harmless...
        #expect(Self.problem(file) == nil)
        // ...group write is not.
        try UnitFixtures.changeMode(directory, 0o775)
        #expect(Self.problem(file) == "directory \(directory) is writable by group gid \(Self.nobodysGroup) (mode 0775); to fix: chmod g-w \(directory)")
    }

    @Test(.enabled(if: FileSafetyTests.isRoot, "changing a file's group to any group needs root"))
    func groupWritableFileOfAnotherGroupIsRefused() throws {
        let (root, _, file) = try Self.layout()
        defer { UnitFixtures.remove(root) }
        try UnitFixtures.changeOwner(file, group: Self.nobodysGroup)
        try UnitFixtures.changeMode(file, 0o664)
        #expect(Self.problem(file) == "plugin file \(file) is writable by group gid \(Self.nobodysGroup) (mode 0664); to fix: chmod g-w \(file)")
    }

    @Test(.enabled(if: FileSafetyTests.isRoot, "a named group that is not root's own"))
    func groupWritableByANamedSharedGroupIsRefused() throws {
        // A group with a name, but not the user's: refused, and named in the message.
        let group = try #require(getgrnam("daemon") ?? getgrnam("bin") ?? getgrnam("sys"))
        let gid = group.pointee.gr_gid
        let name = String(cString: group.pointee.gr_name)
        try #require(gid != getegid())
        let (root, directory, file) = try Self.layout()
        defer { UnitFixtures.remove(root) }
        try UnitFixtures.changeOwner(directory, group: gid)
        try UnitFixtures.changeMode(directory, 0o770)
        #expect(Self.problem(file) == "directory \(directory) is writable by group \(name) (mode 0770); to fix: chmod g-w \(directory)")
    }

    @Test(.enabled(if: FileSafetyTests.isRoot, "giving a file away needs root"))
    func fileOwnedBySomeoneElseIsRefused() throws {
        let (root, directory, file) = try Self.layout()
        defer { UnitFixtures.remove(root) }
        try UnitFixtures.changeOwner(file, user: Self.nobody)
        #expect(Self.problem(file) == "plugin file \(file) is owned by uid \(Self.nobody), not by you or root")
        try UnitFixtures.changeOwner(file, user: 0)
        try UnitFixtures.changeOwner(directory, user: Self.nobody)
        #expect(Self.problem(file) == "directory \(directory) is owned by uid \(Self.nobody), not by you or root")
        // Sticky does not excuse a stranger's directory.
        try UnitFixtures.changeMode(directory, 0o1777)
        #expect(Self.problem(file) == "directory \(directory) is owned by uid \(Self.nobody), not by you or root")
    }

    @Test func missingFileCannotBeResolved() throws {
        let (root, directory, _) = try Self.layout()
        defer { UnitFixtures.remove(root) }
        let missing = directory + "/missing.so"
        #expect(Self.problem(missing) == "cannot resolve \(missing): No such file or directory")
    }

    @Test func symbolicLinksAreCheckedAtTheirTarget() throws {
        let (root, _, file) = try Self.layout()
        defer { UnitFixtures.remove(root) }
        // A safe-looking link to an unsafe file is refused, naming the file.
        let link = root + "/link.so"
        try UnitFixtures.symlink(file, at: link)
        try UnitFixtures.changeMode(file, 0o646)
        #expect(Self.problem(link) == "plugin file \(file) is writable by others (mode 0646); to fix: chmod o-w \(file)")
        try UnitFixtures.changeMode(file, 0o755)
        #expect(Self.problem(link) == nil)
    }

    @Test func linkInAWorldWritableDirectoryIsRefused() throws {
        let (root, _, file) = try Self.layout()
        defer { UnitFixtures.remove(root) }
        let shared = root + "/shared"
        try UnitFixtures.makeDirectory(shared, mode: 0o777)
        let link = shared + "/plugin.so"
        try UnitFixtures.symlink(file, at: link)
        // Anyone can re-point this link between the check and dlopen (which
        // opens the path as given), yet only the target's directories are checked.
        #expect(Self.problem(link)?.contains("writable by others") == true)
    }

    @Test func directoryVerdictsAreCachedPerInstance() throws {
        let (root, directory, file) = try Self.layout()
        defer { UnitFixtures.remove(root) }
        var safety = FileSafety()
        #expect(safety.problem(with: file) == nil)
        try UnitFixtures.changeMode(directory, 0o777)
        // The same instance remembers the directory; a fresh one looks again.
        #expect(safety.problem(with: file) == nil)
        #expect(Self.problem(file) == "directory \(directory) is writable by others (mode 0777); to fix: chmod o-w \(directory)")
        // Files are never cached.
        try UnitFixtures.changeMode(directory, 0o755)
        var fresh = FileSafety()
        #expect(fresh.problem(with: file) == nil)
        try UnitFixtures.changeMode(file, 0o666)
        #expect(fresh.problem(with: file) == "plugin file \(file) is writable by others (mode 0666); to fix: chmod o-w \(file)")
    }
}

@Suite("File safety: the directories above a path")
struct FileSafetyAncestorTests {
    @Test("every directory above, nearest first, ending with the root", arguments: [
        ("/a/b/c.so", ["/a/b", "/a", "/"]), ("/a/b/", ["/a/b", "/a", "/"]), ("/", []), ("/x", ["/"]),
        ("rel/dir/p.so", ["rel/dir", "rel"]), ("/é/ü/p.so", ["/é/ü", "/é", "/"]),
    ])
    func ancestors(path: String, expected: [String]) {
        #expect(FileSafety.ancestors(of: path) == expected)
    }
}
