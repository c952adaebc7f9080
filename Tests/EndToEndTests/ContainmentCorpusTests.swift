import Foundation
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

private typealias Kit = IsolationTestKit

/// Issue 12's proof of containment: hostile plugins built from hostile.c
/// attack the cage, each in every mode that runs plugin code (`launch
/// --isolate` from render; `info` and `validate` from a constructor, as
/// soon as the file loads; `validate` from render too). After each attack
/// the victim outside is unchanged (mode, owner, size, inode, and its
/// modification and change times, which any chmod, chown, utimes, xattr or
/// link would move), a listener outside accepted nothing, and the reason shown
/// names what was tried.
@Suite("Containment: attacks on the cage, in every mode that runs plugin code")
struct ContainmentCorpusTests {
    enum Mode: String, CaseIterable, Sendable {
        case launch, info, validate, validateRender = "validate-render"
    }

    /// One attack of hostile.c and the words its reason must hold; @VICTIM@
    /// and @SOCKET@ in them stand for the paths each run makes.
    struct Attack: Sendable, CustomTestStringConvertible {
        let name: String
        let defines: [String]
        let reason: String
        var testDescription: String { name }

        func defines(victim: String, socket: String) -> [String] {
            defines.map { $0.replacingOccurrences(of: "@VICTIM@", with: victim).replacingOccurrences(of: "@SOCKET@", with: socket) }
        }

        func reason(victim: String) -> String { reason.replacingOccurrences(of: "@VICTIM@", with: victim) }
    }

    /// Symbolic link + every path call, then the gateway, Unix sockets and processes.
    static let attacks: [Attack] = [
        ("chmod", "change the permissions of"), ("fchmodat", "change the permissions of"), ("fchmod", "change the permissions of"),
        ("chown", "change the owner of"), ("lchown", "change the owner of"), ("fchownat", "change the owner of"),
        ("utimes", "change the times of"), ("utimensat", "change the times of"), ("truncate", "truncate"), ("rename", "rename"),
        ("link", "link"), ("unlink", "delete"), ("setxattr", "change the extended attributes of"),
        ("removexattr", "change the extended attributes of"), ("open", "write"), ("fchmodat2", "change the permissions of"),
        ("lsetxattr", "change the extended attributes of"), ("utime", "change the times of"), ("renameat2", "rename"),
    ].map { call, verb in
        Attack(name: "symlink-\(call)", defines: ["-DPATH_ATTACK=\"\(call)\"", "-DVICTIM_DIR=\"@VICTIM@\""],
               reason: "tried to \(verb) @VICTIM@/victim outside its data directory")
    } + [("mkdir", "create the directory"), ("symlink", "create the symbolic link"), ("mknod", "create the special file")].map { call, verb in
        Attack(name: "symlink-\(call)", defines: ["-DPATH_ATTACK=\"\(call)\"", "-DVICTIM_DIR=\"@VICTIM@\""],
               reason: "tried to \(verb) @VICTIM@/escape outside its data directory")
    } + [
        Attack(name: "gateway", defines: ["-DGATEWAY_ATTACK", "-DVICTIM_DIR=\"@VICTIM@\""],
               reason: "tried to change the permissions of @VICTIM@/victim outside its data directory"),
        Attack(name: "unix-connect", defines: ["-DUNIX_CONNECT", "-DUNIX_PATH=\"@SOCKET@\""],
               reason: "tried to open a Unix socket (socket(AF_UNIX, SOCK_STREAM))"),
        Attack(name: "tcp-connect", defines: ["-DCONNECT_IN_RENDER"],
               reason: "tried to open a network socket (socket(AF_INET, SOCK_STREAM))"),
        Attack(name: "write-outside", defines: ["-DWRITE_OUTSIDE_IN_RENDER", "-DESCAPE_PATH=\"@VICTIM@/escape\""],
               reason: "tried to write @VICTIM@/escape outside its data directory"),
        Attack(name: "fork", defines: ["-DFORK_IN_RENDER"], reason: "tried to start a process"),
        Attack(name: "posix-spawn", defines: ["-DSPAWN_IN_RENDER"], reason: "tried to start a process"),
        Attack(name: "steal-descriptor", defines: ["-DSTEAL_DESCRIPTOR"], reason: "tried to trace another process"),
    ]

    static let cases: [(Attack, Mode)] = attacks.flatMap { attack in Mode.allCases.map { (attack, $0) } }

