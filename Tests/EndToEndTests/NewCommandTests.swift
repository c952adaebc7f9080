import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// `widget-host new`, followed as a stranger would: scaffold a C and a Swift
/// plugin outside the repository, in directories whose names are shell code,
/// build each with the commands `new` printed, install them, see them `ok`
/// in `list`, validate them, and launch each with its action, in process and
/// with --isolate. `new` refuses a bad id and a non-empty directory.
@Suite("widget-host new")
struct NewCommandTests {
    struct Home {
        let root: String
        var environment: [String: String] { ["XDG_DATA_HOME": root + "/data", "HOME": root] }

        init() throws { root = try TestSupport.makeTemporaryDirectory("new-home") }

        func run(_ arguments: [String]) throws -> TestSupport.HostRun {
            try TestSupport.runHost(arguments, environment: environment, timeout: 120)
        }

        func new(_ arguments: [String]) throws -> TestSupport.HostRun {
            try run(["new"] + arguments + ["--sdk", TestSupport.packageRoot])
        }

        /// Each file that would run a command named in a hostile directory's name touches one of these.
        var victims: [String] { (1...3).map { root + "/victim\($0)" } }

        /// A directory name that is code in shell, make and Swift: `$(…)`, backticks, quotes, `;`
        /// (SwiftPM itself cannot build under a name holding a double quote or a newline, so the Swift
        /// project's name leaves those two out).
        func hostile(newlineAndDoubleQuote: Bool) -> String {
            root + "/a$(touch \(victims[0]))'`touch \(victims[1])`;touch \(victims[2]);#"
                + (newlineAndDoubleQuote ? "\"\n\\\"$(touch \(victims[0]))" : "")
        }
    }

    /// Runs a build tool with WIDGET_HOST naming the host under test.
    static func run(_ arguments: [String], timeout: Double = 900) throws {
        let tool = arguments[0].hasPrefix("/") ? arguments[0] : try OutOfTreeSwiftPluginTests.executable(arguments[0])
        try OutOfTreeSwiftPluginTests.run([tool] + arguments.dropFirst(),
                                          timeout: timeout, environment: ["WIDGET_HOST": TestSupport.widgetHost])
    }

