import Foundation
import Testing
import PluginABI
import Synchronization
@testable import WidgetHostKit
@testable import TestSupport

private typealias Counter = ServiceTestKit.Counter
private typealias Locked = ServiceTestKit.Locked

/// Collects what one subscriber receives.
private final class Inbox: Sendable {
    let events = Locked<[BusEvent]>([])
    var topics: [String] { events.value.map(\.topic) }
    var payloads: [String] { events.value.map(\.payload) }
    var handler: Bus.Handler { { [events] event in events.withLock { $0.append(event) } } }
}

private struct HandlerFailure: Error, Equatable, CustomStringConvertible {
    let id: Int
    var description: String { "handler \(id) failed" }
}

@Suite("Bus")
struct BusTests {
    // MARK: Topics and patterns

    @Test("Topic.matches: * is one segment, # any number including none, # alone everything",
          arguments: [
              ("checkout.changed", "checkout.changed", true),
              ("checkout.changed", "checkout.changed.more", false),
              ("checkout.changed", "checkout", false),
              ("checkout.*", "checkout.ready", true),
              ("checkout.*", "checkout", false),
              ("checkout.*", "checkout.ready.now", false),
              ("checkout.*", "payments.ready", false),
              ("*.ready", "checkout.ready", true),
              ("*.ready", "ready", false),
              ("a.*.c", "a.b.c", true),
              ("a.*.c", "a.b.d", false),
              ("a.*.c", "a.c", false),
              ("*", "anything", true),
              ("*", "two.segments", false),
              ("nav.#", "nav", true),
              ("nav.#", "nav.push", true),
              ("nav.#", "nav.a.b.c", true),
              ("nav.#", "navigation.push", false),
              ("nav.#", "other", false),
              ("*.#", "a", true),
              ("*.#", "a.b.c", true),
              ("#", "a", true),
              ("#", "a.b.c.d.e", true),
              ("checkout", "checkoutx", false),
          ])
    func matches(pattern: String, topic: String, expected: Bool) {
        #expect(Topic.matches(pattern, topic) == expected)
    }

    @Test("Topic.covers: a declared pattern covers only what it can match",
          arguments: [
              ("checkout.*", "checkout.ready", true),
              ("checkout.*", "checkout.*", true),
              ("checkout.*", "checkout.#", false),
              ("checkout.*", "#", false),
              ("checkout.*", "*.ready", false),
              ("checkout.*", "checkout", false),
              ("checkout.*", "checkout.ready.now", false),
              ("checkout.ready", "checkout.ready", true),
              ("checkout.ready", "checkout.*", false),
              ("checkout.ready", "checkout.other", false),
              ("checkout.#", "checkout", true),
              ("checkout.#", "checkout.a.b", true),
              ("checkout.#", "checkout.*", true),
              ("checkout.#", "checkout.#", true),
              ("checkout.#", "checkout.*.#", true),
              ("checkout.#", "#", false),
              ("checkout.#", "other.a", false),
              ("#", "#", true),
              ("#", "anything.#", true),
              ("#", "a.*.c", true),
              ("*", "a", true),
              ("*", "*", true),
              ("*", "#", false),
              ("a.*.c", "a.b.c", true),
              ("a.*.c", "a.*.c", true),
              ("a.*.c", "a.#", false),
          ])
    func covers(declared: String, requested: String, expected: Bool) {
        #expect(Topic.covers(declared, requested) == expected)
    }

    /// `#` anywhere but last is outside the grammar; a grant of it that slipped
    /// past the checks must grant only what AMQP says it matches.
    @Test("a grant of '#.x' denies nav.push and #, and allows only topics ending in x",
          arguments: [
              ("#.x", "nav.push", false),
              ("#.x", "x", true),
              ("#.x", "a.b.x", true),
              ("#.x", "x.y", false),
              ("a.#.b", "a.b", true),
              ("a.#.b", "a.c.d.b", true),
              ("a.#.b", "a.c", false),
              ("#.#.x", "x", true),
              ("#.*.#", "a.b", true),
          ])
    func innerHashMatches(pattern: String, topic: String, expected: Bool) {
        #expect(Topic.matches(pattern, topic) == expected)
    }