    @Test("the attack is stopped, nothing outside changed, and the reason names it", arguments: cases)
    func attack(_ attack: Attack, _ mode: Mode) throws {
        let victims = try Victims()
        let listener = try UnixListener(path: victims.directory + "/listener.sock")
        defer { listener.close() }
        let defines = attack.defines(victim: victims.directory, socket: listener.path)
            + (mode == .info || mode == .validate ? ["-DATTACK_IN_CONSTRUCTOR"] : [])
        // The plugin lives beside its victim: a directory the cage may read.
        let directory = victims.directory
        let plugin = directory + "/hostile.so"
        try TestSupport.compileC(source: TestSupport.fixtureDirectory + "/hostile.c", flags: ["-pthread"] + defines, output: plugin)
        let home = try Kit.Home()
        let reason = attack.reason(victim: victims.directory)

        switch mode {
        case .launch:
            let run = try home.run(["launch", "hostile", "--plugin-dir", directory, "--isolate", "--once", "--format", "json"])
            let error = try #require(try Kit.screen(run)["error"]?.string, "the attack was not stopped: \(run)")
            #expect(error.hasPrefix("widget hostile stopped: \(reason)"), "\(run)")
        case .info:
            let run = try home.run(["info", plugin, "--json"])
            let load = try #require(try run.json()["load"], "\(run)")
            #expect(load["status"]?.string == "fail", "\(run)")
            #expect(load["reason"]?.string?.contains("the sandbox stopped the plugin: it \(reason)") == true, "\(run)")
        case .validate, .validateRender:
            let run = try home.run(["validate", plugin, "--json"])
            #expect(run.status == 1, "\(run)")
            let checks = try #require(try run.json()["checks"]?.array, "\(run)")
            let failed = try #require(checks.first { $0["result"]?.string == "fail" }, "no check failed: \(run)")
            #expect(failed["check"]?.string == (mode == .validate ? "load" : "render main"), "\(run)")
            #expect(failed["detail"]?.string?.contains("the sandbox stopped the plugin: it \(reason)") == true, "\(run)")
        }
        try victims.expectUnchanged()
        #expect(listener.acceptedNothing(), "the listener outside accepted a connection")
    }

    @Test("validate runs the plugin under the memory limit of an isolated one")
    func validateMemoryLimit() throws {
        let directory = try Kit.hostileDirectory("validate-allocate", defines: ["-DALLOCATE_IN_RENDER"])
        let run = try Kit.Home().run(["validate", directory + "/hostile.so", "--json"])
        let checks = try #require(try run.json()["checks"]?.array, "\(run)")
        let failed = try #require(checks.first { $0["result"]?.string == "fail" }, "no check failed: \(run)")
        #expect(failed["check"]?.string == "render main", "\(run)")
        #expect(failed["detail"]?.string == "the plugin ran out of memory: an allocation failed against the 1024 MiB limit", "\(run)")
    }

    @Test("validate and info leave no data directory behind")
    func noDataDirectoryLeft() throws {
        let temporary = try TestSupport.makeTemporaryDirectory("validate-tmp")
        let directory = try Kit.hostileDirectory("validate-inside", defines: ["-DWRITE_INSIDE"])
        var environment = try Kit.Home().environment
        environment["TMPDIR"] = temporary
        let run = try TestSupport.runHost(["validate", directory + "/hostile.so"], environment: environment)
        #expect(run.status == 0, "\(run)")
        let info = try TestSupport.runHost(["info", directory + "/hostile.so"], environment: environment)
        #expect(info.stdout.contains("load:") && info.stdout.contains("ok"), "\(info)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty)
    }

    @Test("validate removes its data directory even when the plugin leaves a subdirectory no one may read in it")
    func lockedDataDirectoryRemoved() throws {
        let temporary = try TestSupport.makeTemporaryDirectory("validate-locked")
        let directory = try Kit.hostileDirectory("validate-locked", defines: ["-DLOCKED_INSIDE"])
        var environment = try Kit.Home().environment
        environment["TMPDIR"] = temporary
        let run = try TestSupport.runHost(["validate", directory + "/hostile.so", "--json"], environment: environment)
        #expect(run.status == 0, "\(run)")
        let checks = try #require(try run.json()["checks"]?.array, "\(run)")
        // The render check reports the view's size: 56 bytes say "locked inside", 64 "could not lock inside".
        #expect(checks.contains { $0["check"] == "render main" && $0["detail"] == "56 bytes of JSON" }, "\(run)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty)
    }

    /// A victim file outside every data directory, in the plugin's own
    /// directory, which the cage may read (so the plugin can open it, as it
    /// could any file the user keeps there), and how it stood before the attack.
    struct Victims {
        let directory: String
        let before: Snapshot

        struct Snapshot: Equatable {
            let mode: mode_t, owner: uid_t, group: gid_t, size: Int, inode: ino_t
            /// The change time moves with any change to the inode: permissions,
            /// owner, times, extended attributes, links.
            let modified: Int, modifiedNanoseconds: Int, changed: Int, changedNanoseconds: Int
        }

