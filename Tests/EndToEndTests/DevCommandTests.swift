import Foundation
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// `widget-host dev`, the author's edit loop (#28): what it refuses and
/// why, and on a real terminal (tmux) a C widget edited, broken and fixed
/// while dev runs, the screen following each save.
@Suite("widget-host dev")
struct DevCommandTests {
    /// A C project dev can build: hello.c, whose About screen says `about`, and a Makefile.
    struct Project {
        let directory: String
        var source: String { directory + "/hello.c" }

        init() throws {
            directory = try TestSupport.makeTemporaryDirectory("dev-project")
            try TestSupport.write(Array("""
                hello.so: hello.c
                \tcc -shared -fPIC -Wall -Werror -I \(TestSupport.includeDirectory) hello.c -o $@

                """.utf8), to: directory + "/Makefile")
            try save(about: "A plugin written in C")
        }

        /// Saves hello.c with another About text, as an editor does: a new file renamed over the old.
        func save(about: String, breaking: Bool = false) throws {
            var text = try String(contentsOfFile: TestSupport.helloSource, encoding: .utf8)
            text = text.replacingOccurrences(of: "A plugin written in C", with: about)
            if breaking { text += "\nthis line is not C\n" }
            try TestSupport.write(Array(text.utf8), to: directory + "/.hello.c.new")
            guard rename(directory + "/.hello.c.new", source) == 0 else { throw TestSupport.Failure("rename over \(source)") }
        }
    }

    @Test("a path that is no project, or no directory, is refused naming what dev needs; without a terminal dev says what to run instead")
    func refusals() throws {
        let empty = try TestSupport.makeTemporaryDirectory("dev-empty")
        let none = try TestSupport.runHost(["dev", empty])
        #expect(none.status == 1 && none.stderr.contains("has no Package.swift or Makefile"), "\(none)")
        #expect(none.stderr.contains("widget-host new NAME"), "\(none)")
        let missing = try TestSupport.runHost(["dev", empty + "/nowhere"])
        #expect(missing.status == 1 && missing.stderr.contains("cannot open the project \(empty)/nowhere"), "\(missing)")
        let file = empty + "/file"
        try TestSupport.write([], to: file)
        let notDirectory = try TestSupport.runHost(["dev", file])
        #expect(notDirectory.status == 1 && notDirectory.stderr.contains("is not a directory"), "\(notDirectory)")
        let project = try Project()
        let scripted = try TestSupport.runHost(["dev", project.directory])
        #expect(scripted.status == 1 && scripted.stderr.contains("dev needs a terminal"), "\(scripted)")
        #expect(!FileManager.default.fileExists(atPath: project.directory + "/hello.so"), "nothing is built without a terminal")
        let help = try TestSupport.runHost(["dev", "--help"])
        #expect(help.status == 0 && help.stdout.contains("Usage: widget-host dev [PATH]") && help.stdout.contains("rebuild and reload"), "\(help)")
    }