    @Test("a grant of '#.x' covers no subscription to # or nav.#",
          arguments: [
              ("#.x", "#", false),
              ("#.x", "nav.#", false),
              ("#.x", "nav.push", false),
              ("#.x", "*", false),
              ("#.x", "a.*.x", true),
              ("#.x", "#.x", true),
              ("#.x", "a.#.x", true),
              ("a.#.b", "a.*.b", true),
              ("a.#.b", "a.#", false),
          ])
    func innerHashCovers(declared: String, requested: String, expected: Bool) {
        #expect(Topic.covers(declared, requested) == expected)
        #expect(Topic.patternProblem(declared) != nil, "the grammar refuses \(declared)")
    }

    @Test("a pattern of many inner # against a long topic finishes")
    func innerHashIsNotExponential() {
        let pattern = Array(repeating: "#", count: 60).joined(separator: ".") + ".y"
        let topic = Array(repeating: "a", count: 60).joined(separator: ".") + ".x"
        #expect(!Topic.matches(pattern, topic))
        #expect(!Topic.covers(pattern, topic))
    }

    @Test("invalid topics are refused by publish and nothing is delivered",
          arguments: ["", ".", "a..b", ".a", "a.", "a.*", "a.#", "#", "*", "a b", "caf\u{E9}", "a/b", "a.b\n",
                      String(repeating: "x", count: Topic.maxLength + 1)])
    func invalidTopic(topic: String) throws {
        let bus = Bus()
        let all = Inbox()
        _ = try bus.subscribe("#", handler: all.handler)
        let error = #expect(throws: BusError.self) { try bus.publish(topic) }
        #expect(error?.description.isEmpty == false)
        #expect(Topic.problem(with: topic) != nil)
        #expect(all.events.value.isEmpty)
    }

    @Test("valid topics at the limits are accepted")
    func validTopics() throws {
        let longest = String(repeating: "x", count: Topic.maxLength)
        for topic in ["a", "A-b_9", "checkout.changed", "a.b.c.d.e.f", longest] {
            #expect(Topic.problem(with: topic) == nil, "\(topic)")
            let bus = Bus()
            let inbox = Inbox()
            _ = try bus.subscribe(topic, handler: inbox.handler)
            try bus.publish(topic)
            #expect(inbox.topics == [topic])
        }
    }

    @Test("invalid patterns are refused by subscribe, and nothing is subscribed",
          arguments: ["", "a..b", ".a", "a.", "#.a", "a.#.b", "a.##", "a.**", "a*", "a.b*", "**", "a b",
                      String(repeating: "x", count: Topic.maxLength + 1)])
    func invalidPattern(pattern: String) throws {
        let bus = Bus()
        let error = #expect(throws: BusError.self) { try bus.subscribe(pattern) { _ in } }
        #expect(error?.description.isEmpty == false)
        #expect(Topic.patternProblem(pattern) != nil)
        #expect(bus.subscriberCount == 0)
    }

    @Test("valid patterns are accepted", arguments: ["a", "*", "#", "a.*", "*.b", "a.*.c", "a.#", "*.#", "a.*.#"])
    func validPattern(pattern: String) throws {
        let bus = Bus()
        _ = try bus.subscribe(pattern) { _ in }
        #expect(bus.subscriberCount == 1)
    }

    // MARK: Delivery by pattern

