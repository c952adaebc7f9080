import Synchronization

/// An event on the bus: a topic and a UTF-8 JSON payload.
public struct BusEvent: Sendable, Equatable {
    public let topic: String
    public let payload: String

    public init(topic: String, payload: String) {
        self.topic = topic
        self.payload = payload
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
/// concurrently, in the order events were published: the thread that
/// publishes into an idle bus delivers until the queue is empty, and a publish
/// made while delivery is under way (from a handler, or from another thread)
/// only queues its event, so it never waits and never deadlocks. Each
/// subscriber therefore sees events in FIFO order.
///
/// A handler that throws is reported through `onHandlerError` and the event
/// still reaches every other subscriber. A handler unsubscribed during
/// delivery receives nothing further, not even the rest of the current event.
public final class Bus: Sendable {
    public typealias Handler = @Sendable (BusEvent) throws -> Void

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
        var queue: [BusEvent] = []
        var head = 0
        var delivering = false

        /// Who receives `topic`, in subscription order.
        func subscribers(for topic: String) -> [Subscriber] {
            let exact = self.exact[topic] ?? []
            guard !wildcard.isEmpty else { return exact }
            let wild = wildcard.filter { Topic.matches($0.pattern, topic) }
            return wild.isEmpty ? exact : (exact + wild).sorted { $0.id < $1.id }
        }
    }

    private let state = Locked(State())
    private let onHandlerError: @Sendable (BusEvent, any Error) -> Void

    public init(onHandlerError: @escaping @Sendable (BusEvent, any Error) -> Void = { _, _ in }) {
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
            return Subscription(id: subscriber.id)
        }
    }

    public func unsubscribe(_ subscription: Subscription) {
        state.withLock { state in
            let matches: (Subscriber) -> Bool = { $0.id == subscription.id }
            if let found = state.wildcard.first(where: matches) ?? state.exact.values.lazy.compactMap({ $0.first(where: matches) }).first {
                found.active.store(false, ordering: .releasing)
                if Topic.isPattern(found.pattern) {
                    state.wildcard.removeAll(where: matches)
                } else {
                    state.exact[found.pattern]?.removeAll(where: matches)
                    if state.exact[found.pattern]?.isEmpty == true { state.exact[found.pattern] = nil }
                }
            }
        }
    }

    /// Validates and queues an event, then delivers it unless delivery is
    /// already under way. Refuses an invalid topic or payload: nothing is
    /// delivered.
    public func publish(_ topic: String, payload: String = "{}") throws(BusError) {
        if let problem = Topic.problem(with: topic) { throw BusError(problem) }
        do { _ = try JSONParser.parse(payload) } catch { throw BusError("payload is not valid JSON: \(error)") }
        enqueue(BusEvent(topic: topic, payload: payload))
    }

    /// Queues an event whose topic and payload are already known to be valid,
    /// or, on an idle bus, delivers it at once and then whatever handlers
    /// published meanwhile.
    func enqueue(_ event: BusEvent) {
        let subscribers: [Subscriber]? = state.withLock { state in
            guard !state.delivering else {
                state.queue.append(event)
                return nil
            }
            state.delivering = true
            return state.subscribers(for: event.topic)
        }
        guard let subscribers else { return }
        deliver(event, to: subscribers)
        while let (event, subscribers) = next() { deliver(event, to: subscribers) }
    }

    public var subscriberCount: Int {
        state.withLock { $0.wildcard.count + $0.exact.values.reduce(0) { $0 + $1.count } }
    }

    private func deliver(_ event: BusEvent, to subscribers: [Subscriber]) {
        for subscriber in subscribers where subscriber.active.load(ordering: .acquiring) {
            do { try subscriber.handler(event) } catch { onHandlerError(event, error) }
        }
    }

    /// The next event and who should receive it, or nil (and delivery ends)
    /// when the queue is empty.
    private func next() -> (BusEvent, [Subscriber])? {
        state.withLock { state in
            guard state.head < state.queue.count else {
                state.queue.removeAll(keepingCapacity: true)
                state.head = 0
                state.delivering = false
                return nil
            }
            let event = state.queue[state.head]
            state.head += 1
            // A bus that never goes idle must not grow without bound.
            if state.head >= 1024 && state.head * 2 >= state.queue.count {
                state.queue.removeFirst(state.head)
                state.head = 0
            }
            return (event, state.subscribers(for: event.topic))
        }
    }
}
