import PluginABI

/// The host's side of one plugin instance: its `wh_host`, its grants, its
/// bus subscriptions, and the mailbox of events waiting for the main thread.
///
/// Capabilities are deny-by-default: `get_service` answers only for services
/// the plugin's manifest declared, and the bus only carries topics it
/// declared. Every `wh_host` points back here, so a service always knows
/// which plugin is calling.
///
/// The bus's rules for a plugin live here too, so they hold the same in
/// process and isolated: a payload over `Bus.maxPayloadBytes` is refused,
/// more than `maxEventsPerSecond` events in a second stops the plugin, and
/// at most `mailboxLimit` events wait for it (more are dropped).
public final class PluginContext: @unchecked Sendable {
    public let pluginID: PluginID
    public let runtime: HostRuntime
    /// The host's log, speaking for this plugin.
    public let log: Logger
    // The host services the plugin's calls reach, resolved from the runtime's
    // registry once, when the instance starts, not on every call.
    let hostLog: HostLog
    let bus: Bus
    let store: SharedStore
    let clock: HostClock
    let http: HTTPClient
    let contracts: ContractBroker
    let manifest: Manifest
    let configSection: JSONValue
    let host: UnsafeMutablePointer<wh_host>
    private let granted: [String: UnsafeRawPointer]
    private let declared: Set<String>
    private let wake = Locked(Wake())
    private let wakeTimes = Locked<Set<Int64>>([])
    private let mailbox = Locked(Mailbox())
    private let subscriptions = Locked<[Int64: Bus.Subscription]>([:])
    let maxEventsPerSecond: Int
    private let published = Locked(PerSecondCounter())
    private let stopped = Locked(Stop())
    /// Set, after `stopped` holds its reason, when the plugin is stopped: the
    /// check before and after every call reads this instead of taking the lock.
    private let hasStopped = AtomicCell<Bool>(false)

    /// The most events that may wait for one instance.
    static let mailboxLimit = 10_000

    /// A struct, not a tuple: a closure inside a tuple that a generic
    /// `Locked` hands out inout is re-wrapped at every access.
    private struct Stop {
        var reason: String?
        var handler: (@Sendable (String) -> Void)?
    }

    /// The wake handler, in a struct for the same reason as `Stop`: held
    /// bare (`Locked<(() -> Void)?>`), every `withLock` wrapped it in one
    /// more reabstraction thunk and stored that back, so each wake-up (three
    /// per store write Trips re-renders for) kept two more allocations for
    /// good and made the next call one level deeper (issue 25).
    private struct Wake {
        var handler: (@Sendable () -> Void)?
    }

    private struct Mailbox {
        var events = FIFOQueue<(subscription: Int64, event: BusEvent)>()
        /// Events were dropped since the mailbox was last empty.
        var overflowing = false
    }

    init(manifest: Manifest, runtime: HostRuntime, maxEventsPerSecond: Int = PluginRunSettings().maxEventsPerSecond) {
        pluginID = manifest.id
        self.maxEventsPerSecond = maxEventsPerSecond
        self.manifest = manifest
        self.runtime = runtime
        hostLog = runtime.resolve(HostLog.self)
        log = hostLog.logger(for: manifest.id.value)
        bus = runtime.resolve(Bus.self)
        store = runtime.resolve(SharedStore.self)
        clock = runtime.resolve(HostClock.self)
        http = runtime.resolve(HTTPClient.self)
        contracts = runtime.resolve(ContractBroker.self)
        configSection = runtime.resolve(HostConfig.self).section(for: manifest.id)
        let declared = Set(manifest.requiredServices + manifest.optionalServices)
        self.declared = declared
        var granted: [String: UnsafeRawPointer] = [:]
        for id in declared {
            if let table = try? runtime.registry.optional(ServiceTable.self, name: id) { granted[id] = table.pointer }
        }
        self.granted = granted
        host = .allocate(capacity: 1)
        host.initialize(to: wh_host(
            abi_major: WH_ABI_MAJOR, abi_minor: WH_ABI_MINOR, struct_size: UInt32(MemoryLayout<wh_host>.size),
            host_data: nil,
            get_service: { host, id in
                guard let context = PluginContext.from(host), let id else { return nil }
                return context.service(lossyText(id))
            },
            request_render: { host in
                PluginContext.from(host)?.wakeUp()
            }
        ))
        // A plugin's background thread may still call in after the instance
        // is destroyed, so what it holds must stay valid: the wh_host and its
        // box outlive the context, and the box's weak reference turns such
        // late calls into no-ops instead of use-after-free.
        let box = ContextBox()
        box.context = self
        host.pointee.host_data = Unmanaged.passRetained(box).toOpaque()
    }

