import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// What an isolated plugin sends while the host makes no call reaches the
/// host: the host's watching thread reads it when the child rings its
/// doorbell, since it never waits on the socket's data.
@Suite("Isolation: between calls")
struct IsolationBetweenCallsTests {
    @Test("render requests from a plugin's own thread wake the host while it makes no call")
    func wakesBetweenCalls() throws {
        let home = try IsolationTestKit.Home()
        let candidate = try IsolationTestKit.candidate(try ViewsFixture.directory() + "/views.so")
        let instance = try home.launcher().launch(candidate, home.runtime(LogRecorder()))
        let wakes = ServiceTestKit.Counter()
        instance.onWake { wakes.increment() }
        // The plugin's thread asks for a render three times, 150 ms apart, after the action has returned.
        try instance.handle(action: "tick", value: nil)
        #expect(IsolationTestKit.eventually { wakes.value >= 3 }, "\(wakes.value) of 3 render requests reached the host")
        // And the calls after them still get their own answers.
        #expect(try instance.render(screen: "ticker", params: [:]).isEmpty == false)
    }
}
