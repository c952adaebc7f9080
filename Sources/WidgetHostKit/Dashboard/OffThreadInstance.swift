/// Whether the dashboard's isolated widgets are called off its thread now:
/// on while the grid shows (a hung card must not hold the others or the
/// keys), off while a widget is open full screen or a script renders once,
/// where a person or a script waits for that one answer anyway.
public final class OffThreadCalls: Sendable {
    private let on = Locked(false)
    public init() {}
    public var enabled: Bool {
        get { on.withLock { $0 } }
        set { on.withLock { $0 = newValue } }
    }
}

/// A widget whose calls run on a serial queue of its own, so the thread
/// that drives the dashboard never waits on it. With `calls` enabled a
/// render returns the answer that came in since the last render, or else
/// starts one (if none is under way) and throws `.busy`; the widget's wake
/// handler runs when the answer lands, and the dashboard renders that card
/// again. Actions and bus events are sent and not waited for. Otherwise
/// every call waits its turn on the queue, as a direct call would.
final class OffThreadInstance: WidgetInstance, @unchecked Sendable {
    private struct State {
        var instance: (any WidgetInstance)?
        var wake: (@Sendable () -> Void)?
        /// Renders that came in and were not yet taken, by screen and params;
        /// `outdated` when the widget asked to be drawn again while it rendered.
        var answers: [String: (result: Result<[UInt8], WidgetCallError>, outdated: Bool)] = [:]
        /// The render under way and when it started (monotonic seconds).
        var running: (key: String, since: Double)?
        /// The widget asked to be drawn again during the render under way (a fetch landed meanwhile).
        var wokenWhileRunning = false
    }

    private let queue: SerialWorker
    private let state = Locked(State())
    private let calls: OffThreadCalls
    /// The session's thread, which runs the contracts a job under way hands it while it waits for this queue.
    private let owner: OwnerThread?
    private let start: () throws -> any WidgetInstance

    /// `start` makes the widget, on its queue, when it is first called:
    /// a widget slow to start holds only its own card too.
    init(name: String, calls: OffThreadCalls, owner: OwnerThread? = nil, start: @escaping () throws -> any WidgetInstance) {
        queue = SerialWorker(name: "card \(name)")
        self.calls = calls
        self.owner = owner
        self.start = start
    }

    /// On the queue only: the widget, started if it is not yet.
    private func widget() throws(WidgetCallError) -> any WidgetInstance {
        if let instance = state.withLock({ $0.instance }) { return instance }
        let instance: any WidgetInstance
        do { instance = try start() } catch let error as WidgetCallError { throw error } catch {
            throw .stopped("could not start: \(error)")
        }
        state.withLock { $0.instance = instance }
        instance.onWake { [weak self] in self?.widgetWoke() }
        return instance
    }

    /// The widget asks to be drawn again. The answer under way, or one that
    /// came in and is not yet taken, predates what it wants to show (its data
    /// landed meanwhile): that answer is shown, and another render is started.
    /// Not only during a render: this wake-up and the one that said the answer
    /// was in may reach the dashboard as one, and then no other comes.
    private func widgetWoke() {
        let wake = state.withLock { state in
            if state.running != nil { state.wokenWhileRunning = true }
            for key in state.answers.keys { state.answers[key]?.outdated = true }
            return state.wake
        }
        wake?()
    }

    func render(screen: String, params: JSONValue) throws(WidgetCallError) -> [UInt8] {
        guard calls.enabled else { return try onQueue { () throws(WidgetCallError) in try widget().render(screen: screen, params: params) } }
        let key = screen + "\u{0}" + params.serialized
        let now = Clock.now
        let (answer, startNow, since): (Result<[UInt8], WidgetCallError>?, Bool, Double) = state.withLock { state in
            let answer = state.answers.removeValue(forKey: key)
            if let answer, !answer.outdated { return (answer.result, false, now) }
            if let running = state.running { return (answer?.result, false, running.since) }
            state.running = (key, now)
            return (answer?.result, true, now)
        }
        if startNow {
            queue.async { [self] in
                let result = Result<[UInt8], WidgetCallError> { () throws(WidgetCallError) in try widget().render(screen: screen, params: params) }
                let wake = state.withLock { state in
                    state.answers[key] = (result, state.wokenWhileRunning)
                    state.wokenWhileRunning = false
                    state.running = nil
                    return state.wake
                }
                wake?()
            }
            // A render still under way in a second: the card says it is not responding.
            // On the host's one timer thread: a card's queue alone must not keep a clock ticking.
            WakeScheduler.shared.after(milliseconds: 1050) { [weak self] in
                guard let self else { return }
                let wake = state.withLock { $0.running?.since == now ? $0.wake : nil }
                wake?()
            }
        }
        if let answer { return try answer.get() }
        throw .busy(seconds: now - since)
    }

    /// Waits its turn on the queue, as a direct call would wait for the widget.
    private func onQueue<T>(_ body: () throws(WidgetCallError) -> T) throws(WidgetCallError) -> T {
        try queue.sync(serving: owner, body)
    }

    func query(_ id: String) throws(WidgetCallError) -> [UInt8] {
        try onQueue { () throws(WidgetCallError) in try widget().query(id) }
    }

    func handle(action: String, value: String?) throws(WidgetCallError) {
        guard calls.enabled else { return try onQueue { () throws(WidgetCallError) in try widget().handle(action: action, value: value) } }
        // A failing action shows in the render that follows it.
        queue.async { [self] in _ = try? widget().handle(action: action, value: value) }
    }

    @discardableResult
    func pump() -> Int {
        guard calls.enabled else { return (try? onQueue { () throws(WidgetCallError) -> Int in state.withLock({ $0.instance })?.pump() ?? 0 }) ?? 0 }
        queue.async { [self] in _ = state.withLock({ $0.instance })?.pump() }
        return 0
    }

    func onWake(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.wake = handler }
    }
}
