import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// A widget rebuilt while `launch` runs it in process keeps its old code
/// (an image is never unloaded): the session says so, with what to do,
/// where an isolated session simply restarts it.
@Suite("A plugin file that changes under a running session")
struct OutdatedPluginTests {
    @Test("in process, a changed file is named with the way to see the change; isolated, the widget restarts instead")
    func outdatedNotice() throws {
        let directory = try TestSupport.makeTemporaryDirectory("outdated")
        let path = directory + "/hello.so"
        try TestSupport.compileC(source: TestSupport.helloSource, output: path)
        let candidate = try IsolationTestKit.candidate(path)
        let id = try #require(candidate.manifest?.id)
        for restarts in [false, true] {
            let session = WidgetSession(runtime: try IsolationTestKit.Home().runtime(LogRecorder()), plugins: [candidate])
            try session.open(NavigationTarget(plugin: id.value, screen: "main"))
            #expect(session.render() != nil)
            session.replacePlugins([candidate], changedPaths: ["/elsewhere/other.so"], restartChanged: restarts)
            #expect(session.outdatedNotice(id) == nil, "an unrelated change")
            session.replacePlugins([candidate], changedPaths: [path], restartChanged: restarts)
            let notice = session.outdatedNotice(id)
            if restarts {
                #expect(notice == nil)
            } else {
                #expect(notice?.contains("hello.so changed on disk") == true && notice?.contains("--isolate") == true, "\(String(describing: notice))")
            }
        }
    }

    @Test("on a terminal, an in-process launch whose file is rebuilt says so in its footer, and r does not pretend to refresh",
          .enabled(if: Tmux.path != nil, "needs tmux"))
    func noticeOnScreen() throws {
        let directory = try TestSupport.makeTemporaryDirectory("outdated-terminal")
        try TestSupport.compileC(source: TestSupport.helloSource, output: directory + "/hello.so")
        let home = try IsolationTestKit.Home()
        let terminal = try Tmux([TestSupport.widgetHost, "launch", "hello", "--plugin-dir", directory], environment: home.environment,
                                settings: Tmux.Settings(columns: 100, rows: 30, joinsWrappedLines: true, attempts: 1200))
        defer { terminal.kill() }
        try terminal.waitFor("Hello, world! Waves: 0")
        // A new build moved into place in one rename, as a linker or an install leaves it.
        try TestSupport.compileC(source: TestSupport.helloSource, flags: ["-DGREETED=\"again\""], output: directory + "/hello.so.part")
        #expect(rename(directory + "/hello.so.part", directory + "/hello.so") == 0)
        let notice = try terminal.waitFor("the notice") { $0.contains("hello.so changed on disk") }
        #expect(notice.contains("then launch again") && notice.contains("--isolate"), "\(notice)")
        #expect(notice.contains("Hello, world! Waves: 0"), "the old code still runs, and the screen says so")
        // r redraws the whole screen: the frame it writes is the first one recorded after it.
        try terminal.recordOutput()
        try terminal.send("r")
        let redrawn = IsolationTestKit.eventually(1200) {
            String(decoding: (try? terminal.recorded()) ?? [], as: UTF8.self).contains("changed on disk")
        }
        let frame = String(decoding: try terminal.recorded(), as: UTF8.self)
        #expect(redrawn, "r drew nothing")
        #expect(!frame.contains("Nothing to refresh"), "\(frame)")
    }
}