    @Test("each subscriber receives exactly the topics its pattern matches")
    func wildcardDelivery() throws {
        let bus = Bus()
        let exact = Inbox(), oneSegment = Inbox(), anyDepth = Inbox(), everything = Inbox(), middle = Inbox()
        _ = try bus.subscribe("checkout.ready", handler: exact.handler)
        _ = try bus.subscribe("checkout.*", handler: oneSegment.handler)
        _ = try bus.subscribe("checkout.#", handler: anyDepth.handler)
        _ = try bus.subscribe("#", handler: everything.handler)
        _ = try bus.subscribe("*.ready", handler: middle.handler)
        let topics = ["checkout", "checkout.ready", "checkout.ready.now", "checkout.paid", "payments.ready", "other"]
        for topic in topics { try bus.publish(topic) }
        #expect(exact.topics == ["checkout.ready"])
        #expect(oneSegment.topics == ["checkout.ready", "checkout.paid"])
        #expect(anyDepth.topics == ["checkout", "checkout.ready", "checkout.ready.now", "checkout.paid"])
        #expect(everything.topics == topics)
        #expect(middle.topics == ["checkout.ready", "payments.ready"])
    }

    @Test("subscribers of one event are called in subscription order, exact and wildcard alike")
    func subscriptionOrder() throws {
        let bus = Bus()
        let calls = Locked<[String]>([])
        _ = try bus.subscribe("#") { _ in calls.withLock { $0.append("first (#)") } }
        _ = try bus.subscribe("a.b") { _ in calls.withLock { $0.append("second (a.b)") } }
        _ = try bus.subscribe("a.*") { _ in calls.withLock { $0.append("third (a.*)") } }
        _ = try bus.subscribe("a.b") { _ in calls.withLock { $0.append("fourth (a.b)") } }
        try bus.publish("a.b")
        #expect(calls.value == ["first (#)", "second (a.b)", "third (a.*)", "fourth (a.b)"])
    }

    @Test("one subscriber's pattern that matches twice still gets the event once")
    func noDuplicateDelivery() throws {
        let bus = Bus()
        let inbox = Inbox()
        _ = try bus.subscribe("a.#", handler: inbox.handler)
        try bus.publish("a.b")
        try bus.publish("a")
        #expect(inbox.topics == ["a.b", "a"])
    }

    // MARK: Payloads

    @Test("an invalid JSON payload is refused with an error and never delivered",
          arguments: ["", "not json", "{", "{\"a\":1,}", "[1] x", "{'a':1}", "nul", "\"unterminated", "{\"a\":01}",
                      "{\"k\":1,\"k\":2}"])
    func invalidPayload(payload: String) throws {
        let bus = Bus()
        let inbox = Inbox()
        _ = try bus.subscribe("#", handler: inbox.handler)
        let error = #expect(throws: BusError.self) { try bus.publish("a.b", payload: payload) }
        #expect(error?.description.contains("JSON") == true)
        #expect(inbox.events.value.isEmpty)
        // The bus still works afterwards.
        try bus.publish("a.b", payload: "{}")
        #expect(inbox.payloads == ["{}"])
    }

    @Test("valid payloads are delivered exactly as published",
          arguments: ["{}", "[]", "1", "-2.5e3", "\"text\"", "null", "true", "{\"a\":[1,{\"b\":null}],\"c\":\"\u{E9}\"}",
                      " { \"spaced\" : 1 } "])
    func validPayload(payload: String) throws {
        let bus = Bus()
        let inbox = Inbox()
        _ = try bus.subscribe("a.b", handler: inbox.handler)
        try bus.publish("a.b", payload: payload)
        #expect(inbox.events.value == [BusEvent(topic: "a.b", payload: payload)])
    }

    @Test("the default payload is an empty object")
    func defaultPayload() throws {
        let bus = Bus()
        let inbox = Inbox()
        _ = try bus.subscribe("a", handler: inbox.handler)
        try bus.publish("a")
        #expect(inbox.payloads == ["{}"])
    }

    // MARK: Order and re-entrancy

    @Test("each subscriber receives events in FIFO order")
    func fifo() throws {
        let bus = Bus()
        let one = Inbox(), all = Inbox()
        _ = try bus.subscribe("seq.one", handler: one.handler)
        _ = try bus.subscribe("seq.*", handler: all.handler)
        var expectedAll: [String] = []
        for index in 0..<500 {
            let topic = index % 3 == 0 ? "seq.one" : "seq.two"
            try bus.publish(topic, payload: "{\"n\":\(index)}")
            expectedAll.append("{\"n\":\(index)}")
        }
        #expect(all.payloads == expectedAll)
        #expect(one.payloads == stride(from: 0, to: 500, by: 3).map { "{\"n\":\($0)}" })
    }