        init() throws {
            let made = try TestSupport.makeTemporaryDirectory("victims")
            let real = try #require(realpath(made, nil))
            defer { free(real) }
            directory = String(cString: real)
            try TestSupport.write(Array("secret\n".utf8), to: directory + "/victim")
            try TestSupport.setMode(directory + "/victim", 0o600)
            before = try Self.snapshot(directory + "/victim")
        }

        static func snapshot(_ path: String) throws -> Snapshot {
            var info = stat()
            guard stat(path, &info) == 0 else { throw TestSupport.Failure("the victim \(path) is gone: \(String(cString: strerror(errno)))") }
            return Snapshot(mode: info.st_mode, owner: info.st_uid, group: info.st_gid, size: Int(info.st_size), inode: info.st_ino,
                            modified: info.st_mtim.tv_sec, modifiedNanoseconds: info.st_mtim.tv_nsec,
                            changed: info.st_ctim.tv_sec, changedNanoseconds: info.st_ctim.tv_nsec)
        }

        func expectUnchanged() throws {
            #expect(try Self.snapshot(directory + "/victim") == before, "the victim outside changed")
            #expect(access(directory + "/escape", F_OK) != 0, "the plugin created a file outside")
            #expect(try String(contentsOfFile: directory + "/victim", encoding: .utf8) == "secret\n")
        }
    }

    /// A Unix socket listening outside the cage, as ssh-agent or Docker's would.
    struct UnixListener {
        let path: String
        let fd: Int32

        init(path: String) throws {
            self.path = path
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { bytes in
                for (index, byte) in path.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard fd >= 0, bound == 0, listen(fd, 8) == 0 else { throw TestSupport.Failure("cannot listen on \(path)") }
        }

        func acceptedNothing() -> Bool {
            let connection = accept(fd, nil, nil)
            if connection >= 0 { Glibc.close(connection) }
            return connection < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
        }

        func close() { _ = Glibc.close(fd) }
    }
}

/// The http service obeys the manifest on every hop: a redirect to a host
/// the manifest does not declare is not followed, in process and isolated.
/// "localhost" and "127.0.0.1" are the two hosts, on two loopback servers.
@Suite("Containment: http redirects are judged hop by hop")
struct ContainmentRedirectTests {
    private func run(redirectTo target: String, isolated: Bool, far: LoopbackHTTPServer) throws -> (TestSupport.HostRun, LoopbackHTTPServer) {
        let near = try LoopbackHTTPServer(always: .response(status: 302, body: Array("moved".utf8), headers: [("Location", target)]))
        let port = try #require(near.url("/").split(separator: ":").last.map { String($0.prefix { $0.isNumber }) })
        let url = "http://localhost:\(port)/redirect"
        let directory = try Kit.hostileDirectory("redirect-\(isolated)-\(far.url("/").hashValue)",
                                                 defines: ["-DHTTP_IN_RENDER", "-DHTTP_HOSTS=\"\\\"localhost\\\"\"", "-DHTTP_URL=\"\(url)\""])
        let run = try Kit.Home().run(["launch", "hostile", "--plugin-dir", directory, "--once", "--format", "json"] + (isolated ? ["--isolate"] : []))
        return (run, near)
    }

    @Test("a redirect to a host not declared is refused before it is asked, and the log says which hop", arguments: [false, true])
    func refused(_ isolated: Bool) throws {
        let far = try LoopbackHTTPServer(always: .ok("the other host's secret"))
        defer { far.stop() }
        let target = far.url("/secret")   // http://127.0.0.1:PORT/secret
        let (run, near) = try run(redirectTo: target, isolated: isolated, far: far)
        defer { near.stop() }
        #expect(try Kit.screen(run)["view"]?["text"]?.string == "http status -2", "\(run)")
        #expect(!near.requests.isEmpty, "\(run)")
        #expect(far.requests.isEmpty, "the redirect was followed to a host the manifest does not declare")
        #expect(run.stderr.contains("denied GET \(target): 127.0.0.1 is not among the hosts its manifest declares (localhost) "
                + "(the redirect of http://localhost:"),
                "\(run)")
    }

    @Test("a redirect within the declared hosts is followed", arguments: [false, true])
    func followed(_ isolated: Bool) throws {
        let far = try LoopbackHTTPServer(always: .ok("allowed"))
        defer { far.stop() }
        let target = far.url("/next").replacingOccurrences(of: "127.0.0.1", with: "localhost")
        let (run, near) = try run(redirectTo: target, isolated: isolated, far: far)
        defer { near.stop() }
        #expect(try Kit.screen(run)["view"]?["text"]?.string == "http status 200", "\(run)")
        #expect(!far.requests.isEmpty, "\(run)")
    }
}
