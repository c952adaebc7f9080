import Foundation
import Glibc
import Synchronization
import Testing
@testable import WidgetHostKit

/// Paths, processes and files for the tests that drive the real `widget-host`
/// executable and real plugin files.
enum TestSupport {
    // MARK: Where things are

    /// The package's root directory, found from this file's own path.
    static let packageRoot: String = {
        var path = #filePath   // <root>/Tests/TestSupport/TestSupport.swift
        for _ in 0..<3 { path = dirname(path) }
        return path
    }()

    /// The directory holding the plugin ABI's headers (`widget_host/*.h`).
    static let includeDirectory = packageRoot + "/Sources/PluginABI/include"

    /// The directory holding the C fixture plugins.
    static let fixtureDirectory = packageRoot + "/Tests/Fixtures/plugins"

    /// The complete C plugin whose -D switches make broken variants.
    static let helloSource = fixtureDirectory + "/hello.c"

    /// The built products: `$WIDGET_HOST_PRODUCTS` if set (so CI can point the
    /// tests at `.build/release`), else the directory of the running test
    /// binary, which `swift test` builds next to `widget-host` and the plugins.
    static let productsDirectory: String = {
        if let products = ProcessInfo.processInfo.environment["WIDGET_HOST_PRODUCTS"], !products.isEmpty {
            return products.hasPrefix("/") ? products : FileManager.default.currentDirectoryPath + "/" + products
        }
        return dirname(readLink("/proc/self/exe") ?? CommandLine.arguments[0])
    }()

    static var widgetHost: String { productsDirectory + "/widget-host" }

    /// The Swift plugins the package builds, as products next to `widget-host`.
    static let swiftPlugins: [(file: String, id: String, shortName: String)] = [
        ("libCryptoPlugin.so", "org.widgethost.crypto", "crypto"),
        ("libCheckoutPlugin.so", "org.widgethost.checkout", "checkout"),
        ("libTripsPlugin.so", "org.widgethost.trips", "trips"),
        ("libTickerPlugin.so", "org.widgethost.ticker", "ticker"),
    ]

    // MARK: Running widget-host

    /// What one run of `widget-host` did.
    struct HostRun: Sendable, CustomStringConvertible {
        let arguments: [String]
        let termination: ChildProcess.Termination
        let stdout: String
        let stderr: String

        /// The exit status, or nil if the process was killed by a signal.
        var status: Int32? {
            if case let .exited(code) = termination { return code }
            return nil
        }

        var description: String {
            "widget-host \(arguments.joined(separator: " ")): \(termination)\n--- stdout:\n\(stdout)--- stderr:\n\(stderr)"
        }

        /// Standard output parsed, for `--format json` and `--json` runs.
        func json() throws -> JSONValue {
            do { return try JSONParser.parse(stdout) } catch { throw Failure("not JSON: \(error)\n\(self)") }
        }
    }

    /// Runs `widget-host` with `arguments` in a controlled environment: HOME
    /// and the XDG directories point into an empty temporary directory, and
    /// WIDGET_HOST_PLUGIN_PATH is unset unless `environment` sets it.
    /// `environment` adds to or overrides that base. A run that outlives
    /// `timeout` is killed and throws, so a hang fails the test instead of
    /// hanging the suite.
    static func runHost(
        _ arguments: [String], environment: [String: String] = [:], timeout: Double = 60
    ) throws -> HostRun {
        let home = try sharedHome.get()
        var variables = ["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config"]
        for name in ["PATH", "LD_LIBRARY_PATH"] {
            if let value = ProcessInfo.processInfo.environment[name] { variables[name] = value }
        }
        variables.merge(environment) { _, new in new }
        let result = try run([widgetHost] + arguments, environment: variables, timeout: timeout)
        let run = HostRun(arguments: arguments, termination: result.termination,
                          stdout: String(decoding: result.standardOutput, as: UTF8.self),
                          stderr: String(decoding: result.standardError, as: UTF8.self))
        if case .timedOut = run.termination { throw Failure("widget-host hung and was killed: \(run)") }
        return run
    }

