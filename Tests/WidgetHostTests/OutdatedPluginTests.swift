import Testing
@testable import WidgetHostKit

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
}
