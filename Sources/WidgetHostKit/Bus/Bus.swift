import PluginABI
import Glibc

/// An event on the bus: a topic and a UTF-8 JSON payload.
public struct BusEvent: Sendable, Equatable {
    public let topic: String
    public let payload: String
    /// Boxed: most events carry none, and a nil reference costs nothing to
    /// copy where an empty existential costs a value-witness call.
    private let boxed: Box?

    private final class Box: Sendable {
        let value: any Sendable
        init(_ value: any Sendable) { self.value = value }
    }

    /// What the payload says, as the host value it was written from, when
    /// the host made the event: a host subscriber uses it instead of parsing
    /// the payload back (the navigator takes a resolved screen so). Plugins
    /// and other subscribers see the payload; equality is the payload's.
    public var value: (any Sendable)? { boxed?.value }

    public init(topic: String, payload: String, value: (any Sendable)? = nil) {
        self.topic = topic
        self.payload = payload
        boxed = value.map(Box.init)
    }

    public static func == (lhs: BusEvent, rhs: BusEvent) -> Bool {
        lhs.topic == rhs.topic && lhs.payload == rhs.payload
    }
}

public struct BusError: Error, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// A publish/subscribe bus.
///
/// Threading: `publish`, `subscribe` and `unsubscribe` may be called from any
/// thread, including from inside a handler. Handlers run one at a time, never
/// concurrently, in the order events were published, so each subscriber sees
/// events in FIFO order. The thread that publishes into an idle bus delivers
/// its event at once, then whatever was queued meanwhile, but at most
/// `deliveryBudget` events in all: past that it hands delivery to the bus's
/// dispatcher thread and returns, so no publisher can be made to work for
/// others without end. A publish made while delivery is under way (from a
/// handler, or from another thread) only queues its event, so it never waits
/// and never deadlocks. At most `queueLimit` events wait: past that,
/// `publish` throws and the event is not queued.
///
/// Unsubscribing: once `unsubscribe` returns, the handler is never entered
/// again. Called from another thread while that very handler runs, it waits
/// for the handler to return (so a handler must not wait for a thread that
/// is unsubscribing it); called from inside any handler, it never waits.
/// A handler unsubscribed during delivery receives nothing further, not even
/// the rest of the current event.
///
/// A handler that throws is reported through `onHandlerError` and the event
/// still reaches every other subscriber.
public final class Bus: Sendable {
    public typealias Handler = @Sendable (BusEvent) throws -> Void

    /// Events one publish may deliver before delivery moves to the dispatcher.
    public static let deliveryBudget = 64
    public static let defaultQueueLimit = 65_536
    /// The largest payload a plugin may publish (bus.h).
    public static let maxPayloadBytes = Int(WH_BUS_MAX_PAYLOAD_BYTES)

    public struct Subscription: Hashable, Sendable {
        public let id: UInt64
    }

    private final class Subscriber: Sendable {
        let id: UInt64
        let pattern: String
        let handler: Handler
        let active = AtomicCell<Bool>(true)

        init(id: UInt64, pattern: String, handler: @escaping Handler) {
            self.id = id
            self.pattern = pattern
            self.handler = handler
        }

        /// What `running` holds while its handler runs: its address, which
        /// the deliverer has in hand (a read less than its id), and which no
        /// other subscriber can take while an unsubscriber holds this one.
        var address: UInt64 { UInt64(UInt(bitPattern: ObjectIdentifier(self))) }
    }

    private struct State {
        var nextID: UInt64 = 1
        /// Subscribers to one exact topic, found by a hash lookup.
        var exact: [String: [Subscriber]] = [:]
        /// Subscribers with wildcards, matched against each topic.
        var wildcard: [Subscriber] = []
        /// Who receives a topic, as last worked out; cleared whenever a
        /// subscription changes, and when it grows past `cacheLimit` topics.
        /// Only topics known to be valid get here.
        var cache: [String: [Subscriber]] = [:]
        /// The last topic looked up and its subscribers: a topic published
        /// again and again (a feed, a tick) is found by comparing it, not
        /// by hashing it.
        var lastTopic: String?
        var lastSubscribers: [Subscriber] = []
        var queue = FIFOQueue<BusEvent>()

        static let cacheLimit = 1024

        /// Who receives `topic`, if it was looked up since the subscriptions
        /// last changed.
        mutating func known(_ topic: String) -> [Subscriber]? {
            if let lastTopic, lastTopic == topic { return lastSubscribers }
            guard let known = cache[topic] else { return nil }
            remember(topic, known)
            return known
        }