    deinit {
        for subscription in subscriptions.withLock({ Array($0.values) }) { bus.unsubscribe(subscription) }
    }

    /// Called, on any thread, when the instance wants rendering or has events
    /// waiting: the host's loop should then call `PluginInstance.pump()` and
    /// render on its main thread.
    public func onWake(_ handler: @escaping @Sendable () -> Void) {
        wake.withLock { $0.handler = handler }
    }

    private func wakeUp() {
        wake.withLock { $0.handler }?()
    }

    /// Why the host stopped the plugin for breaking a rule, or nil.
    public var stopReason: String? { hasStopped.load(ordering: .acquiring) ? stopped.withLock { $0.reason } : nil }

    /// Called once, on the thread that noticed, when the plugin breaks a
    /// rule: whoever runs the plugin stops it there.
    func onStop(_ handler: @escaping @Sendable (String) -> Void) {
        stopped.withLock { $0.handler = handler }
    }

    /// Stops the plugin for `reason` (the first reason stands), and wakes
    /// the host so that the screen shows it.
    func stop(_ reason: String) {
        let handler = stopped.withLock { state -> (@Sendable (String) -> Void)? in
            guard state.reason == nil else { return nil }
            state.reason = reason
            return state.handler
        }
        hasStopped.store(true, ordering: .releasing)
        guard let handler else { return }
        handler(reason)
        wakeUp()
    }

    /// Wakes the instance when the host's clock reaches `milliseconds`.
    /// Every time asked for is kept (clock.h: setting several is fine), but
    /// the scheduler holds one timer per plugin, for the earliest: a plugin
    /// that asks again on every change (Trips, its next entry a day ahead at
    /// most) adds a number here, not a timer, and a hostile one that asks
    /// without end keeps only the `maxWakeTimes` earliest.
    func wake(atMilliseconds milliseconds: Int64) {
        // Capped at a year: a later wake is not a timeline's next entry but a bug.
        let delay = min(max(0, milliseconds - clock.nowMilliseconds), 366 * 86_400_000)
        let due = WakeScheduler.monotonic() + delay   // the host clock may stand still (--now); the timer's may not
        // The timer is armed under the lock (here and when it fires), so an
        // earlier time asked for meanwhile is never replaced by an older "next".
        // The scheduler calls back on its own thread, outside its lock.
        wakeTimes.withLock { times in
            if times.count >= Self.maxWakeTimes {
                guard let latest = times.max(), due < latest else { return }
                times.remove(latest)
            }
            let wasEarliest = times.min()
            times.insert(due)
            if wasEarliest.map({ due < $0 }) ?? true { armWakeTimer(at: due) }
        }
    }

    static let maxWakeTimes = 256

    private func armWakeTimer(at due: Int64) {
        WakeScheduler.shared.after(milliseconds: due - WakeScheduler.monotonic(), replacingFor: self) { [weak self] in
            self?.wakeTimerFired()
        }
    }

    private func wakeTimerFired() {
        let now = WakeScheduler.monotonic()
        let reached = wakeTimes.withLock { times -> Bool in
            let before = times.count
            times = times.filter { $0 > now }
            if let next = times.min() { armWakeTimer(at: next) }
            return times.count < before
        }
        if reached { wakeUp() }
    }

    /// The wake times asked for and not yet reached, for tests.
    var pendingWakeTimes: Int { wakeTimes.withLock { $0.count } }

    func service(_ id: String) -> UnsafeRawPointer? {
        if let table = granted[id] { return table }
        if manifest.requiredContracts.contains(id) {
            if contracts.isProvided(id) { return ContractService.table(for: id) }
            log.info("asked for contract \(id), which no installed plugin provides")
        } else if declared.contains(id) {
            log.info("asked for service \(id), which this host does not provide")
        } else {
            log.warning("denied service \(id): the plugin's manifest does not declare it")
        }
        return nil
    }

    /// Asks the provider of `contract` and writes its answer to `out`
    /// (contract.h). The plugin must have declared the contract: its table
    /// came from `service`, but a forwarded call is checked again here.
    func ask(contract: String, out: ServiceOutput) -> Int64 {
        guard manifest.requiredContracts.contains(contract) else {
            log.warning("denied contract \(contract): the plugin's manifest does not require it")
            return Int64(WH_CONTRACT_UNAVAILABLE)
        }
        switch contracts.ask(contract, for: pluginID) {
        case let .success(answer):
            return out.write(answer) ? Int64(WH_CONTRACT_OK) : Int64(WH_CONTRACT_TOO_LARGE)
        case let .failure(error):
            log.warning("asked contract \(contract): \(error.reason)")
            return Int64(error.status)
        }
    }

