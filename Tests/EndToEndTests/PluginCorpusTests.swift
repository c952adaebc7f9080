import Foundation
import PluginABI
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// Integration tests of the runtime core: they run the real `widget-host`
/// against real plugin files, good and broken, and check what it says.
@Suite("Plugin corpus and widget-host CLI")
struct PluginCorpusTests {
    // MARK: - The corpus of broken plugins

    /// Issue: "Each must be rejected with its own specific reason, and none may
    /// crash or hang list". Every file is in one directory, listed once.
    @Suite("Corpus")
    struct CorpusFiles {
        @Test("list exits 0 and lists every corpus file exactly once")
        func listCoversTheCorpus() throws {
            let corpus = try Corpus.get()
            let listing = try Corpus.listing.get()
            #expect(listing.run.status == 0, "\(listing.run)")
            let listed = listing.plugins.map(\.path).filter { $0.hasPrefix(corpus.directory + "/") }
            #expect(listed.sorted() == Corpus.cases.map { corpus.path($0.file) }.sorted())
            #expect(Set(listed).count == listed.count, "a file is listed twice")

            let objects = try #require(try JSONSerialization.jsonObject(with: Data(listing.run.stdout.utf8)) as? [[String: Any]])
            for object in objects {
                #expect(Set(object.keys) == ["id", "name", "version", "abi", "path", "status", "reason", "warnings"])
            }
        }

        @Test("a rejected plugin whose manifest was read still shows its facts", arguments: [
            ("abi-major-2.so", "2.0"), ("abi-minor-9.so", "1.9"), ("no-entry.so", "1.0"), ("needs-teleport.so", "1.0"),
        ])
        func rejectedManifestFacts(_ file: String, _ abi: String) throws {
            let entry = try #require(try Corpus.listing.get().entry(for: file))
            #expect(entry.status == "rejected")
            #expect(entry.id == "org.corpus." + file.dropLast(3))
            #expect(entry.name == "Hello")
            #expect(entry.version == "1.0.0")
            #expect(entry.abi == abi)
        }

        @Test("list gives each file its status and specific reason", arguments: Corpus.cases)
        func listStatus(_ item: CorpusCase) throws {
            let entry = try #require(try Corpus.listing.get().entry(for: item.file))
            #expect(entry.status == item.list.status)
            switch item.list {
            case .ok:
                #expect(entry.reason == nil)
            case let .rejected(reason), let .shadowed(reason):
                let actual = try #require(entry.reason, "a \(entry.status) plugin must say why")
                #expect(actual.contains(reason))
            }
        }

        @Test("no two rejected files share a reason")
        func reasonsAreDistinct() throws {
            let listing = try Corpus.listing.get()
            let rejected = Corpus.cases.filter { $0.list.status != "ok" }.compactMap { listing.entry(for: $0.file) }
            #expect(rejected.count == Corpus.cases.filter { $0.list.status != "ok" }.count)
            let groups = Dictionary(grouping: rejected) { $0.reason ?? "" }.filter { $0.value.count > 1 }
            for (reason, entries) in groups {
                Issue.record("\(entries.map(\.path)) share the reason \"\(reason)\"")
            }
            let truncated = try #require(listing.entry(for: "truncated.so")?.reason)
            let badOffset = try #require(listing.entry(for: "bad-shoff.so")?.reason)
            #expect(truncated != badOffset)
        }

        @Test("validate PATH fails each broken file at the right check", arguments: Corpus.cases)
        func validate(_ item: CorpusCase) throws {
            let corpus = try Corpus.get()
            let run = try TestSupport.runHost(["validate", corpus.path(item.file)] + item.validateOptions)
            let report = try ValidateReport(run)
            #expect(report.summaryIsConsistent, "\(run)")
            switch item.expectedValidateFailure {
            case nil:
                #expect(run.status == 0, "\(run)")
                #expect(report.failures.isEmpty, "\(run)")
                #expect(report.checks.map(\.name).contains("destroy"), "\(run)")
            case let (check, detail)?:
                #expect(run.status == 1, "\(run)")
                let failure = try #require(report.failures.first, "\(run)")
                #expect(report.failures.count == 1, "\(run)")
                #expect(failure.name == check, "\(run)")
                #expect(failure.detail?.contains(detail) == true, "\(run)")
                if item.list.status == "rejected" {
                    // The validator inspects the file as list does, and says the same.
                    #expect(failure.detail == (try Corpus.listing.get().entry(for: item.file)?.reason))
                }
            }
        }

