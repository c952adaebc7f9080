import Testing
@testable import PluginKit
@testable import WidgetHostKit

/// A warning kept for a screen's footer wakes that screen (`onNotice`): the
/// interactive loop has no tick that would show it otherwise.
@Suite struct HostLogNoticeTests {
    @Test func warningsAndErrorsCallTheHandlerAndLowerLevelsDoNot() {
        let log = HostLog(threshold: .debug, sink: { _ in })
        let calls = Locked(0)
        log.onNotice { calls.withLock { $0 += 1 } }
        log.log(.debug, "org.example.a", "detail")
        log.log(.info, "org.example.a", "fine")
        #expect(calls.withLock { $0 } == 0)
        log.log(.warning, "org.example.a", "slow source")
        log.log(.error, "org.example.b", "broken")
        #expect(calls.withLock { $0 } == 2)
        #expect(log.latestNotice(from: "org.example.a") == "slow source")
    }

    @Test func aWarningBelowTheThresholdWakesNothing() {
        let log = HostLog(threshold: .error, sink: { _ in })
        let calls = Locked(0)
        log.onNotice { calls.withLock { $0 += 1 } }
        log.log(.warning, "org.example.a", "not shown")
        #expect(calls.withLock { $0 } == 0)
    }

    @Test func aScreenInsideAnotherPutsTheOuterHandlerBack() {
        let log = HostLog(threshold: .debug, sink: { _ in })
        let outer = Locked(0), inner = Locked(0)
        #expect(log.onNotice { outer.withLock { $0 += 1 } } == nil)
        let replaced = log.onNotice { inner.withLock { $0 += 1 } }
        log.log(.warning, "org.example.a", "one")
        log.onNotice(replaced)
        log.log(.warning, "org.example.a", "two")
        #expect(inner.withLock { $0 } == 1)
        #expect(outer.withLock { $0 } == 1)
    }
}