        mutating func remember(_ topic: String, _ subscribers: [Subscriber]) {
            lastTopic = topic
            lastSubscribers = subscribers
        }

        /// The subscriptions changed: every answer is forgotten.
        mutating func forget() {
            cache.removeAll(keepingCapacity: true)
            lastTopic = nil
            lastSubscribers = []
        }

        /// Who receives `topic`, in subscription order.
        mutating func subscribers(for topic: String) -> [Subscriber] {
            if let known = known(topic) { return known }
            let exact = self.exact[topic] ?? []
            var all = exact
            if !wildcard.isEmpty {
                let wild = wildcard.filter { Topic.matches($0.pattern, topic) }
                if !wild.isEmpty { all = (exact + wild).sorted { $0.id < $1.id } }
            }
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[topic] = all
            remember(topic, all)
            return all
        }

        var waiting: Int { queue.count }
    }

    private let state = Locked(State())
    /// Whether a thread is delivering (`Flow.delivering`) and how many
    /// events wait in `State.queue` (the rest of the bits). Publishers change
    /// it only under the state's lock, the deliverer without it: so a
    /// delivery that finds nothing waiting ends with one compare-and-swap,
    /// and a publish on an idle bus takes the lock once.
    private let flow = AtomicCell<UInt64>(0)
    private enum Flow {
        static let delivering: UInt64 = 1 << 63
    }
    /// The thread delivering (`pthread_self()`, an integer here), or 0.
    private let deliverer = AtomicCell<UInt>(0)
    private let onHandlerError: @Sendable (BusEvent, any Error) -> Void
    private let queueLimit: Int
    private let dispatcher = SerialWorker(name: "widget-host.bus")
    /// The address of the subscriber whose handler is running, or 0. With
    /// `active`, it lets an unsubscribe wait out a call already under way:
    /// the deliverer publishes the address and then reads `active`, the
    /// unsubscriber clears `active` and then reads the address (both sequentially
    /// consistent), so at least one of them sees the other.
    private let running = AtomicCell<UInt64>(0)

    public init(queueLimit: Int = Bus.defaultQueueLimit, onHandlerError: @escaping @Sendable (BusEvent, any Error) -> Void = { _, _ in }) {
        self.queueLimit = max(1, queueLimit)
        self.onHandlerError = onHandlerError
    }

    public func subscribe(_ pattern: String, handler: @escaping Handler) throws(BusError) -> Subscription {
        if let problem = Topic.patternProblem(pattern) { throw BusError(problem) }
        return state.withLock { state in
            let subscriber = Subscriber(id: state.nextID, pattern: pattern, handler: handler)
            state.nextID += 1
            if Topic.isPattern(pattern) {
                state.wildcard.append(subscriber)
            } else {
                state.exact[pattern, default: []].append(subscriber)
            }
            state.forget()
            return Subscription(id: subscriber.id)
        }
    }

    public func unsubscribe(_ subscription: Subscription) {
        let (found, insideHandler): (Subscriber?, Bool) = state.withLock { state in
            let matches: (Subscriber) -> Bool = { $0.id == subscription.id }
            guard let found = state.wildcard.first(where: matches)
                ?? state.exact.values.lazy.compactMap({ $0.first(where: matches) }).first else { return (nil, false) }
            found.active.store(false, ordering: .sequentiallyConsistent)
            if Topic.isPattern(found.pattern) {
                state.wildcard.removeAll(where: matches)
            } else {
                state.exact[found.pattern]?.removeAll(where: matches)
                if state.exact[found.pattern]?.isEmpty == true { state.exact[found.pattern] = nil }
            }
            state.forget()
            return (found, deliverer.load(ordering: .acquiring) == pthread_self())
        }
        // Another thread may be inside this handler right now: wait for it to
        // leave. The delivering thread itself never waits (it may be
        // unsubscribing the very handler it is running).
        if let found, !insideHandler {
            // Held while waiting, so that no other subscriber can be made at its address meanwhile.
            withExtendedLifetime(found) {
                while running.load(ordering: .sequentiallyConsistent) == found.address { usleep(50) }
            }
        }
    }

    /// Validates and queues an event, then delivers it unless delivery is
    /// already under way. Refuses an invalid topic or payload, or a full
    /// queue: nothing is delivered.
    public func publish(_ topic: String, payload: String = "{}") throws(BusError) {
        if let problem = JSONValidator.problem(in: payload) {
            throw BusError(Topic.problem(with: topic) ?? "payload is not valid JSON: \(problem)")
        }
        try admit(BusEvent(topic: topic, payload: payload), fromHost: false)
    }

