import Dispatch
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// An isolated card's widget called off the dashboard's thread: a widget
/// that asks to be drawn again while a render is under way (its data landed
/// meanwhile, as Trips' bookings or Crypto's first price do) gets a render
/// after it, never only the answer that was already under way; nor does one
/// that asks after that answer came in but before the dashboard took it.
@Suite("OffThreadInstance")
struct OffThreadInstanceTests {
    /// Renders "loading" until its data lands, which happens during its first render; then "loaded".
    private final class LandsDuringRender: WidgetInstance, @unchecked Sendable {
        let wake = Locked<(@Sendable () -> Void)?>(nil)
        let loaded = Locked(false)
        let renders = Locked(0)

        func render(screen: String, params: JSONValue) throws(WidgetCallError) -> [UInt8] {
            let view = loaded.withLock { $0 } ? "loaded" : "loading"
            if renders.withLock({ $0 += 1; return $0 }) == 1 {
                // The data lands while this render is under way, and the widget asks to be drawn again.
                loaded.withLock { $0 = true }
                wake.withLock { $0 }?()
            }
            return Array(view.utf8)
        }
        func handle(action: String, value: String?) throws(WidgetCallError) {}
        func query(_ id: String) throws(WidgetCallError) -> [UInt8] { [] }
        func pump() -> Int { 0 }
        func onWake(_ handler: @escaping @Sendable () -> Void) { wake.withLock { $0 = handler } }
    }

    /// Renders "loading" until `land()`, then "loaded": its data lands whenever the test says.
    private final class LandsWhenTold: WidgetInstance, @unchecked Sendable {
        let wake = Locked<(@Sendable () -> Void)?>(nil)
        let loaded = Locked(false)
        let renders = Locked(0)

        func land() {
            loaded.withLock { $0 = true }
            wake.withLock { $0 }?()
        }
        func render(screen: String, params: JSONValue) throws(WidgetCallError) -> [UInt8] {
            renders.withLock { $0 += 1 }
            return Array((loaded.withLock { $0 } ? "loaded" : "loading").utf8)
        }
        func handle(action: String, value: String?) throws(WidgetCallError) {}
        func query(_ id: String) throws(WidgetCallError) -> [UInt8] { [] }
        func pump() -> Int { 0 }
        func onWake(_ handler: @escaping @Sendable () -> Void) { wake.withLock { $0 = handler } }
    }

    /// What a dashboard does: render when woken, until `shows` holds or a minute passes.
    private static func render(_ card: OffThreadInstance, woken: DispatchSemaphore, until shows: (String) -> Bool) -> [String] {
        var shown: [String] = []
        let deadline = Clock.now + 60
        while Clock.now < deadline {
            if let bytes = try? card.render(screen: "main", params: [:]) {
                shown.append(String(decoding: bytes, as: UTF8.self))
                if shows(shown.last!) { return shown }
            }
            _ = woken.wait(timeout: .now() + max(deadline - Clock.now, 0))
            // Wake-ups that came together are one, as the dashboard's wakeup pipe makes them.
            while woken.wait(timeout: .now()) == .success {}
        }
        return shown
    }

    @Test("data landing during a render: that render's answer is shown, and the card is rendered again without being asked")
    func wokenDuringRender() {
        let calls = OffThreadCalls()
        calls.enabled = true
        let widget = LandsDuringRender()
        let card = OffThreadInstance(name: "lands", calls: calls) { widget }
        let woken = DispatchSemaphore(value: 0)
        card.onWake { woken.signal() }
        let shown = Self.render(card, woken: woken) { $0 == "loaded" }
        #expect(shown == ["loading", "loaded"], "the card stayed on what the render under way drew: \(shown)")
        #expect(widget.renders.withLock { $0 } == 2)
    }

    @Test("data landing after a render's answer came in but before the dashboard took it: the card is rendered again")
    func wokenBeforeAnswerTaken() throws {
        let calls = OffThreadCalls()
        calls.enabled = true
        let widget = LandsWhenTold()
        let card = OffThreadInstance(name: "lands-late", calls: calls) { widget }
        let woken = DispatchSemaphore(value: 0)
        card.onWake { woken.signal() }
        #expect(throws: WidgetCallError.self) { try card.render(screen: "main", params: [:]) }
        // The first answer ("loading") is in: its wake-up says so. Then, before the dashboard wakes
        // to take it, the data lands and the widget asks again; the two wake-ups reach the dashboard as one.
        #expect(woken.wait(timeout: .now() + 60) == .success)
        widget.land()
        while woken.wait(timeout: .now()) == .success {}
        let shown = Self.render(card, woken: woken) { $0 == "loaded" }
        #expect(shown == ["loading", "loaded"], "the card kept the answer that predates the data: \(shown)")
        #expect(widget.renders.withLock { $0 } == 2)
    }

    @Test("calls not handed off (a widget open full screen, a script): each render waits its turn and returns the widget's answer")
    func direct() throws {
        let widget = LandsDuringRender()
        let card = OffThreadInstance(name: "direct", calls: OffThreadCalls()) { widget }
        #expect(String(decoding: try card.render(screen: "main", params: [:]), as: UTF8.self) == "loading")
        #expect(String(decoding: try card.render(screen: "main", params: [:]), as: UTF8.self) == "loaded")
    }
}