    @Test("a build's progress lines are left out of the failure screen, and its messages kept in order")
    func failureView() throws {
        let project = try DevProject(try Project().directory, environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
        let build = DevBuilder.Build(succeeded: false, output: "Building for debugging...\n[3/9] Compiling Hello Hello.swift\nHello.swift:3:1: error: oops\n",
                                     termination: "exited with status 1", seconds: 1.5, changedAt: 0)
        guard case let .stack(_, children) = DevSession.failureView(build, project: project) else { throw TestSupport.Failure("not a stack") }
        let texts = children.compactMap { node -> String? in if case let .text(text, _, _) = node { text } else { nil } }
        #expect(texts.count == 2, "\(texts)")
        #expect(texts.first?.hasPrefix("make exited with status 1 after 1.50 s. Fix it and save") == true, "\(texts)")
        #expect(texts.last == "Hello.swift:3:1: error: oops")
        #expect(DevProject.isSource("hello.c") && DevProject.isSource("widget.json"))
        #expect(!DevProject.isSource("hello.so") && !DevProject.isSource(".hello.c.swp") && !DevProject.isSource("hello.c~"))
    }

    @Test("the plugin a build made is widget.json's id among several, the only one without it, and else an error naming what was found")
    func builtPlugin() throws {
        let directory = try Project().directory
        try TestSupport.compileHello(output: directory + "/hello.so")
        try TestSupport.compileHello(defines: ["-DPLUGIN_ID=\"org.example.other\""], output: directory + "/other.so")
        let project = try DevProject(directory, environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
        let discovery = Discovery(availableServices: Set(ServiceTable.all.map(\.id)))
        guard case let .failure(error) = project.builtPlugin(discovery) else { throw TestSupport.Failure("two plugins and no widget.json chose one") }
        #expect(error.description.contains("cannot tell which plugin it made") && error.description.contains("hello.so, other.so"), "\(error)")
        try TestSupport.write(Array(#"{"id": "org.example.other"}"#.utf8), to: directory + "/widget.json")
        #expect(try project.builtPlugin(discovery).get().path == directory + "/other.so")
        unlink(directory + "/other.so")
        try TestSupport.write(Array(#"{"id": "org.example.gone"}"#.utf8), to: directory + "/widget.json")
        #expect(try project.builtPlugin(discovery).get().path == directory + "/hello.so", "the only plugin, whatever its manifest's source")
        unlink(directory + "/hello.so")
        guard case let .failure(none) = project.builtPlugin(discovery) else { throw TestSupport.Failure("no plugin, yet one was found") }
        #expect(none.description.contains("plugin files in \(project.directory): none; none has widget.json's id org.example.gone"), "\(none)")
    }

    @Test("on a terminal: an edit shows on the screen it was on, a broken build shows its error, a fix recovers, q leaves nothing behind",
          .enabled(if: Tmux.path != nil, "needs tmux"))
    func editBreakFix() throws {
        let project = try Project()
        let home = try IsolationTestKit.Home()
        var environment = home.environment
        environment["TMPDIR"] = try TestSupport.makeTemporaryDirectory("dev-tmp")
        // Builds and process starts on a machine whose cores are all busy: a generous bound, polled.
        let terminal = try Tmux([TestSupport.widgetHost, "dev", project.directory, "--screen", "about"], environment: environment,
                                settings: Tmux.Settings(columns: 100, rows: 40, attempts: 2400))
        defer { terminal.kill() }
        try terminal.waitFor("the first build") { $0.contains("A plugin written in C") && $0.contains("built and shown in") }
        let staged = try FileManager.default.contentsOfDirectory(atPath: environment["TMPDIR"]!)
        #expect(staged.count == 1 && staged[0].hasPrefix("widget-host-dev-"), "\(staged)")

        try project.save(about: "A plugin rewritten in C")
        let edited = try terminal.waitFor("the edit") { $0.contains("A plugin rewritten in C") }
        #expect(edited.contains("─ About ─"), "the screen the author was on stays:\n\(edited)")
        try terminal.waitFor("the figure") { $0.contains("saved → on screen in") }

        try project.save(about: "A plugin broken in C", breaking: true)
        let broken = try terminal.waitFor("the build's error") { $0.contains("Build failed") && $0.contains("error") }
        #expect(broken.contains("make exited with status"), "\(broken)")
        #expect(!broken.contains("A plugin broken in C"), "a failed build loads nothing")

        try project.save(about: "A plugin fixed in C")
        let fixed = try terminal.waitFor("the recovery") { $0.contains("A plugin fixed in C") && !$0.contains("Build failed") }
        #expect(fixed.contains("─ About ─"), "\(fixed)")

        try terminal.send("q")
        _ = try terminal.waitFor("dev's end") { _ in try terminal.exited() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: environment["TMPDIR"]!).isEmpty, "the private copy is removed")
    }

    @Test("on a terminal: a --screen the plugin lacks opens its first screen, and the footer names the screens it has",
          .enabled(if: Tmux.path != nil, "needs tmux"))
    func unknownScreen() throws {
        let project = try Project()
        var environment = try IsolationTestKit.Home().environment
        let temporary = try TestSupport.makeTemporaryDirectory("dev-tmp")
        environment["TMPDIR"] = temporary
        // What a dev killed with its terminal left: the next dev removes it, but not a live one's.
        try TestSupport.makeDirectory(temporary + "/widget-host-dev-999999999-AbCdEf")
        try TestSupport.makeDirectory(temporary + "/widget-host-dev-\(getpid())-AbCdEf")
        let terminal = try Tmux([TestSupport.widgetHost, "dev", project.directory, "--screen", "nosuch"], environment: environment,
                                settings: Tmux.Settings(columns: 100, rows: 30, joinsWrappedLines: true, attempts: 2400))
        defer { terminal.kill() }
        let screen = try terminal.waitFor("the first screen") { $0.contains("Hello, world! Waves: 0") && $0.contains("built and shown in") }
        #expect(screen.contains("nosuch") && screen.contains("its screens: main, about"), "\(screen)")
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary)
        #expect(!left.contains("widget-host-dev-999999999-AbCdEf") && left.contains("widget-host-dev-\(getpid())-AbCdEf"), "\(left)")
    }
}