        @Test("info PATH --json shows the file's status and whether it loads", arguments: Corpus.cases)
        func info(_ item: CorpusCase) throws {
            let corpus = try Corpus.get()
            let run = try TestSupport.runHost(["info", corpus.path(item.file), "--json"])
            #expect(run.status == 0, "\(run)")
            let info = try decodeJSON(InfoOutput.self, from: run)
            #expect(info.path == corpus.path(item.file))
            switch item.list {
            case let .rejected(reason):
                #expect(info.status == "rejected")
                #expect(info.reason?.contains(reason) == true, "\(run)")
                #expect(info.load == nil, "a rejected plugin is never loaded")
            case .ok, .shadowed:
                // By path, info inspects the one file; nothing can shadow it.
                #expect(info.status == "ok", "\(run)")
                let load = try #require(info.load, "\(run)")
                if let failure = item.validateFailure, failure.check == "load" {
                    #expect(load.status == "fail", "\(run)")
                    #expect(load.reason?.contains(failure.detail) == true, "\(run)")
                } else {
                    #expect(load.status == "pass", "\(run)")
                }
            }
        }

        @Test("--allow-insecure accepts the world-writable plugin")
        func allowInsecure() throws {
            let corpus = try Corpus.get()
            let plain = try #require(try Corpus.listing.get().entry(for: "world-writable.so"))
            #expect(plain.status == "rejected")

            let run = try TestSupport.runHost(["list", "--json", "--allow-insecure", "--plugin-dir", corpus.directory])
            #expect(run.status == 0, "\(run)")
            let listing = try Listing(run, directory: corpus.directory)
            let insecure = try #require(listing.entry(for: "world-writable.so"))
            #expect(insecure.status == "ok", "\(run)")
            #expect(insecure.id == "org.corpus.world-writable")
            // The flag lifts only the ownership and mode check.
            #expect(listing.entry(for: "bad-id.so")?.status == "rejected")

            let validate = try TestSupport.runHost(["validate", corpus.path("world-writable.so"), "--allow-insecure"])
            #expect(validate.status == 0, "\(validate)")
            #expect(try ValidateReport(validate).failures.isEmpty, "\(validate)")
        }

        @Test("a 2 GiB sparse file of zeros is rejected as not ELF, and list still finishes")
        func hugeFileOfZeros() throws {
            let directory = try TestSupport.makeTemporaryDirectory("zeros")
            let path = directory + "/zeros.so"
            try TestSupport.write([], to: path)
            try TestSupport.truncateFile(path, to: 2 << 30)
            let run = try TestSupport.runHost(["list", "--json", "--plugin-dir", directory])
            #expect(run.status == 0, "\(run)")
            let entry = try #require(try Listing(run, directory: directory).entry(for: "zeros.so"))
            #expect(entry.status == "rejected")
            #expect(entry.reason == "not an ELF file")
        }
    }

    // MARK: - Plugins that work

    @Suite("Good plugins")
    struct GoodPlugins {
        @Test("swift test builds widget-host and the three Swift plugins")
        func productsAreBuilt() {
            let products = TestSupport.productsDirectory
            #expect(access(TestSupport.widgetHost, X_OK) == 0, "no executable widget-host in \(products)")
            for plugin in TestSupport.swiftPlugins {
                #expect(access(products + "/" + plugin.file, R_OK) == 0, "no \(plugin.file) in \(products)")
            }
        }

        @Test("the C plugin passes every check of validate")
        func cPluginValidates() throws {
            let corpus = try Corpus.get()
            let run = try TestSupport.runHost(["validate", corpus.path("hello.so"), "--json"])
            #expect(run.status == 0, "\(run)")
            let result = try decodeJSON(ValidateJSON.self, from: run)
            #expect(result.passed)
            #expect(result.checks.allSatisfy { $0.result == "pass" }, "\(run)")
            let names = result.checks.map(\.check)
            for check in ["inspect file", "load", "create", "render main", "refresh main", "action main/wave", "action main/rename",
                          "render about", "refresh about", "render an undeclared screen", "event hello.validate", "destroy"] {
                #expect(names.contains(check), "no check \(check) in \(run)")
            }
        }