    /// An empty home directory shared by every run: nothing ever writes to it.
    private static let sharedHome = Result { () throws -> String in try makeTemporaryDirectory("home") }

    // MARK: Compiling C plugins

    /// Compiles hello.c into a plugin at `output`. Each define is one argv
    /// word, so a string value is written `-DPLUGIN_ID="org.bad.Id!"`.
    static func compileHello(defines: [String] = [], output: String) throws {
        try compileC(source: helloSource, flags: defines, output: output)
    }

    /// `cc -shared -fPIC -Wall -Wextra -Werror -I <include> -Wa,-I,<source's directory> FLAGS -o OUTPUT SOURCE`,
    /// run without a shell. The assembler's -I lets a fixture embed its
    /// manifest file by name (`WH_MANIFEST_FILE("noop.widget.json")`), as a
    /// plugin author's Makefile does from the plugin's own directory. The output is made mode 0755 whatever the umask.
    /// `compiler` names another compiler (`g++` for a C++ plugin), found the
    /// same way.
    static func compileC(source: String, flags: [String] = [], output: String, compiler name: String? = nil) throws {
        let directory = String(source[..<(source.lastIndex(of: "/") ?? source.startIndex)])
        let arguments = [try compiler(name), "-shared", "-fPIC", "-Wall", "-Wextra", "-Werror", "-I", includeDirectory,
                         "-Wa,-I," + (directory.isEmpty ? "." : directory)]
            + flags + ["-o", output, source]
        let result = try run(arguments, environment: nil, timeout: 120)
        guard result.termination == .exited(0) else {
            throw Failure("\(arguments.joined(separator: " ")) \(result.termination):\n"
                + String(decoding: result.standardError, as: UTF8.self))
        }
        try setMode(output, 0o755)
    }

    /// `name`, else `$CC` if set, else `cc`, from PATH, as an absolute path
    /// (ChildProcess does not search PATH).
    private static func compiler(_ named: String? = nil) throws -> String {
        let environment = ProcessInfo.processInfo.environment
        let name = named ?? environment["CC"].flatMap { $0.isEmpty ? nil : $0 } ?? "cc"
        if name.hasPrefix("/") { return name }
        let directories = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        let candidates = directories.map { directory -> String in "\(directory)/\(name)" }
        guard let found = candidates.first(where: { path in access(path, X_OK) == 0 }) else {
            throw Failure("no compiler '\(name)' on PATH (.ci/run installs it)")
        }
        return found
    }