    func publish(topic: String, payload: String) -> Int32 {
        guard stopReason == nil else { return Int32(WH_BUS_FLOODED) }
        if let problem = Topic.problem(with: topic) {
            log.warning("refused publish: \(problem)")
            return Int32(WH_BUS_INVALID_TOPIC)
        }
        guard manifest.publishes.contains(where: { Topic.matches($0, topic) }) else {
            log.warning("denied publish to \(topic): the plugin's manifest does not declare it")
            return Int32(WH_BUS_DENIED)
        }
        guard payload.utf8.count <= Bus.maxPayloadBytes else {
            log.warning("refused publish to \(topic): the payload is over the bus's limit of \(Bus.maxPayloadBytes) bytes")
            return Int32(WH_BUS_TOO_LARGE)
        }
        guard published.withLock({ $0.add(at: Clock.now) }) <= maxEventsPerSecond else {
            stop("flooded the bus: more than \(maxEventsPerSecond) events in a second")
            return Int32(WH_BUS_FLOODED)
        }
        do {
            try bus.publish(topic, payload: payload)
            return 0
        } catch {
            log.warning("refused publish to \(topic): \(error)")
            return Int32(WH_BUS_INVALID_PAYLOAD)
        }
    }

    func subscribe(pattern: String) -> Int64 {
        if let problem = Topic.patternProblem(pattern) {
            log.warning("refused subscription: \(problem)")
            return Int64(WH_BUS_INVALID_TOPIC)
        }
        guard manifest.subscribes.contains(where: { Topic.covers($0, pattern) }) else {
            log.warning("denied subscription to \(pattern): the plugin's manifest does not declare it")
            return Int64(WH_BUS_DENIED)
        }
        // Events wait in the mailbox for the main thread (plugin.h's rule),
        // tagged with their subscription so an unsubscribe can void them.
        let token = SubscriptionToken()
        let subscription: Bus.Subscription
        do {
            subscription = try bus.subscribe(pattern) { [weak self] event in
                // A store change is news only to a plugin that may read its group.
                guard let self, StoreGroups.mayReceive(event, manifest: self.manifest) else { return }
                self.post(event, subscription: token.id.load(ordering: .acquiring))
            }
        } catch {
            return Int64(WH_BUS_INVALID_TOPIC)
        }
        let id = Int64(subscription.id)
        subscriptions.withLock { $0[id] = subscription }
        token.id.store(id, ordering: .releasing)
        return id
    }

    func unsubscribe(_ id: Int64) {
        guard let subscription = subscriptions.withLock({ $0.removeValue(forKey: id) }) else { return }
        bus.unsubscribe(subscription)
    }

    /// Puts an event in the mailbox for the main thread and wakes it; drops
    /// it, saying so once, while `mailboxLimit` events are already waiting.
    private func post(_ event: BusEvent, subscription: Int64) {
        let (posted, firstDropped) = mailbox.withLock { mailbox -> (Bool, Bool) in
            guard mailbox.events.count < Self.mailboxLimit else {
                defer { mailbox.overflowing = true }
                return (false, !mailbox.overflowing)
            }
            mailbox.events.append((subscription, event))
            return (true, false)
        }
        if firstDropped {
            log.warning("dropped bus events: \(Self.mailboxLimit) are already waiting for it to take them (first dropped: \(event.topic))")
        }
        if posted { wakeUp() }
    }

    /// The next event queued for a live subscription of the instance, oldest
    /// first; events of ended subscriptions are dropped. None once the
    /// plugin is stopped.
    func nextEvent() -> BusEvent? {
        guard stopReason == nil else { return nil }
        while let (subscription, event) = mailbox.withLock({ mailbox in
            defer { if mailbox.events.isEmpty { mailbox.overflowing = false } }
            return mailbox.events.popFirst()
        }) {
            if subscriptions.withLock({ $0[subscription] != nil }) { return event }
        }
        return nil
    }

    static func from(_ host: UnsafePointer<wh_host>?) -> PluginContext? {
        guard let data = host?.pointee.host_data else { return nil }
        return Unmanaged<ContextBox>.fromOpaque(data).takeUnretainedValue().context
    }
}

/// A subscription's id, known only once `subscribe` returns but needed by
/// the handler it registers.
private final class SubscriptionToken: Sendable {
    let id = AtomicCell<Int64>(0)
}

/// What a `wh_host` points at: kept for the life of the process (a few bytes
/// per instance ever made), holding its context weakly.
private final class ContextBox: @unchecked Sendable {
    // Weak references are safe to load from any thread.
    weak var context: PluginContext?
}
