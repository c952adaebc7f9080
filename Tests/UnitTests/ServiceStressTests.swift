import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

private typealias Counter = ServiceTestKit.Counter
private typealias Locked = ServiceTestKit.Locked

private final class Singleton: Sendable {}
private final class Worker: Sendable {
    let singleton: Singleton
    let thread: Int
    init(singleton: Singleton, thread: Int) { self.singleton = singleton; self.thread = thread }
}

/// What one subscriber received: (publisher, sequence number) per event.
private final class Received: Sendable {
    let events = Locked<[(publisher: Int, sequence: Int)]>([])

    func record(_ event: BusEvent) throws {
        let json = try JSONParser.parse(event.payload)
        guard case let .number(p)? = json["p"], case let .number(n)? = json["n"], let publisher = Int(p), let sequence = Int(n) else {
            throw StressFailure("unexpected payload \(event.payload)")
        }
        events.withLock { $0.append((publisher, sequence)) }
    }

    /// The sequence numbers received from each publisher, in arrival order.
    func byPublisher() -> [Int: [Int]] {
        Dictionary(grouping: events.value, by: \.publisher).mapValues { $0.map(\.sequence) }
    }
}

private struct StressFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

@Suite("Concurrency stress: registry and bus")
struct ServiceStressTests {
    /// Threads that register, resolve, publish, subscribe and unsubscribe at
    /// once, for a bounded count. Afterwards every subscriber's sequence must
    /// be exactly what was published to its topics, per publisher in order,
    /// and every singleton resolve must have returned one instance.
    @Test("threads registering, resolving, publishing and subscribing at once lose and duplicate nothing")
    func stress() throws {
        let threads = 6
        let iterations = 400
        let topicCount = 3   // publisher t publishes to stress.topic(t % 3)

        let registry = Registry()
        registry.register(Singleton.self, scope: .application) { _ in Singleton() }
        registry.register(Worker.self, argument: Int.self) { r, thread in Worker(singleton: try r.resolve(), thread: thread) }

        let handlerErrors = Locked<[String]>([])
        let bus = Bus(onHandlerError: { event, error in handlerErrors.withLock { $0.append("\(event.topic): \(error)") } })
        // Handlers must never run concurrently (Bus's threading contract).
        let inHandler = Counter()
        let overlaps = Counter()
        func guarded(_ body: @escaping @Sendable (BusEvent) throws -> Void) -> Bus.Handler {
            { event in
                if inHandler.increment() != 1 { overlaps.increment() }
                defer { inHandler.decrement() }
                try body(event)
            }
        }

        // Subscribers present for the whole run.
        let perTopic = (0..<topicCount).map { _ in Received() }
        for (index, received) in perTopic.enumerated() {
            _ = try bus.subscribe("stress.topic\(index)", handler: guarded { try received.record($0) })
        }
        let everything = Received()
        _ = try bus.subscribe("stress.#", handler: guarded { try everything.record($0) })
        let oneSegment = Received()
        _ = try bus.subscribe("stress.*", handler: guarded { try oneSegment.record($0) })
        // Events that nobody should see.
        let wrong = Counter()
        _ = try bus.subscribe("stress.topic0.deeper", handler: guarded { _ in wrong.increment() })

        // Nested publishes: every event on churn.ping is answered with a
        // churn.pong from inside the handler.
        let pings = Counter(), pongs = Counter()
        _ = try bus.subscribe("churn.ping", handler: guarded { _ in
            pings.increment()
            try bus.publish("churn.pong")
        })
        _ = try bus.subscribe("churn.pong", handler: guarded { _ in pongs.increment() })

        let singletons = Locked<Set<ObjectIdentifier>>([])
        let keepAlive = Locked<[Singleton]>([])
        let failures = Locked<[String]>([])
        let subscriptionIDs = Locked<[UInt64]>([])

        let finished = ServiceTestKit.onThreads(threads) { thread in
            var seen = Set<ObjectIdentifier>()
            var ids: [UInt64] = []
            do {
                for index in 0..<iterations {
                    // Register: a new name per iteration, resolved right away.
                    let name = "t\(thread).\(index)"
                    registry.register(Int.self, name: name, scope: .unique) { _ in index }
                    guard try registry.resolve(Int.self, name: name) == index else { throw StressFailure("wrong value for \(name)") }

                    // Resolve singletons, directly and through a factory.
                    let singleton = try registry.resolve(Singleton.self)
                    let worker = try registry.resolve(Worker.self, argument: thread)
                    guard worker.thread == thread else { throw StressFailure("worker for the wrong thread") }
                    seen.insert(ObjectIdentifier(singleton))
                    seen.insert(ObjectIdentifier(worker.singleton))

                    // Publish, in order, to this thread's topic.
                    try bus.publish("stress.topic\(thread % topicCount)", payload: "{\"p\":\(thread),\"n\":\(index)}")
                    if index % 10 == 0 { try bus.publish("churn.ping") }

                    // Subscribe and unsubscribe a short-lived subscriber.
                    if index % 4 == 0 {
                        let subscription = try bus.subscribe(index % 8 == 0 ? "churn.*" : "churn.pong") { _ in }
                        ids.append(subscription.id)
                        bus.unsubscribe(subscription)
                    }
                }
                keepAlive.withLock { $0.append(try! registry.resolve(Singleton.self)) }
            } catch {
                failures.withLock { $0.append("thread \(thread): \(error)") }
            }
            singletons.withLock { $0.formUnion(seen) }
            subscriptionIDs.withLock { $0 += ids }
        }

        #expect(finished, "the threads deadlocked")
        #expect(bus.waitUntilIdle(), "delivery never finished")
        #expect(failures.value.isEmpty)
        #expect(handlerErrors.value.isEmpty)
        #expect(overlaps.value == 0, "handlers ran concurrently")
        #expect(singletons.value.count == 1, "application-scope resolves returned \(singletons.value.count) instances")

        let expected = Array(0..<iterations)
        for (topic, received) in perTopic.enumerated() {
            let publishers = (0..<threads).filter { $0 % topicCount == topic }
            let got = received.byPublisher()
            #expect(Set(got.keys) == Set(publishers), "topic \(topic)")
            for publisher in publishers {
                #expect(got[publisher] == expected, "topic \(topic), publisher \(publisher): lost, duplicated or reordered")
            }
        }
        for (name, received) in [("stress.#", everything), ("stress.*", oneSegment)] {
            let got = received.byPublisher()
            #expect(received.events.value.count == threads * iterations, "\(name)")
            for publisher in 0..<threads {
                #expect(got[publisher] == expected, "\(name), publisher \(publisher): lost, duplicated or reordered")
            }
        }
        #expect(wrong.value == 0)

        let pingsSent = threads * ((iterations + 9) / 10)
        #expect(pings.value == pingsSent)
        #expect(pongs.value == pingsSent, "every nested publish must be delivered exactly once")

        // Every subscription got its own id, and every churn subscriber is gone.
        let ids = subscriptionIDs.value
        #expect(Set(ids).count == ids.count)
        #expect(bus.subscriberCount == topicCount + 5)
        for thread in 0..<threads {
            #expect(registry.isRegistered(Int.self, name: "t\(thread).\(iterations - 1)"))
        }
    }

    /// Publishers on several threads into one bus whose handler is slow:
    /// while one thread delivers, the others only queue, and nothing is lost.
    @Test("publishers never wait for each other's deliveries and nothing queued is lost")
    func publishWhileDelivering() throws {
        let bus = Bus()
        let received = Received()
        let inHandler = Counter()
        let overlaps = Counter()
        _ = try bus.subscribe("q.#") { event in
            if inHandler.increment() != 1 { overlaps.increment() }
            defer { inHandler.decrement() }
            try received.record(event)
            if Int.random(in: 0..<50) == 0 { usleep(200) }
        }
        let threads = 4, count = 500
        let finished = ServiceTestKit.onThreads(threads) { thread in
            for index in 0..<count { try? bus.publish("q.t\(thread)", payload: "{\"p\":\(thread),\"n\":\(index)}") }
        }
        #expect(finished)
        #expect(bus.waitUntilIdle(), "delivery never finished")
        #expect(overlaps.value == 0)
        let got = received.byPublisher()
        for thread in 0..<threads { #expect(got[thread] == Array(0..<count), "publisher \(thread)") }
    }
}