        @Test("each Swift plugin is ok in list", arguments: TestSupport.swiftPlugins.map(\.file))
        func swiftPluginListed(_ file: String) throws {
            let products = TestSupport.productsDirectory
            let run = try TestSupport.runHost(["list", "--json", "--plugin-dir", products])
            #expect(run.status == 0, "\(run)")
            let entry = try #require(try Listing(run, directory: products).entry(for: file), "\(run)")
            #expect(entry.status == "ok", "\(run)")
            #expect(entry.id == TestSupport.swiftPlugins.first { $0.file == file }?.id)
            #expect(entry.abi == "\(WH_ABI_MAJOR).\(WH_ABI_MINOR)")
        }

        @Test("each Swift plugin passes validate", arguments: TestSupport.swiftPlugins.map(\.file))
        func swiftPluginValidates(_ file: String) throws {
            let run = try TestSupport.runHost(["validate", TestSupport.productsDirectory + "/" + file])
            #expect(run.status == 0, "\(run)")
            let report = try ValidateReport(run)
            #expect(report.failures.isEmpty, "\(run)")
            #expect(report.checks.filter { $0.outcome == "PASS" }.map(\.name).contains("destroy"), "\(run)")
            #expect(report.summary.hasPrefix("valid: "), "\(run)")
        }
    }

    // MARK: - Finding a plugin by name

    @Suite("Name lookup")
    struct NameLookup {
        @Test("info finds a plugin by its short name and by its full id",
              arguments: TestSupport.swiftPlugins.flatMap { [($0.shortName, $0.id), ($0.id, $0.id)] })
        func infoByName(_ name: String, _ id: String) throws {
            let products = TestSupport.productsDirectory
            let run = try TestSupport.runHost(["info", name, "--json", "--plugin-dir", products])
            #expect(run.status == 0, "\(run)")
            let info = try decodeJSON(InfoOutput.self, from: run)
            #expect(info.id == id)
            #expect(info.status == "ok")
            #expect(info.load?.status == "pass", "\(run)")
        }

        @Test("info in text form names the plugin and its load status")
        func infoText() throws {
            let run = try TestSupport.runHost(["info", "crypto", "--plugin-dir", TestSupport.productsDirectory])
            #expect(run.status == 0, "\(run)")
            let lines = run.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
            #expect(lines.contains(["id:", "org.widgethost.crypto"]), "\(run)")
            #expect(lines.contains(["load:", "ok"]), "\(run)")
        }

        @Test("an unknown name fails and suggests a close one")
        func unknownName() throws {
            let run = try TestSupport.runHost(["info", "crypt", "--plugin-dir", TestSupport.productsDirectory])
            #expect(run.status == 1, "\(run)")
            #expect(run.stdout.isEmpty, "\(run)")
            #expect(run.stderr.contains("no plugin named 'crypt'"), "\(run)")
            #expect(run.stderr.contains("Did you mean"), "\(run)")
            #expect(run.stderr.contains("crypto"), "\(run)")
        }