    @Test("publishing from inside a handler does not deadlock, and the nested event comes after the current one")
    func publishFromHandler() throws {
        let bus = Bus()
        let log = Locked<[String]>([])
        let nestedError = Locked<String?>(nil)
        _ = try bus.subscribe("first") { _ in
            log.withLock { $0.append("A got first") }
            do { try bus.publish("second", payload: "{\"nested\":true}") } catch { nestedError.set("\(error)") }
            log.withLock { $0.append("A published second") }
        }
        _ = try bus.subscribe("#") { event in log.withLock { $0.append("B got \(event.topic)") } }
        _ = try bus.subscribe("second") { event in log.withLock { $0.append("C got \(event.topic) \(event.payload)") } }
        let finished = ServiceTestKit.finishes { try? bus.publish("first") }
        #expect(finished, "publish from a handler deadlocked")
        #expect(nestedError.value == nil)
        #expect(log.value == ["A got first", "A published second", "B got first",
                              "B got second", "C got second {\"nested\":true}"])
    }

    @Test("a chain of nested publishes is delivered breadth-first, in publish order")
    func nestedChain() throws {
        let bus = Bus()
        let order = Locked<[String]>([])
        _ = try bus.subscribe("n.*") { event in
            order.withLock { $0.append(event.topic) }
            switch event.topic {
            case "n.a": try bus.publish("n.b"); try bus.publish("n.c")
            case "n.b": try bus.publish("n.d")
            default: break
            }
        }
        #expect(ServiceTestKit.finishes { try? bus.publish("n.a") })
        #expect(order.value == ["n.a", "n.b", "n.c", "n.d"])
    }

    @Test("an invalid publish from inside a handler throws to that handler only")
    func invalidPublishFromHandler() throws {
        let bus = Bus()
        let caught = Locked<[String]>([])
        let inbox = Inbox()
        _ = try bus.subscribe("go") { _ in
            do { try bus.publish("bad..topic") } catch { caught.withLock { $0.append("topic") } }
            do { try bus.publish("ok", payload: "{nope") } catch { caught.withLock { $0.append("payload") } }
        }
        _ = try bus.subscribe("#", handler: inbox.handler)
        try bus.publish("go")
        #expect(caught.value == ["topic", "payload"])
        #expect(inbox.topics == ["go"])
    }

    // MARK: Unsubscribing

    @Test("unsubscribing stops delivery; unknown and repeated unsubscribes are harmless")
    func unsubscribe() throws {
        let bus = Bus()
        let kept = Inbox(), dropped = Inbox()
        let keptSubscription = try bus.subscribe("t", handler: kept.handler)
        let droppedSubscription = try bus.subscribe("t.#", handler: dropped.handler)
        #expect(keptSubscription != droppedSubscription)
        #expect(bus.subscriberCount == 2)
        try bus.publish("t", payload: "1")
        bus.unsubscribe(droppedSubscription)
        bus.unsubscribe(droppedSubscription)
        bus.unsubscribe(Bus.Subscription(id: 999_999))
        #expect(bus.subscriberCount == 1)
        try bus.publish("t", payload: "2")
        #expect(kept.payloads == ["1", "2"])
        #expect(dropped.payloads == ["1"])
        bus.unsubscribe(keptSubscription)
        #expect(bus.subscriberCount == 0)
        try bus.publish("t", payload: "3")
        #expect(kept.payloads == ["1", "2"])
    }

    @Test("a handler that unsubscribes itself receives nothing further")
    func unsubscribeSelfInsideHandler() throws {
        let bus = Bus()
        let mine = Locked<Bus.Subscription?>(nil)
        let received = Counter()
        let others = Inbox()
        let subscription = try bus.subscribe("tick") { _ in
            received.increment()
            if let me = mine.value { bus.unsubscribe(me) }
        }
        mine.set(subscription)
        _ = try bus.subscribe("tick", handler: others.handler)
        let finished = ServiceTestKit.finishes {
            for index in 0..<3 { try? bus.publish("tick", payload: "\(index)") }
        }
        #expect(finished, "unsubscribing inside a handler deadlocked")
        #expect(received.value == 1)
        #expect(others.payloads == ["0", "1", "2"])
        #expect(bus.subscriberCount == 1)
    }

    @Test("a handler that unsubscribes a later subscriber stops even the rest of the current event")
    func unsubscribeOtherInsideHandler() throws {
        let bus = Bus()
        let victim = Locked<Bus.Subscription?>(nil)
        let victimInbox = Inbox(), wildVictimInbox = Inbox()
        let wildVictim = Locked<Bus.Subscription?>(nil)
        _ = try bus.subscribe("e") { _ in
            if let v = victim.value { bus.unsubscribe(v) }
            if let w = wildVictim.value { bus.unsubscribe(w) }
        }
        victim.set(try bus.subscribe("e", handler: victimInbox.handler))
        wildVictim.set(try bus.subscribe("#", handler: wildVictimInbox.handler))
        // Queue three events from inside delivery, so all are already queued
        // when the first one unsubscribes the victims.
        _ = try bus.subscribe("start") { _ in for _ in 0..<3 { try bus.publish("e") } }
        #expect(ServiceTestKit.finishes { try? bus.publish("start") })
        #expect(victimInbox.events.value.isEmpty)
        #expect(wildVictimInbox.topics == ["start"])
    }

    @Test("subscribing inside a handler takes effect for later events, not the current one")
    func subscribeInsideHandler() throws {
        let bus = Bus()
        let late = Inbox()
        let subscribed = Locked(false)
        _ = try bus.subscribe("x") { _ in
            guard !subscribed.value else { return }
            subscribed.set(true)
            _ = try bus.subscribe("x", handler: late.handler)
        }
        #expect(ServiceTestKit.finishes {
            try? bus.publish("x", payload: "1")
            try? bus.publish("x", payload: "2")
        })
        #expect(late.payloads == ["2"])
    }

    // MARK: Failing handlers

    @Test("a throwing subscriber does not stop delivery to the others, and onHandlerError is told")
    func throwingSubscriber() throws {
        let reported = Locked<[(String, String)]>([])
        let bus = Bus(onHandlerError: { event, error in reported.withLock { $0.append((event.payload, "\(error)")) } })
        let before = Inbox(), after = Inbox()
        _ = try bus.subscribe("job", handler: before.handler)
        _ = try bus.subscribe("job") { event in
            if event.payload != "2" { throw HandlerFailure(id: Int(event.payload) ?? -1) }
        }
        _ = try bus.subscribe("#", handler: after.handler)
        for index in 1...3 { try bus.publish("job", payload: "\(index)") }
        #expect(before.payloads == ["1", "2", "3"])
        #expect(after.payloads == ["1", "2", "3"])
        let errors = reported.value
        #expect(errors.map(\.0) == ["1", "3"])
        #expect(errors.map(\.1) == ["handler 1 failed", "handler 3 failed"])
    }

    @Test("a handler error is reported once per failing handler per event")
    func severalThrowingSubscribers() throws {
        let count = Counter()
        let bus = Bus(onHandlerError: { _, _ in count.increment() })
        for id in 0..<3 { _ = try bus.subscribe("x") { _ in throw HandlerFailure(id: id) } }
        let inbox = Inbox()
        _ = try bus.subscribe("x", handler: inbox.handler)
        try bus.publish("x")
        try bus.publish("x")
        #expect(count.value == 6)
        #expect(inbox.events.value.count == 2)
    }
}