    /// Every text file of a project but the SDK copy, which `new` does not write from a template.
    static func projectTexts(_ directory: String) throws -> [String: String] {
        var texts: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let path = enumerator?.nextObject() as? String {
            guard !path.hasPrefix(".build"), !path.hasPrefix("WidgetHostSDK"), !path.hasPrefix("include"), !path.hasSuffix(".so") else { continue }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                texts[path] = try String(contentsOfFile: directory + "/" + path, encoding: .utf8)
            }
        }
        return texts
    }

    @Test("a C and a Swift plugin under hostile names: scaffold, build, install, list, validate, launch in process and isolated")
    func endToEnd() throws {
        let home = try Home()
        let c = home.hostile(newlineAndDoubleQuote: true) + "/counter", swift = home.hostile(newlineAndDoubleQuote: false) + "/clicker"
        let madeC = try home.new(["counter", "--c", "--dir", c])
        #expect(madeC.status == 0, "\(madeC)")
        #expect(madeC.stdout.contains("make check") && madeC.stdout.contains("launch counter") && madeC.stdout.contains("widget-host dev"))
        try Self.run(["make", "-C", c, "check"])
        let madeSwift = try home.new(["clicker", "--dir", swift])
        #expect(madeSwift.status == 0, "\(madeSwift)")
        #expect(madeSwift.stdout.contains("./check.sh") && madeSwift.stdout.contains("launch clicker") && madeSwift.stdout.contains("widget-host dev"))
        try Self.run([swift + "/check.sh"])
        for victim in home.victims { #expect(!FileManager.default.fileExists(atPath: victim), "\(victim) was made") }
        // Nothing of this machine in what `new` wrote: no directory, so nothing to quote.
        for (project, expected) in [(c, [".gitignore", "Makefile", "counter.c", "widget.json"]),
                                    (swift, [".gitignore", "Package.swift", "check.sh", "widget.json", "Sources/ClickerManifest/manifest.c",
                                             "Sources/ClickerManifest/include/ClickerManifest.h", "Sources/Clicker/Clicker.swift"])] {
            let texts = try Self.projectTexts(project)
            #expect(Set(expected).isSubset(of: texts.keys), "\(texts.keys)")
            for (path, text) in texts {
                #expect(!text.contains(home.root) && !text.contains("touch") && !text.contains(TestSupport.packageRoot), "\(path): \(text)")
            }
        }
        for plugin in [c + "/counter.so", swift + "/.build/debug/libClicker.so"] {
            let installed = try home.run(["install", plugin, "--yes"])
            #expect(installed.status == 0, "\(installed)")
        }
        let list = try home.run(["list", "--json"]).json()
        for id in ["org.example.counter", "org.example.clicker"] {
            let row = list.array?.first { $0["id"]?.string == id }
            #expect(row?["status"]?.string == "ok", "\(id) in \(list)")
            #expect(try home.run(["validate", home.root + "/data/widget-host/plugins/\(id).so"]).status == 0)
            for isolation in [[], ["--isolate"]] {
                let shown = try home.run(["launch", id, "--actions", "bump", "--once", "--format", "json"] + isolation)
                #expect(shown.status == 0, "\(shown)")
                #expect(shown.stdout.contains("Pressed 1 times"), "\(id) \(isolation): \(shown)")
            }
        }
        // The manifest is an input of the build: editing only widget.json rebuilds the plugin.
        let manifest = swift + "/widget.json"
        let edited = try String(contentsOfFile: manifest, encoding: .utf8).replacingOccurrences(of: "Counts presses.", with: "Counts clicks.")
        try TestSupport.write(Array(edited.utf8), to: manifest)
        try OutOfTreeSwiftPluginTests.swiftBuild(package: swift, scratch: swift + "/.build")
        let info = try home.run(["info", swift + "/.build/debug/libClicker.so", "--json"]).json()
        #expect(info["manifest"]?["description"]?.string == "Counts clicks.", "\(info)")
    }

    @Test("the C scaffold builds clean with gcc and clang under -Wall -Wextra -Werror")
    func cleanCBuilds() throws {
        let home = try Home()
        let c = home.root + "/strict"
        #expect(try home.new(["strict", "--c", "--dir", c]).status == 0)
        var compilers = [try OutOfTreeSwiftPluginTests.executable("gcc")]
        // clang comes with the Swift toolchain; a machine without it still checks gcc.
        if let clang = try? OutOfTreeSwiftPluginTests.executable("clang") { compilers.append(clang) }
        for compiler in compilers {
            try Self.run(["make", "-B", "-C", c, "CC=\(compiler)", "CFLAGS=-O2 -Wall -Wextra -Werror"])
            #expect(try home.run(["validate", c + "/strict.so"]).status == 0, "\(compiler)")
        }
        // The Swift scaffold's embedded manifest is C too, for clang only (#embed).
        if let clang = try? OutOfTreeSwiftPluginTests.executable("clang") {
            let swift = home.root + "/strictswift"
            #expect(try home.new(["strictswift", "--dir", swift]).status == 0)
            try Self.run([clang, "-c", "-Wall", "-Wextra", "-Werror", "-I", swift + "/WidgetHostSDK/Sources/PluginABI/include",
                          swift + "/Sources/StrictswiftManifest/manifest.c", "-o", home.root + "/manifest.o"])
        }
    }

    @Test("validate fails a widget that counts the host's refresh as a press, unless it declares that refresh changes it")
    func refreshIsNotAPress() throws {
        let home = try Home()
        let c = home.root + "/presses"
        #expect(try home.new(["presses", "--c", "--dir", c]).status == 0)
        let source = c + "/presses.c"
        let careless = try String(contentsOfFile: source, encoding: .utf8)
            .replacingOccurrences(of: "if (strcmp(action, \"bump\") != 0) return WH_UNKNOWN_ACTION;", with: "(void)action;")
        try TestSupport.write(Array(careless.utf8), to: source)
        try Self.run(["make", "-C", c])
        let failed = try home.run(["validate", c + "/presses.so"])
        #expect(failed.status == 1, "\(failed)")
        #expect(failed.stdout.contains("FAIL  refresh main") && failed.stdout.contains("\"refreshes\": true"), "\(failed)")
        let manifest = try String(contentsOfFile: c + "/widget.json", encoding: .utf8)
            .replacingOccurrences(of: "\"services\"", with: "\"refreshes\": true, \"services\"")
        try TestSupport.write(Array(manifest.utf8), to: c + "/widget.json")
        try Self.run(["make", "-C", c])
        let declared = try home.run(["validate", c + "/presses.so"])
        #expect(declared.status == 0, "\(declared)")
        #expect(declared.stdout.contains("PASS  refresh main: declares \"refreshes\": true"), "\(declared)")
    }

    @Test("validate waits for a loading screen to load before it judges the refresh: a load landing between renders is no press")
    func refreshWaitsForLoading() throws {
        let home = try Home()
        let c = home.root + "/slow"
        #expect(try home.new(["slow", "--c", "--dir", c]).status == 0)
        let source = c + "/slow.c"
        // The first three renders show "loading" (an indeterminate progress), as a widget reading its data does.
        let loading = try String(contentsOfFile: source, encoding: .utf8)
            .replacingOccurrences(of: "struct wh_plugin { int presses; };", with: "struct wh_plugin { int presses; int renders; };")
            .replacingOccurrences(of: "wh_text(&w, text, NULL);",
                                  with: "if (++p->renders <= 3) { wh_node_begin(&w, \"progress\"); wh_node_end(&w); } else wh_text(&w, text, NULL);")
        #expect(loading.contains("p->renders <= 3"))
        try TestSupport.write(Array(loading.utf8), to: source)
        try Self.run(["make", "-C", c])
        let validated = try home.run(["validate", c + "/slow.so"])
        #expect(validated.status == 0, "\(validated)")
        #expect(validated.stdout.contains("PASS  refresh main: nothing to refresh"), "\(validated)")
        // Still loading when the wait runs out: not compared, and said so.
        let forever = loading.replacingOccurrences(of: "p->renders <= 3", with: "p->renders > 0")
        try TestSupport.write(Array(forever.utf8), to: source)
        try Self.run(["make", "-B", "-C", c])
        let stuck = try home.run(["validate", c + "/slow.so"])
        #expect(stuck.stdout.contains("PASS  refresh main: still loading after"), "\(stuck)")
    }

    @Test("an installed copy, the source tree out of reach, scaffolds from the SDK installed beside it; without one it names WIDGET_HOST_SDK")
    func installedCopy() throws {
        let home = try Home()
        let prefix = home.root + "/prefix"
        let installed = try ChildProcess.run(["/bin/sh", TestSupport.packageRoot + "/tools/install.sh", prefix], timeout: 120,
                                             environment: ProcessInfo.processInfo.environment.merging(["BIN": TestSupport.productsDirectory]) { $1 })
        #expect(installed.termination == .exited(0), "\(String(decoding: installed.standardError, as: UTF8.self))")
        // Not ~/.local: the widgets are off the search path, and the script says how to add them.
        #expect(String(decoding: installed.standardError, as: UTF8.self)
            .contains("note: \(prefix)/share/widget-host/plugins is not on widget-host's search path; add it with WIDGET_HOST_PLUGIN_PATH="))
        let environment = ["HOME": home.root, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        let made = try ChildProcess.run([prefix + "/bin/widget-host", "new", "copied", "--c", "--dir", home.root + "/copied"],
                                        timeout: 60, environment: environment)
        #expect(made.termination == .exited(0), "\(String(decoding: made.standardError, as: UTF8.self))")
        try OutOfTreeSwiftPluginTests.run(["/usr/bin/make", "-C", home.root + "/copied", "check", "WIDGET_HOST=" + prefix + "/bin/widget-host"])
        let lonely = home.root + "/lonely/bin"
        try FileManager.default.createDirectory(atPath: lonely, withIntermediateDirectories: true)
        // Copied by a child, so that no descriptor open for writing it is ever in this
        // process, where a child another test forks meanwhile could inherit it (ETXTBSY).
        try OutOfTreeSwiftPluginTests.run(["/bin/cp", prefix + "/bin/widget-host", lonely + "/widget-host"])
        let refused = try ChildProcess.run([lonely + "/widget-host", "new", "copied", "--c", "--dir", home.root + "/refused"],
                                           timeout: 60, environment: environment)
        #expect(refused.termination == .exited(2))
        #expect(String(decoding: refused.standardError, as: UTF8.self).contains("WIDGET_HOST_SDK"))
        #expect(!FileManager.default.fileExists(atPath: home.root + "/refused"))
    }

    @Test("a bad id, a module name that is not a word, and a non-empty directory are refused")
    func refusals() throws {
        let home = try Home()
        let bad = try home.new(["Bad Name", "--dir", home.root + "/bad"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("illegal character"), "\(bad)")
        #expect(!FileManager.default.fileExists(atPath: home.root + "/bad"))
        let digit = try home.new(["org.example.9lives", "--dir", home.root + "/nine"])
        #expect(digit.status == 2)
        let full = home.root + "/full"
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        try TestSupport.write(Array("keep".utf8), to: full + "/notes.txt")
        let refused = try home.new(["hello", "--dir", full])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("exists and is not empty"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: full) == ["notes.txt"])
        #expect(try home.run(["new", "--help"]).stdout.contains("Usage: widget-host new"))
        // A path the user gave that holds no SDK is named as the reason, not a search never made.
        let nowhere = try home.run(["new", "hello", "--dir", home.root + "/nowhere", "--sdk", home.root])
        #expect(nowhere.status == 2 && nowhere.stderr.contains("--sdk \(home.root) is not a widget-host SDK"), "\(nowhere)")
        #expect(!FileManager.default.fileExists(atPath: home.root + "/nowhere"))
    }

    @Test("a directory printed for a shell to copy is one quoted word")
    func shellQuoting() {
        #expect(ShellWord.quoted("plain/dir-1.0") == "plain/dir-1.0")
        #expect(ShellWord.quoted("it's $(x)") == "'it'\\''s $(x)'")
        #expect(ShellWord.quoted("") == "''")
    }
}