    /// The first of `names` found on PATH, as an absolute path; nil if none is.
    static func executable(_ names: [String]) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return names.lazy.flatMap { name in directories.map { "\($0)/\(name)" } }.first { access($0, X_OK) == 0 }
    }

    // MARK: Files

    /// A new directory under FileManager's temporary directory, mode 0755
    /// (the host refuses group- or world-writable directories). Removed when
    /// the test process exits, unless WIDGET_HOST_KEEP_TEST_FILES is set.
    static func makeTemporaryDirectory(_ label: String) throws -> String {
        let base = FileManager.default.temporaryDirectory.path
        var template = Array("\(base)/widget-host-tests.\(label).XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Failure("mkdtemp in \(base): \(errorText())") }
        let path = String(cString: made)
        try setMode(path, 0o755)
        registerForRemoval(path)
        return path
    }

    static func setMode(_ path: String, _ mode: mode_t) throws {
        guard chmod(path, mode) == 0 else { throw Failure("chmod \(path): \(errorText())") }
    }

    static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try setMode(path, mode)
    }

    static func readBytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func copy(_ source: String, to destination: String, mode: mode_t = 0o755) throws {
        try write(try readBytes(source), to: destination, mode: mode)
    }

    /// Extends (or cuts) a file to `size` bytes; extending leaves a sparse hole.
    static func truncateFile(_ path: String, to size: Int64) throws {
        guard truncate(path, off_t(size)) == 0 else { throw Failure("truncate \(path): \(errorText())") }
    }

    static func makeFIFO(_ path: String) throws {
        guard mkfifo(path, 0o644) == 0 else { throw Failure("mkfifo \(path): \(errorText())") }
    }

    static func makeSymlink(_ path: String, to target: String) throws {
        guard symlink(target, path) == 0 else { throw Failure("symlink \(path): \(errorText())") }
    }

    static func makeDirectory(_ path: String) throws {
        guard mkdir(path, 0o755) == 0 else { throw Failure("mkdir \(path): \(errorText())") }
        try setMode(path, 0o755)
    }

    // MARK: Private

    private static func run(_ arguments: [String], environment: [String: String]?, timeout: Double) throws -> ChildProcess.Result {
        do {
            return try ChildProcess.run(arguments, timeout: timeout, environment: environment)
        } catch {
            throw Failure("cannot run \(arguments[0]): \(error)")
        }
    }

    // A pthread lock, not Mutex: TSan (run on BusTests, which use this) reports Mutex hand-overs as races.
    private static let temporaryDirectories = ServiceTestKit.Locked<[String]>([])

    private static func registerForRemoval(_ path: String) {
        _ = removeAtExit
        temporaryDirectories.withLock { $0.append(path) }
    }

    private static let removeAtExit: Void = {
        guard ProcessInfo.processInfo.environment["WIDGET_HOST_KEEP_TEST_FILES"] == nil else { return }
        atexit {
            for path in TestSupport.temporaryDirectories.withLock({ $0 }) {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }()

    private static func dirname(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, Int(PATH_MAX))
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}

extension TestSupport {
    /// A failure in the tests' own set-up, with a message that says what it was.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }

        /// A system call that failed: what was called, and errno's text.
        static func systemCall(_ what: String, _ code: Int32 = errno) -> Failure { Failure("\(what): \(String(cString: strerror(code)))") }
    }

    /// Reading and patching a 64-bit little-endian ELF file's bytes, to make
    /// corrupt variants of a good plugin.
    struct ELFBytes {
        var bytes: [UInt8]

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func u16(at offset: Int) -> UInt16 { UInt16(uint(at: offset, width: 2)) }
        func u32(at offset: Int) -> UInt32 { UInt32(uint(at: offset, width: 4)) }
        func u64(at offset: Int) -> UInt64 { uint(at: offset, width: 8) }

        mutating func set(_ value: UInt64, at offset: Int, width: Int) {
            for index in 0..<width { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
        }

        // ELF header fields.
        static let machineOffset = 18          // e_machine, 2 bytes
        static let typeOffset = 16             // e_type, 2 bytes
        static let programTableOffset = 0x20   // e_phoff, 8 bytes
        static let sectionTableOffset = 0x28   // e_shoff, 8 bytes
        static let programCountOffset = 0x38   // e_phnum, 2 bytes
        static let sectionCountOffset = 0x3C   // e_shnum, 2 bytes
        static let sectionNamesOffset = 0x3E   // e_shstrndx, 2 bytes

        var sectionCount: Int { Int(u16(at: Self.sectionCountOffset)) }
        var programHeaderCount: Int { Int(u16(at: Self.programCountOffset)) }

        /// The file offset of the header of the section called `name`.
        func sectionHeader(named name: String) -> Int? {
            let table = Int(u64(at: Self.sectionTableOffset))
            let names = table + 64 * Int(u16(at: Self.sectionNamesOffset))
            let namesStart = Int(u64(at: names + 24))
            let wanted = Array(name.utf8) + [0]
            return (0..<sectionCount).map { table + 64 * $0 }.first { header in
                let start = namesStart + Int(u32(at: header))
                return start + wanted.count <= bytes.count && Array(bytes[start..<start + wanted.count]) == wanted
            }
        }

        private func uint(at offset: Int, width: Int) -> UInt64 {
            (0..<width).reduce(0) { value, index in value | UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        }
    }
}