/// What crosses the C ABI into the bus must be well-formed UTF-8, as `bus.h`
/// says: an overlong or surrogate encoding is refused, not repaired.
@Suite("Bus: text from a plugin")
struct BusABITextTests {
    private func publish(_ topic: [UInt8], _ payload: [UInt8]) throws -> (status: Int32, delivered: Int) {
        let runtime = HostRuntime(storeDirectory: try TestSupport.makeTemporaryDirectory("bus-abi"))
        let manifest = try ServiceTestKit.manifest(id: "org.example.bus", screens: ["main"], requiredServices: ["bus"], publishes: ["x.#"])
        let context = PluginContext(manifest: manifest, runtime: runtime)
        let delivered = Counter()
        _ = try runtime.resolve(Bus.self).subscribe("#") { _ in delivered.increment() }
        let status = (topic + [0]).withUnsafeBufferPointer { topic in
            (payload + [0]).withUnsafeBufferPointer { payload in
                topic.withMemoryRebound(to: CChar.self) { topic in
                    payload.withMemoryRebound(to: CChar.self) { payload in
                        BusService.description.table.typed(wh_bus_v1.self).publish!(UnsafePointer(context.host), topic.baseAddress, payload.baseAddress)
                    }
                }
            }
        }
        return (status, delivered.value)
    }

