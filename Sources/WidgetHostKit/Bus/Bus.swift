import Dispatch
import PluginABI
import Glibc
import Synchronization

/// An event on the bus: a topic and a UTF-8 JSON payload.
public struct BusEvent: Sendable, Equatable {
    public let topic: String
    public let payload: String
    /// What the payload says, as the host value it was written from, when
    /// the host made the event: a host subscriber uses it instead of parsing
    /// the payload back (the navigator takes a resolved screen so). Plugins
    /// and other subscribers see the payload; equality is the payload's.
    public let value: (any Sendable)?

    public init(topic: String, payload: String, value: (any Sendable)? = nil) {
        self.topic = topic
        self.payload = payload
        self.value = value
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
        let active = Atomic<Bool>(true)

        init(id: UInt64, pattern: String, handler: @escaping Handler) {
            self.id = id
            self.pattern = pattern
            self.handler = handler
        }
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
        var queue = FIFOQueue<BusEvent>()
        var delivering = false
        /// The thread delivering, while one is.
        var deliverer: pthread_t?

        static let cacheLimit = 1024

        /// Who receives `topic`, in subscription order.
        mutating func subscribers(for topic: String) -> [Subscriber] {
            if let known = cache[topic] { return known }
            let exact = self.exact[topic] ?? []
            var all = exact
            if !wildcard.isEmpty {
                let wild = wildcard.filter { Topic.matches($0.pattern, topic) }
                if !wild.isEmpty { all = (exact + wild).sorted { $0.id < $1.id } }
            }
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[topic] = all
            return all
        }

        var waiting: Int { queue.count }

        var onDeliveringThread: Bool {
            deliverer.map { pthread_equal($0, pthread_self()) != 0 } ?? false
        }
    }

    /// What the delivering thread does next.
    private enum Step {
        case deliver(BusEvent, [Subscriber])
        case handOff
        case idle
    }

    private let state = Locked(State())
    private let onHandlerError: @Sendable (BusEvent, any Error) -> Void
    private let queueLimit: Int
    private let dispatcher = DispatchQueue(label: "widget-host.bus")
    /// The id of the subscriber whose handler is running, or 0. With
    /// `active`, it lets an unsubscribe wait out a call already under way:
    /// the deliverer publishes the id and then reads `active`, the
    /// unsubscriber clears `active` and then reads the id (both sequentially
    /// consistent), so at least one of them sees the other.
    private let running = Atomic<UInt64>(0)

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
            state.cache.removeAll(keepingCapacity: true)
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
            state.cache.removeAll(keepingCapacity: true)
            return (found, state.onDeliveringThread)
        }
        // Another thread may be inside this handler right now: wait for it to
        // leave. The delivering thread itself never waits (it may be
        // unsubscribing the very handler it is running).
        if let found, !insideHandler {
            while running.load(ordering: .sequentiallyConsistent) == found.id { usleep(50) }
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
    private func admit(_ event: BusEvent, fromHost: Bool) throws(BusError) {
        let admission: Admission = state.withLock { state in
            let known = state.cache[event.topic]
            if known == nil, !fromHost, let problem = Topic.problem(with: event.topic) { return .refused(problem) }
            guard !state.delivering else {
                if !fromHost && state.waiting >= queueLimit {
                    return .refused("the bus is full: \(queueLimit) events are waiting for delivery; this one was not queued")
                }
                state.queue.append(event)
                return .queued
            }
            state.delivering = true
            state.deliverer = pthread_self()
            return .deliver(known ?? state.subscribers(for: event.topic))
        }
        switch admission {
        case .queued: return
        case let .refused(problem): throw BusError(problem)
        case let .deliver(subscribers):
            deliver(event, to: subscribers)
            drain(budget: Self.deliveryBudget - 1)
        }
    }

    /// Delivers queued events until the queue is empty, or, after `budget`
    /// events, hands what is left to the dispatcher.
    private func drain(budget: Int?) {
        var delivered = 0
        while true {
            let step: Step = state.withLock { state in
                guard !state.queue.isEmpty else {
                    state.delivering = false
                    state.deliverer = nil
                    return .idle
                }
                if let budget, delivered >= budget {
                    state.deliverer = nil
                    return .handOff
                }
                state.deliverer = pthread_self()
                let event = state.queue.popFirst()!
                return .deliver(event, state.subscribers(for: event.topic))
            }
            switch step {
            case let .deliver(event, subscribers):
                deliver(event, to: subscribers)
                delivered += 1
            case .handOff:
                dispatcher.async { self.drain(budget: nil) }
                return
            case .idle:
                return
            }
        }
    }

    /// Waits until nothing is queued or being delivered, for at most
    /// `seconds`; false if the bus was still busy then. For shutdown and
    /// tests: delivery may have moved to the dispatcher when `publish`
    /// returned. Never call it from a handler (it would wait for itself).
    @discardableResult
    public func waitUntilIdle(seconds: Double = 30) -> Bool {
        let deadline = Self.monotonicSeconds() + seconds
        while state.withLock({ $0.delivering }) {
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
        for subscriber in subscribers {
            running.store(subscriber.id, ordering: .sequentiallyConsistent)
            guard subscriber.active.load(ordering: .sequentiallyConsistent) else { continue }
            do { try subscriber.handler(event) } catch { onHandlerError(event, error) }
        }
        running.store(0, ordering: .sequentiallyConsistent)
    }
}