        @Test("a short name two ids share is refused as ambiguous")
        func ambiguousName() throws {
            let directory = try TestSupport.makeTemporaryDirectory("ambiguous")
            try TestSupport.compileHello(defines: [#"-DPLUGIN_ID="org.a.same""#], output: directory + "/a.so")
            try TestSupport.compileHello(defines: [#"-DPLUGIN_ID="org.b.same""#], output: directory + "/b.so")

            let run = try TestSupport.runHost(["info", "same", "--plugin-dir", directory])
            #expect(run.status == 1, "\(run)")
            #expect(run.stderr.contains("ambiguous"), "\(run)")
            #expect(run.stderr.contains("org.a.same") && run.stderr.contains("org.b.same"), "\(run)")

            // The full id settles it.
            let full = try TestSupport.runHost(["info", "org.b.same", "--json", "--plugin-dir", directory])
            #expect(full.status == 0, "\(full)")
            #expect(try decodeJSON(InfoOutput.self, from: full).path == directory + "/b.so")
        }
    }

    // MARK: - Search path

    @Suite("Search order")
    struct SearchOrder {
        /// Two directories, each holding a copy of the same plugin.
        struct Twins {
            let first: String, second: String
            init() throws {
                first = try TestSupport.makeTemporaryDirectory("first")
                second = try TestSupport.makeTemporaryDirectory("second")
                let good = try Corpus.get().goodPlugin
                try TestSupport.copy(good, to: first + "/hello.so")
                try TestSupport.copy(good, to: second + "/hello.so")
            }
        }

        /// Runs list and returns the statuses of `directories`' hello.so, in that order.
        private func statuses(_ arguments: [String], environment: [String: String] = [:],
                              of directories: [String]) throws -> [ListedPlugin?] {
            let run = try TestSupport.runHost(["list", "--json"] + arguments, environment: environment)
            #expect(run.status == 0, "\(run)")
            let plugins = try decodeJSON([ListedPlugin].self, from: run)
            return directories.map { directory in plugins.first { $0.path == directory + "/hello.so" } }
        }

        @Test("of two --plugin-dir, the first one's plugin wins", arguments: [false, true])
        func pluginDirOrder(_ reversed: Bool) throws {
            let twins = try Twins()
            let (winner, loser) = reversed ? (twins.second, twins.first) : (twins.first, twins.second)
            let found = try statuses(["--plugin-dir", winner, "--plugin-dir", loser], of: [winner, loser])
            #expect(found[0]?.status == "ok")
            #expect(found[1]?.status == "shadowed")
            #expect(found[1]?.reason?.contains("shadowed by \(winner)/hello.so") == true)
        }

        @Test("WIDGET_HOST_PLUGIN_PATH is searched, after --plugin-dir")
        func environmentAfterPluginDir() throws {
            let twins = try Twins()
            let alone = try statuses([], environment: ["WIDGET_HOST_PLUGIN_PATH": twins.second], of: [twins.second])
            #expect(alone[0]?.status == "ok")

            let both = try statuses(["--plugin-dir", twins.first], environment: ["WIDGET_HOST_PLUGIN_PATH": twins.second],
                                    of: [twins.first, twins.second])
            #expect(both[0]?.status == "ok")
            #expect(both[1]?.status == "shadowed")
            #expect(both[1]?.reason?.contains("shadowed by \(twins.first)/hello.so") == true)
        }

        @Test("WIDGET_HOST_PLUGIN_PATH is searched in its own order")
        func environmentOrder() throws {
            let twins = try Twins()
            let found = try statuses([], environment: ["WIDGET_HOST_PLUGIN_PATH": "\(twins.second):\(twins.first)"],
                                     of: [twins.second, twins.first])
            #expect(found[0]?.status == "ok")
            #expect(found[1]?.status == "shadowed")
        }

        @Test("$XDG_DATA_HOME/widget-host/plugins is searched, after WIDGET_HOST_PLUGIN_PATH")
        func xdgDataHome() throws {
            let twins = try Twins()
            let data = try TestSupport.makeTemporaryDirectory("data")
            try TestSupport.makeDirectory(data + "/widget-host")
            try TestSupport.makeDirectory(data + "/widget-host/plugins")
            let plugins = data + "/widget-host/plugins"
            try TestSupport.copy(twins.first + "/hello.so", to: plugins + "/hello.so")

            let alone = try statuses([], environment: ["XDG_DATA_HOME": data], of: [plugins])
            #expect(alone[0]?.status == "ok")
            let both = try statuses([], environment: ["XDG_DATA_HOME": data, "WIDGET_HOST_PLUGIN_PATH": twins.second],
                                    of: [twins.second, plugins])
            #expect(both[0]?.status == "ok")
            #expect(both[1]?.status == "shadowed")
        }

        @Test("a missing --plugin-dir is a warning, not a failure")
        func missingPluginDir() throws {
            let directory = try TestSupport.makeTemporaryDirectory("missing") + "/no-such-directory"
            let run = try TestSupport.runHost(["list", "--json", "--plugin-dir", directory])
            #expect(run.status == 0, "\(run)")
            #expect(run.stderr.contains("warning"), "\(run)")
            #expect(run.stderr.contains(directory), "\(run)")
            _ = try decodeJSON([ListedPlugin].self, from: run)
        }
    }

    // MARK: - Command line

    @Suite("Command line")
    struct CommandLineUsage {
        @Test("an unknown option is a usage error: exit 2 and a message on stderr")
        func unknownOption() throws {
            let run = try TestSupport.runHost(["list", "--bogus"])
            #expect(run.status == 2, "\(run)")
            #expect(run.stdout.isEmpty, "\(run)")
            #expect(run.stderr.contains("--bogus"), "\(run)")
        }

        @Test("--help describes each command", arguments: ["list", "info", "validate"])
        func commandHelp(_ command: String) throws {
            for arguments in [[command, "--help"], [command, "-h"], ["help", command]] {
                let run = try TestSupport.runHost(arguments)
                #expect(run.status == 0, "\(run)")
                #expect(run.stdout.contains("Usage: widget-host \(command)"), "\(run)")
                #expect(run.stdout.contains("--help"), "\(run)")
                #expect(run.stderr.isEmpty, "\(run)")
            }
        }

        @Test("top-level --help lists every command")
        func topLevelHelp() throws {
            let run = try TestSupport.runHost(["--help"])
            #expect(run.status == 0, "\(run)")
            #expect(run.stdout.contains("Usage: widget-host COMMAND"), "\(run)")
            for command in ["list", "info", "validate"] {
                #expect(run.stdout.contains("\n  \(command) "), "no \(command) in \(run)")
            }
        }

        @Test("--version prints the version and the plugin ABI")
        func version() throws {
            for flag in ["--version", "-V"] {
                let run = try TestSupport.runHost([flag])
                #expect(run.status == 0, "\(run)")
                #expect(run.stdout == "widget-host \(WidgetHostCLI.version) (plugin ABI \(WH_ABI_MAJOR).\(WH_ABI_MINOR))\n", "\(run)")
            }
        }

        @Test("an unknown command is a usage error that suggests a close one")
        func unknownCommand() throws {
            let run = try TestSupport.runHost(["lst"])
            #expect(run.status == 2, "\(run)")
            #expect(run.stderr.contains("did you mean 'list'"), "\(run)")
        }
    }
}

// MARK: - The corpus

/// The machine a foreign-architecture copy claims: AArch64, unless that is us.
#if arch(arm64)
private let foreignMachine: (code: UInt64, name: String) = (62, "x86-64")
#else
private let foreignMachine: (code: UInt64, name: String) = (183, "AArch64")
#endif

private let hugeSize: Int64 = 2 << 30

extension PluginCorpusTests {
    /// One file of the corpus: how to make it, and what the host must say about it.
    struct CorpusCase: Sendable, CustomTestStringConvertible {
        /// What `list` must say: the status, and a distinctive part of the reason.
        enum ListExpectation: Sendable {
            case ok
            case rejected(String)
            case shadowed(String)

            var status: String {
                switch self {
                case .ok: "ok"
                case .rejected: "rejected"
                case .shadowed: "shadowed"
                }
            }
        }

        let file: String
        let list: ListExpectation
        /// For a file list accepts: the validate check that must fail and part of
        /// its detail; nil if validate must pass.
        let validateFailure: (check: String, detail: String)?
        let validateOptions: [String]
        let make: @Sendable (_ builder: CorpusBuilder, _ path: String) throws -> Void

        init(_ file: String, _ list: ListExpectation, validate failure: (check: String, detail: String)? = nil,
             options: [String] = [], make: @escaping @Sendable (_ builder: CorpusBuilder, _ path: String) throws -> Void) {
            self.file = file
            self.list = list
            validateFailure = failure
            validateOptions = options
            self.make = make
        }

        /// Where validate must fail: a file list rejects fails the first check.
        var expectedValidateFailure: (check: String, detail: String)? {
            if case let .rejected(reason) = list { return ("inspect file", reason) }
            return validateFailure
        }

        var testDescription: String { file }
    }

    /// Makes corpus files from a good plugin compiled once.
    struct CorpusBuilder: Sendable {
        /// A good plugin outside the corpus directory, to copy and patch.
        let goodPlugin: String
        /// A directory outside the corpus for intermediate files.
        let scratch: String

        /// hello.c with a unique id (so that no two accepted files shadow each other) and `defines`.
        func compile(_ path: String, id: String? = nil, _ defines: String...) throws {
            let id = id ?? "org.corpus." + URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            try TestSupport.compileHello(defines: ["-DPLUGIN_ID=\"\(id)\""] + defines, output: path)
        }

        /// The good plugin's bytes, changed by `patch`, written to `path`.
        func patch(_ path: String, _ patch: (inout TestSupport.ELFBytes) throws -> Void) throws {
            var elf = TestSupport.ELFBytes(try TestSupport.readBytes(goodPlugin))
            try patch(&elf)
            try TestSupport.write(elf.bytes, to: path, mode: 0o755)
        }
    }

    /// Every corpus file in one directory, built once per test process.
    struct Corpus: Sendable {
        let directory: String
        let goodPlugin: String

        func path(_ file: String) -> String { directory + "/" + file }

        static let cases: [CorpusCase] = [
            // Files that are not plugins, or not even ELF.
            CorpusCase("notelf.so", .rejected("not an ELF file")) { _, path in
                try TestSupport.write(Array("This is a text file, not a plugin.\n".utf8), to: path)
            },
            CorpusCase("empty.so", .rejected("empty file")) { _, path in
                try TestSupport.write([], to: path)
            },
            // Cut short in three places: inside the program headers, inside the
            // loadable segments, and inside the section headers at the end.
            CorpusCase("truncated.so", .rejected("truncated ELF file: the program header table runs past the end")) { builder, path in
                try TestSupport.write(Array(try TestSupport.readBytes(builder.goodPlugin).prefix(200)), to: path)
            },
            CorpusCase("truncated-segments.so", .rejected("truncated ELF file: its segments need")) { builder, path in
                let bytes = try TestSupport.readBytes(builder.goodPlugin)
                let elf = TestSupport.ELFBytes(bytes)
                let programHeadersEnd = Int(elf.u64(at: TestSupport.ELFBytes.programTableOffset)) + 56 * elf.programHeaderCount
                try TestSupport.write(Array(bytes.prefix(programHeadersEnd + 64)), to: path)
            },
            // Cut inside the section header table: it starts in the file but runs past its end.
            CorpusCase("truncated-section-table.so", .rejected("truncated ELF file: the section header table runs past the end")) { builder, path in
                let bytes = try TestSupport.readBytes(builder.goodPlugin)
                let table = Int(TestSupport.ELFBytes(bytes).u64(at: TestSupport.ELFBytes.sectionTableOffset))
                try TestSupport.write(Array(bytes.prefix(table + 3 * 64)), to: path)
            },
            CorpusCase("foreign-arch.so", .rejected("built for another machine: 64-bit \(foreignMachine.name)")) { builder, path in
                try builder.patch(path) { $0.set(foreignMachine.code, at: TestSupport.ELFBytes.machineOffset, width: 2) }
            },
            CorpusCase("executable-type.so", .rejected("not a shared library (ELF type 2)")) { builder, path in
                try builder.patch(path) { $0.set(2, at: TestSupport.ELFBytes.typeOffset, width: 2) }   // ET_EXEC
            },
            CorpusCase("bad-shoff.so", .rejected("offset \(1 << 40) lies outside")) { builder, path in
                try builder.patch(path) { $0.set(1 << 40, at: TestSupport.ELFBytes.sectionTableOffset, width: 8) }
            },
            CorpusCase("bad-shstrndx.so", .rejected("corrupt ELF file: section name table index")) { builder, path in
                try builder.patch(path) { $0.set(UInt64($0.sectionCount + 7), at: TestSupport.ELFBytes.sectionNamesOffset, width: 2) }
            },
            CorpusCase("no-manifest.so", .rejected("no \(WH_MANIFEST_SECTION) section")) { builder, path in
                let source = builder.scratch + "/plain.c"
                try TestSupport.write(Array("int plain_function(void) { return 42; }\n".utf8), to: source)
                try TestSupport.compileC(source: source, output: path)
            },
            // A 2 GiB sparse file whose manifest section claims nearly all of it:
            // the host must refuse by the header, without reading 2 GiB.
            CorpusCase("huge-manifest.so", .rejected("manifest section is")) { builder, path in
                try builder.patch(path) { elf in
                    guard let header = elf.sectionHeader(named: WH_MANIFEST_SECTION) else {
                        throw TestSupport.Failure("the good plugin has no \(WH_MANIFEST_SECTION) section")
                    }
                    let offset = elf.u64(at: header + 24)
                    elf.set(UInt64(hugeSize) - offset, at: header + 32, width: 8)   // sh_size
                }
                try TestSupport.truncateFile(path, to: hugeSize)
            },
            // A good plugin padded to 2 GiB with a sparse hole: size alone is no reason to refuse.
            CorpusCase("huge-valid.so", .ok) { builder, path in
                try builder.compile(path)
                try TestSupport.truncateFile(path, to: hugeSize)
            },

            // hello.c, each variant broken in one way.
            CorpusCase("hello.so", .ok) { builder, path in
                try TestSupport.copy(builder.goodPlugin, to: path)
            },
            CorpusCase("zz-duplicate.so", .shadowed("shadowed by ")) { builder, path in
                try TestSupport.copy(builder.goodPlugin, to: path)
            },
            CorpusCase("no-entry.so",
                       .rejected("does not export the entry symbol \(WH_ENTRY_SYMBOL): in Swift, the @_cdecl/@c entry point must be public")) { builder, path in
                try builder.compile(path, "-DENTRY_NAME=other_name")
            },
            // A Swift plugin built without the SDK's module alias: the same module as the host's.
            CorpusCase("unaliased-sdk.so", .rejected("holds the Swift module PluginKit ($s9PluginKit9JSONValueOMa), which the host holds too")) {
                builder, path in try builder.compile(path, #"-DCLASHING_SYMBOL="$s9PluginKit9JSONValueOMa""#)
            },
            CorpusCase("null-entry.so", .ok, validate: ("load", "returned NULL")) { builder, path in
                try builder.compile(path, "-DNULL_ENTRY")
            },
            CorpusCase("abi-major-2.so", .rejected("built for ABI 2.0, but this host speaks ABI 1.0")) { builder, path in
                try builder.compile(path, "-DABI_MAJOR=2")
            },
            CorpusCase("abi-minor-9.so", .rejected("built for ABI 1.9, newer than this host's ABI 1.0")) { builder, path in
                try builder.compile(path, "-DABI_MINOR=9")
            },
            CorpusCase("small-struct.so", .ok, validate: ("load", "descriptor says it is 16 bytes")) { builder, path in
                try builder.compile(path, "-DSTRUCT_SIZE=16")
            },
            CorpusCase("bad-id.so", .rejected("id \"org.bad.Id!\" has an illegal character 'I'")) { builder, path in
                try builder.compile(path, id: "org.bad.Id!")
            },
            CorpusCase("descriptor-mismatch.so", .ok, validate: ("load", "does not match the manifest: name")) { builder, path in
                try builder.compile(path, #"-DDESCRIPTOR_NAME="Other""#)
            },
            CorpusCase("needs-teleport.so", .rejected("requires service widget-host.teleport/1")) { builder, path in
                try builder.compile(path, #"-DREQUIRED_SERVICE="widget-host.teleport/1""#)
            },
            // `#.x` is outside the pattern grammar; unchecked, it granted every topic.
            CorpusCase("topic-grants-all.so", .rejected("topics.subscribe: '#' may only be the last segment of a pattern")) { builder, path in
                try builder.compile(path, ##"-DSUBSCRIBE_TOPIC="#.x""##)
            },
            CorpusCase("crash-in-entry.so", .ok, validate: ("load", "SIGSEGV")) { builder, path in
                try builder.compile(path, "-DCRASH_IN_ENTRY")
            },
            // validate reads a view with the host's own parser, so it fails what launch would refuse.
            CorpusCase("view-version-2.so", .ok, validate: ("render about", #"the view description must say "view": 1"#)) { builder, path in
                try builder.compile(path, #"-DVIEW_VERSION="2""#)
            },
            CorpusCase("crash-in-render.so", .ok, validate: ("render main", "SIGSEGV")) { builder, path in
                try builder.compile(path, "-DCRASH_IN_RENDER")
            },
            CorpusCase("hang-in-render.so", .ok, validate: ("render main", "timed out"), options: ["--timeout", "5"]) { builder, path in
                try builder.compile(path, "-DHANG_IN_RENDER")
            },

            // Things in the directory that are not plain files, or not safe ones.
            CorpusCase("x.so", .rejected("not a regular file (FIFO)")) { _, path in
                try TestSupport.makeFIFO(path)
            },
            CorpusCase("loop.so", .rejected("symbolic link loop")) { _, path in
                try TestSupport.makeSymlink(path, to: "loop.so")
            },
            CorpusCase("dangling.so", .rejected("broken symbolic link")) { _, path in
                try TestSupport.makeSymlink(path, to: "no-such-file.so")
            },
            CorpusCase("zero.so", .rejected("not a regular file (character device)")) { _, path in
                try TestSupport.makeSymlink(path, to: "/dev/zero")
            },
            CorpusCase("dir.so", .rejected("not a regular file (directory)")) { _, path in
                try TestSupport.makeDirectory(path)
            },
            CorpusCase("world-writable.so", .rejected("is writable by others (mode 0666)")) { builder, path in
                try builder.compile(path)
                try TestSupport.setMode(path, 0o666)
            },
        ]

        static func get() throws -> Corpus { try shared.get() }

        private static let shared = Result { () throws -> Corpus in
            let scratch = try TestSupport.makeTemporaryDirectory("corpus")
            let directory = scratch + "/plugins"
            try TestSupport.makeDirectory(directory)
            let goodPlugin = scratch + "/reference-hello.so"
            try TestSupport.compileHello(output: goodPlugin)
            let builder = CorpusBuilder(goodPlugin: goodPlugin, scratch: scratch)
            for item in cases {
                do { try item.make(builder, directory + "/" + item.file) } catch {
                    throw TestSupport.Failure("cannot make corpus file \(item.file): \(error)")
                }
            }
            return Corpus(directory: directory, goodPlugin: goodPlugin)
        }

        /// `widget-host list --json --plugin-dir CORPUS`, run once.
        static let listing = Result { () throws -> Listing in
            let corpus = try get()
            return try Listing(try TestSupport.runHost(["list", "--json", "--plugin-dir", corpus.directory]),
                               directory: corpus.directory)
        }
    }

    // MARK: - What widget-host prints

    /// One element of `list --json`.
    struct ListedPlugin: Decodable, Sendable {
        let id: String?
        let name: String?
        let version: String?
        let abi: String?
        let path: String
        let status: String
        let reason: String?
    }

    /// The output of one `list --json` run, looked up by file name in `directory`.
    struct Listing: Sendable {
        let run: TestSupport.HostRun
        let plugins: [ListedPlugin]
        let directory: String

        init(_ run: TestSupport.HostRun, directory: String) throws {
            self.run = run
            self.directory = directory
            plugins = try decodeJSON([ListedPlugin].self, from: run)
        }

        func entry(for file: String) -> ListedPlugin? {
            plugins.first { $0.path == directory + "/" + file }
        }
    }

    /// `info --json`: list's fields plus the manifest and the load status.
    struct InfoOutput: Decodable {
        struct Load: Decodable {
            let status: String
            let reason: String?
        }

        let id: String?
        let path: String
        let status: String
        let reason: String?
        let load: Load?
    }

    /// `validate --json`.
    struct ValidateJSON: Decodable {
        struct Check: Decodable {
            let check: String
            let result: String
            let detail: String?
        }

        let path: String
        let passed: Bool
        let checks: [Check]
    }

    /// `validate`'s text output: one line per check, `PASS  name: detail`, then
    /// a summary line `valid: N of M checks passed` or `INVALID: ...`.
    struct ValidateReport {
        struct Check {
            let outcome: String
            let name: String
            let detail: String?
        }

        let checks: [Check]
        let summary: String

        init(_ run: TestSupport.HostRun) throws {
            var lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard lines.last == "" else { throw TestSupport.Failure("validate's output does not end in a newline: \(run)") }
            lines.removeLast()
            guard let summary = lines.popLast() else { throw TestSupport.Failure("validate printed nothing: \(run)") }
            self.summary = summary
            checks = try lines.map { line in
                let parts = line.split(separator: "  ", maxSplits: 1).map(String.init)
                guard parts.count == 2, ["PASS", "FAIL", "SKIP"].contains(parts[0]) else {
                    throw TestSupport.Failure("not a check line: \"\(line)\" in \(run)")
                }
                let rest = parts[1].split(separator: ": ", maxSplits: 1).map(String.init)
                return Check(outcome: parts[0], name: rest[0], detail: rest.count > 1 ? rest[1] : nil)
            }
        }

        var failures: [Check] { checks.filter { $0.outcome == "FAIL" } }

        /// The summary agrees with the checks above it.
        var summaryIsConsistent: Bool {
            let passed = checks.filter { $0.outcome == "PASS" }.count
            let verdict = failures.isEmpty ? "valid" : "INVALID"
            return summary == "\(verdict): \(passed) of \(checks.count) checks passed"
        }
    }

    static func decodeJSON<T: Decodable>(_ type: T.Type, from run: TestSupport.HostRun) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(run.stdout.utf8))
        } catch {
            throw TestSupport.Failure("cannot decode \(type) from the output of \(run)\n\(error)")
        }
    }
}
