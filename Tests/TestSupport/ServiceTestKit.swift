import Foundation
import Glibc
import Synchronization
import Testing
@testable import WidgetHostKit

/// Small tools shared by the host-service tests (registry, bus, navigator,
/// store, capabilities). Namespaced so they never clash with other files.
enum ServiceTestKit {
    /// A thread-safe counter.
    final class Counter: Sendable {
        private let storage = Atomic<Int>(0)
        init() {}
        /// Adds one and returns the new value.
        @discardableResult
        func increment() -> Int { storage.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue }
        /// Subtracts one and returns the new value.
        @discardableResult
        func decrement() -> Int { storage.wrappingSubtract(1, ordering: .sequentiallyConsistent).newValue }
        var value: Int { storage.load(ordering: .sequentiallyConsistent) }
    }

    /// A value behind a lock, shareable with @Sendable closures.
    ///
    /// A pthread mutex rather than Synchronization.Mutex: on Linux the
    /// latter's contended hand-off happens in the kernel (FUTEX_LOCK_PI),
    /// where ThreadSanitizer cannot see it, so `--sanitize=thread` reports
    /// false races on everything it guards. TSan does understand pthreads.
    final class Locked<Value>: @unchecked Sendable {
        private var stored: Value
        private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

        init(_ value: Value) {
            stored = value
            pthread_mutex_init(lock, nil)
        }

        deinit {
            pthread_mutex_destroy(lock)
            lock.deallocate()
        }

        func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            return try body(&stored)
        }

        var value: Value { withLock { $0 } }
        func set(_ value: Value) { withLock { $0 = value } }
    }

    /// Runs `body` on a thread of its own and waits for it for at most
    /// `seconds`. Returns false if it did not finish: a deadlock guard, so a
    /// hang fails the test instead of hanging the suite. The limit is
    /// generous; it is never a performance assertion.
    static func finishes(within seconds: Double = 60, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.stackSize = 4 << 20
        thread.start()
        return done.wait(timeout: .now() + seconds) == .success
    }

    /// Runs `body(index)` on `count` threads at once (each started, then
    /// released together), and waits for them all. Returns false if they did
    /// not all finish within `seconds` (a deadlock guard).
    static func onThreads(_ count: Int, within seconds: Double = 120, _ body: @escaping @Sendable (Int) -> Void) -> Bool {
        let group = DispatchGroup()
        let ready = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                ready.signal()
                go.wait()
                body(index)
                group.leave()
            }
            thread.stackSize = 4 << 20
            thread.start()
        }
        for _ in 0..<count { ready.wait() }
        for _ in 0..<count { go.signal() }
        return group.wait(timeout: .now() + seconds) == .success
    }

    /// A new temporary directory (removed when the tests end).
    static func temporaryDirectory(_ label: String) throws -> String {
        try TestSupport.makeTemporaryDirectory(label)
    }

    /// Parses JSON text, failing the test with the text if it does not parse.
    static func json(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
        do {
            return try JSONParser.parse(text)
        } catch {
            Issue.record("not JSON (\(error)): \(text)", sourceLocation: sourceLocation)
            throw error
        }
    }

    static func json(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
        try json(String(decoding: bytes, as: UTF8.self), sourceLocation: sourceLocation)
    }

    /// A manifest for tests, built from JSON as a plugin would embed it.
    static func manifest(
        id: String, screens: [String], requiredServices: [String] = [], optionalServices: [String] = [],
        publishes: [String] = [], subscribes: [String] = [], storeGroups: [(String, StoreGroups.Access)] = []
    ) throws -> Manifest {
        let json: JSONValue = [
            "abi": "1.0", "id": .string(id), "name": .string("Test \(id)"), "version": "1.0.0", "vendor": "Tests",
            "description": "A manifest built by the tests",
            "screens": .array(screens.map { ["id": .string($0), "title": .string($0.capitalized)] }),
            "services": ["required": .array(requiredServices.map(JSONValue.string)),
                         "optional": .array(optionalServices.map(JSONValue.string))],
            "topics": ["publish": .array(publishes.map(JSONValue.string)),
                       "subscribe": .array(subscribes.map(JSONValue.string))],
            "store": ["groups": .object(storeGroups.map { ($0.0, .string($0.1.rawValue)) })],
        ]
        return try Manifest(json: json)
    }
}