    /// Queues an event the host itself made, whose topic and payload are
    /// known to be valid; it is never refused for a full queue.
    func enqueue(_ event: BusEvent) {
        try? admit(event, fromHost: true)
    }

    private enum Admission {
        case deliver([Subscriber])
        case queued
        case refused(String)
    }

    /// Checks the topic (unless the host made the event), then delivers the
    /// event at once on an idle bus, or queues it. A topic already in the
    /// subscriber cache was checked when it got there, so a topic published
    /// again costs one hash lookup instead of a grammar check.
    // Always inlined: a publish is this and a check, and the call cost 5% of one.
    @inline(__always)
    private func admit(_ event: BusEvent, fromHost: Bool) throws(BusError) {
        let admission: Admission = state.withLock { state in
            let known = state.known(event.topic)
            if known == nil, !fromHost, let problem = Topic.problem(with: event.topic) { return .refused(problem) }
            // Under the lock only the deliverer changes `flow` meanwhile: it
            // takes an event off the queue, or stops when none is left.
            while true {
                let word = flow.load(ordering: .acquiring)
                if word & Flow.delivering != 0 {
                    if !fromHost && state.waiting >= queueLimit {
                        return .refused("the bus is full: \(queueLimit) events are waiting for delivery; this one was not queued")
                    }
                    guard flow.compareExchange(expected: word, desired: word + 1, ordering: .acquiringAndReleasing).exchanged else { continue }
                    state.queue.append(event)
                    return .queued
                }
                guard flow.compareExchange(expected: word, desired: Flow.delivering, ordering: .acquiringAndReleasing).exchanged else { continue }
                return .deliver(known ?? state.subscribers(for: event.topic))
            }
        }
        switch admission {
        case .queued: return
        case let .refused(problem): throw BusError(problem)
        case let .deliver(subscribers):
            deliverer.store(pthread_self(), ordering: .releasing)
            deliver(event, to: subscribers)
            drain(budget: Self.deliveryBudget - 1)
        }
    }

    /// Delivers queued events until the queue is empty, or, after `budget`
    /// events, hands what is left to the dispatcher.
    private func drain(budget: Int?) {
        var delivered = 0
        while true {
            let word = flow.load(ordering: .acquiring)
            if word == Flow.delivering {
                deliverer.store(0, ordering: .releasing)
                guard flow.compareExchange(expected: word, desired: 0, ordering: .acquiringAndReleasing).exchanged else {
                    // A publisher queued an event meanwhile: deliver it too.
                    deliverer.store(pthread_self(), ordering: .releasing)
                    continue
                }
                return
            }
            if let budget, delivered >= budget {
                deliverer.store(0, ordering: .releasing)
                dispatcher.async {
                    self.deliverer.store(pthread_self(), ordering: .releasing)
                    self.drain(budget: nil)
                }
                return
            }
            // The publisher that counted this event queued it under the lock.
            let (event, subscribers) = state.withLock { state in
                let event = state.queue.popFirst()!
                return (event, state.subscribers(for: event.topic))
            }
            flow.subtract(1, ordering: .releasing)
            deliver(event, to: subscribers)
            delivered += 1
        }
    }

    /// Waits until nothing is queued or being delivered, for at most
    /// `seconds`; false if the bus was still busy then. For shutdown and
    /// tests: delivery may have moved to the dispatcher when `publish`
    /// returned. Never call it from a handler (it would wait for itself).
    @discardableResult
    public func waitUntilIdle(seconds: Double = 30) -> Bool {
        let deadline = Self.monotonicSeconds() + seconds
        while flow.load(ordering: .acquiring) & Flow.delivering != 0 {
            guard Self.monotonicSeconds() < deadline else { return false }
            usleep(1000)
        }
        return true
    }

    private static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    public var subscriberCount: Int {
        state.withLock { $0.wildcard.count + $0.exact.values.reduce(0) { $0 + $1.count } }
    }

    private func deliver(_ event: BusEvent, to subscribers: [Subscriber]) {
        // Through the buffer: the array keeps every subscriber alive, so each
        // is borrowed, not retained and released, on the way to its handler,
        // and held in a register rather than read again after each atomic.
        subscribers.withUnsafeBufferPointer { subscribers in
            for index in subscribers.indices {
                Unmanaged.passUnretained(subscribers[index])._withUnsafeGuaranteedRef { subscriber in
                    running.store(subscriber.address, ordering: .sequentiallyConsistent)
                    guard subscriber.active.load(ordering: .sequentiallyConsistent) else { return }
                    do { try subscriber.handler(event) } catch { onHandlerError(event, error) }
                }
            }
        }
        running.store(0, ordering: .sequentiallyConsistent)
    }
}