    @Test("overlong, surrogate and stray bytes in a payload are refused and nothing is delivered", arguments: [
        [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xF0, 0x80, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xFF], [0xC3],
    ] as [[UInt8]])
    func badPayload(_ bytes: [UInt8]) throws {
        let result = try publish(Array("x.y".utf8), Array(#"{"a":""#.utf8) + bytes + Array(#""}"#.utf8))
        #expect(result.status == Int32(WH_BUS_INVALID_PAYLOAD))
        #expect(result.delivered == 0)
    }

    @Test("an overlong topic is refused; well-formed text, multi-byte included, is delivered")
    func topicAndGood() throws {
        let bad = try publish([0x78, 0x2E, 0xC1, 0xB9], Array("{}".utf8))
        #expect(bad.status == Int32(WH_BUS_INVALID_TOPIC))
        #expect(bad.delivered == 0)
        let good = try publish(Array("x.y".utf8), Array(#"{"a":"é€😀"}"#.utf8))
        #expect(good.status == 0)
        #expect(good.delivered == 1)
    }
}

/// Fairness and the unsubscribe promise, under load. These check behaviour
/// (counts, order, who did the work), never timing.
@Suite("Bus: fairness and unsubscribing under load")
struct BusLoadTests {
    private final class Flag: Sendable {
        private let storage = Atomic<Bool>(false)
        func set() { storage.store(true, ordering: .sequentiallyConsistent) }
        var isSet: Bool { storage.load(ordering: .sequentiallyConsistent) }
    }

    @Test("one publish delivers at most deliveryBudget events; the rest still arrive, exactly once and in order")
    func boundedPublishWork() throws {
        let bus = Bus()
        let flood = 1_000
        let caller = pthread_self()
        let onCaller = Counter()
        let order = ServiceTestKit.Locked<[Int]>([])
        _ = try bus.subscribe("flood.start") { _ in
            for index in 0..<flood { try bus.publish("flood.n", payload: "{\"n\":\(index)}") }
        }
        _ = try bus.subscribe("flood.n") { event in
            if pthread_equal(pthread_self(), caller) != 0 { onCaller.increment() }
            let number = try JSONParser.parse(event.payload)["n"]?.int64 ?? -1
            order.withLock { $0.append(Int(number)) }
        }
        try bus.publish("flood.start")
        // The start event itself counts towards the caller's budget.
        #expect(onCaller.value <= Bus.deliveryBudget - 1)
        #expect(bus.waitUntilIdle())
        #expect(order.value == Array(0..<flood))
        #expect(onCaller.value < flood)
    }

    @Test("a full queue refuses a publish with a clear error; what was queued is delivered exactly once")
    func boundedQueue() throws {
        let bus = Bus(queueLimit: 10)
        let delivered = Counter()
        let refusals = ServiceTestKit.Locked<[String]>([])
        _ = try bus.subscribe("fill") { _ in
            for index in 0..<12 {
                do { try bus.publish("item", payload: "{\"n\":\(index)}") } catch { refusals.withLock { $0.append("\(error)") } }
            }
        }
        _ = try bus.subscribe("item") { _ in delivered.increment() }
        try bus.publish("fill")
        #expect(bus.waitUntilIdle())
        #expect(delivered.value == 10)
        #expect(refusals.value.count == 2)
        #expect(refusals.value.first?.contains("the bus is full: 10 events are waiting") == true)
        // Once drained, the bus accepts again.
        try bus.publish("item")
        #expect(bus.waitUntilIdle())
        #expect(delivered.value == 11)
    }

    @Test("after unsubscribe returns on another thread, the handler is never entered again")
    func noHandlerAfterUnsubscribe() throws {
        let bus = Bus()
        let stop = Flag()
        let violations = Counter()
        let entered = Counter()
        let finished = ServiceTestKit.onThreads(3) { thread in
            if thread == 0 {
                for _ in 0..<3_000 {
                    let gone = Flag()
                    guard let subscription = try? bus.subscribe("race.#", handler: { _ in
                        entered.increment()
                        if gone.isSet { violations.increment() }
                    }) else { return }
                    // Let a few deliveries reach it, then take it away.
                    for _ in 0..<Int.random(in: 0..<50) { sched_yield() }
                    bus.unsubscribe(subscription)
                    gone.set()
                }
                stop.set()
            } else {
                while !stop.isSet { try? bus.publish("race.t\(thread)") }
            }
        }
        #expect(finished)
        #expect(bus.waitUntilIdle())
        #expect(violations.value == 0)
        #expect(entered.value > 0, "the race never happened")
        #expect(bus.subscriberCount == 0)
    }

    @Test("a handler may unsubscribe itself or another from inside delivery without waiting")
    func unsubscribeInsideHandler() throws {
        let bus = Bus()
        let calls = Counter()
        let other = Counter()
        let otherSubscription = try bus.subscribe("x") { _ in other.increment() }
        let box = ServiceTestKit.Locked<Bus.Subscription?>(nil)
        box.withLock { $0 = try? bus.subscribe("x") { _ in
            calls.increment()
            if let me = box.value { bus.unsubscribe(me) }
            bus.unsubscribe(otherSubscription)
        } }
        try bus.publish("x")
        try bus.publish("x")
        #expect(bus.waitUntilIdle())
        #expect(calls.value == 1)
        #expect(other.value == 1)
    }
}

/// The bus checks payloads with a scan that builds nothing; it must accept
/// and refuse exactly what the parser does, with the parser's message.
@Suite("Bus: the payload check agrees with the parser")
struct JSONValidatorTests {
    @Test("valid and invalid texts get the parser's verdict", arguments: [
        "{}", "[]", "0", "-0.5e+10", "1E5", "true", "false", "null", #""s""#, " { \"a\" : [1, 2, {\"b\": null}] } ",
        #"{"a":"\u00e9\n\t\"\\\/"}"#, #"{"k":"\ud83d\ude00"}"#, #"{"é":1,"e\u0301":2}"#, #"{"a":1,"b":2,"a":3}"#,
        #"{"\u0061":1,"a":2}"#, "{\"é\":1,\"é\":2}", "", " ", "{", "}", "[1,]", "{\"a\":1,}", "01", "1.", "-", "1e", "tru",
        "nul", "[1] x", "{'a':1}", "\"a\u{01}\"", #""\x""#, #""\u12""#, #""\ud800""#, #""\udc00x""#, "[[[[]]]]",
        String(repeating: "[", count: 70) + String(repeating: "]", count: 70),
        "{" + (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}",
        "{" + (0..<40).map { "\"k\($0 % 39)\":\($0)" }.joined(separator: ",") + "}",
    ])
    func agrees(_ text: String) {
        let parsed: String?
        do { _ = try JSONParser.parse(text); parsed = nil } catch { parsed = "\(error)" }
        #expect(JSONValidator.problem(in: text) == parsed, "\(text.debugDescription)")
    }
}
