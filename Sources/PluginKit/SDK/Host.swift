import Glibc
import PluginABI

/// The host as a widget sees it: typed clients for the C service tables.
///
/// Failures are reported one way: an operation that can fail throws a typed
/// error that says why (`StoreFailure`, `HTTPFailure`, `BusFailure`,
/// `NavigationFailure`, `ContractFailure`), `.unavailable` when the manifest
/// did not declare the service. `nil` is never a failure: it is an answer
/// that may be "none" (a store key with no value, the time without a clock).
/// Logging, wake-ups and render requests have no failure a widget could act on.
public struct Host: @unchecked Sendable {
    // The host guarantees the pointer outlives the instance (plugin.h).
    let raw: UnsafePointer<wh_host>
    let mainQueue: MainQueue
    /// The tables found so far, by id: each is asked for once, as the C
    /// headers advise (`wh_use_store(host)` in `create`), since for an
    /// isolated plugin every `get_service` is a round trip to the host.
    private let tables = Locked<[String: ServiceTablePointer]>([:])

    init(raw: UnsafePointer<wh_host>, mainQueue: MainQueue) {
        self.raw = raw
        self.mainQueue = mainQueue
    }

    /// The table of a service, or nil when the host lacks it or the manifest
    /// did not declare it. A nil is asked again next time: a contract's
    /// provider may be installed meanwhile.
    public func service<Table>(_ id: String, as _: Table.Type) -> UnsafePointer<Table>? {
        if let known = tables.withLock({ $0[id] }) { return known.pointer.assumingMemoryBound(to: Table.self) }
        guard let getService = raw.pointee.get_service, let table = getService(raw, id) else { return nil }
        tables.withLock { $0[id] = ServiceTablePointer(pointer: table) }
        return table.assumingMemoryBound(to: Table.self)
    }

    // MARK: Rendering and threads

    /// Asks the host to render again soon; safe from any thread.
    public func requestRender() {
        raw.pointee.request_render?(raw)
    }

    /// Runs `work` on a background thread, then `completion` on the host's
    /// thread just before the widget's next call (which the host makes soon,
    /// because this asks for a render). The widget's state is therefore only
    /// ever touched on the host's thread, and needs no lock.
    ///
    /// Each job gets a thread of its own: jobs block (an HTTP GET waits on
    /// the network), and on a small machine a shared pool would queue them
    /// behind each other.
    public func background<T: Sendable>(_ work: @escaping @Sendable () -> T, then completion: @escaping (T) -> Void) {
        let queue = mainQueue
        nonisolated(unsafe) let completion = completion
        detachThread {
            let result = work()
            queue.enqueue { completion(result) }
            self.requestRender()
        }
    }

    // MARK: Log

    public func log(_ level: LogLevel, _ message: String) {
        guard let table = service(WH_SERVICE_LOG, as: wh_log_v1.self) else { return }
        table.pointee.log(raw, level.rawValue, message)
    }

    // MARK: Clock

    /// Milliseconds since 1970 by the host's clock (which `--now` may set),
    /// or nil without the clock service.
    public var nowMilliseconds: Int64? {
        service(WH_SERVICE_CLOCK, as: wh_clock_v1.self).map { $0.pointee.now_ms(raw) }
    }

    /// Asks to be rendered again when the host's clock reaches `milliseconds`.
    public func wake(atMilliseconds milliseconds: Int64) {
        _ = service(WH_SERVICE_CLOCK, as: wh_clock_v1.self)?.pointee.wake_at(raw, milliseconds)
    }

    // MARK: Config

    /// The widget's whole configuration section (an empty object if none).
    public var configuration: JSONValue {
        guard let table = service(WH_SERVICE_CONFIG, as: wh_config_v1.self) else { return .object([]) }
        let sink = Sink()
        guard sink.withOutput({ table.pointee.get(raw, nil, $0) }) == 1, let value = try? JSONParser.parse(sink.bytes) else {
            return .object([])
        }
        return value
    }

    // MARK: Store

    /// The value of `key` in the shared container, nil if it has none.
    public func storeGet(_ key: String) throws(StoreFailure) -> [UInt8]? {
        guard let table = service(WH_SERVICE_STORE, as: wh_store_v1.self) else { throw .unavailable }
        let sink = Sink()
        let status = sink.withOutput { table.pointee.get(raw, key, $0) }
        switch Int(status) {
        case Int(WH_STORE_FOUND): return sink.bytes
        case Int(WH_STORE_MISSING): return nil
        case Int(WH_STORE_BAD_KEY): throw .badKey
        default: throw .io
        }
    }

    public func storePut(_ key: String, _ bytes: [UInt8]) throws(StoreFailure) {
        guard let table = service(WH_SERVICE_STORE, as: wh_store_v1.self) else { throw .unavailable }
        let status = bytes.withUnsafeBytes { raw in
            table.pointee.put(self.raw, key, raw.baseAddress?.assumingMemoryBound(to: CChar.self), UInt64(raw.count))
        }
        switch Int(status) {
        case 0: return
        case Int(WH_STORE_BAD_KEY): throw .badKey
        default: throw .io
        }
    }

    public enum StoreFailure: Error, Equatable, CustomStringConvertible {
        case unavailable, badKey, io

        public var description: String {
            switch self {
            case .unavailable: "no shared container (the store service is not granted)"
            case .badKey: "the key breaks the store's rules"
            case .io: "the disk refused; the old value is intact"
            }
        }
    }

    // MARK: HTTP

    public struct HTTPResponse: Sendable, Equatable {
        public let status: Int
        public let body: [UInt8]
    }

    public enum HTTPFailure: Error, Equatable, CustomStringConvertible {
        case unavailable, badURL, unreachable, timeout, tooLarge, failed
        /// Why no connection was made, where the host says (http/2).
        case refused, hostNotFound, noRoute
        /// The manifest does not grant the URL's host; nothing was sent (http/3).
        case denied

        public var description: String {
            switch self {
            case .unavailable: "no network access (the http service is not granted)"
            case .badURL: "bad URL"
            case .unreachable: "could not connect (refused, no route or unknown host)"
            case .timeout: "timed out"
            case .tooLarge: "response too large"
            case .failed: "connection failed"
            case .refused: "connection refused"
            case .hostNotFound: "the host name could not be resolved"
            case .noRoute: "no route to the host"
            case .denied: "denied: the manifest does not grant this host (its \"http\": {\"hosts\": [...]})"
            }
        }
    }

    /// GETs `url`, blocking this thread: call it inside `background`.
    public func get(_ url: String, timeoutMilliseconds: UInt32 = 0, maxBytes: UInt64 = 0) throws(HTTPFailure) -> HTTPResponse {
        // http/3 says denied, http/2 names why a connection failed; http/1 is the fallback. The tables are one type.
        guard let table = service(WH_SERVICE_HTTP_3, as: wh_http_v3.self) ?? service(WH_SERVICE_HTTP_2, as: wh_http_v2.self)
            ?? service(WH_SERVICE_HTTP, as: wh_http_v1.self) else {
            throw .unavailable
        }
        let sink = Sink()
        let status = sink.withOutput { table.pointee.get(raw, url, timeoutMilliseconds, maxBytes, $0) }
        switch Int(status) {
        case 100...599: return HTTPResponse(status: Int(status), body: sink.bytes)
        case Int(WH_HTTP_BAD_URL): throw .badURL
        case Int(WH_HTTP_UNREACHABLE): throw .unreachable
        case Int(WH_HTTP_TIMEOUT): throw .timeout
        case Int(WH_HTTP_TOO_LARGE): throw .tooLarge
        case Int(WH_HTTP_REFUSED): throw .refused
        case Int(WH_HTTP_HOST_NOT_FOUND): throw .hostNotFound
        case Int(WH_HTTP_NO_ROUTE): throw .noRoute
        case Int(WH_HTTP_DENIED): throw .denied
        default: throw .failed
        }
    }

    // MARK: Bus and navigation

    public enum BusFailure: Error, Equatable, CustomStringConvertible {
        case unavailable, denied, invalidTopic, invalidPayload, tooLarge, flooded

        init(status: Int64) {
            switch Int(status) {
            case Int(WH_BUS_DENIED): self = .denied
            case Int(WH_BUS_INVALID_TOPIC): self = .invalidTopic
            case Int(WH_BUS_TOO_LARGE): self = .tooLarge
            case Int(WH_BUS_FLOODED): self = .flooded
            default: self = .invalidPayload
            }
        }

        public var description: String {
            switch self {
            case .unavailable: "no bus (the bus service is not granted)"
            case .denied: "the manifest does not declare the topic"
            case .invalidTopic: "the topic or pattern breaks the rules"
            case .invalidPayload: "the payload is not UTF-8 JSON"
            case .tooLarge: "the payload is over the bus's limit"
            case .flooded: "too many events in a second: the host stopped the widget"
            }
        }
    }

    /// Publishes an event.
    public func publish(_ topic: String, _ payload: JSONValue = .object([])) throws(BusFailure) {
        guard let table = service(WH_SERVICE_BUS, as: wh_bus_v1.self) else { throw .unavailable }
        let status = table.pointee.publish(raw, topic, payload.serialized)
        guard status == 0 else { throw BusFailure(status: Int64(status)) }
    }

    /// Subscribes to a pattern; events arrive in `Widget.receive`.
    public func subscribe(_ pattern: String) throws(BusFailure) {
        guard let table = service(WH_SERVICE_BUS, as: wh_bus_v1.self) else { throw .unavailable }
        let id = table.pointee.subscribe(raw, pattern)
        guard id > 0 else { throw BusFailure(status: id) }
    }

    public enum NavigationFailure: Error, Equatable, CustomStringConvertible {
        case unavailable, malformedLink

        public var description: String {
            switch self {
            case .unavailable: "no navigator (the navigator service is not granted)"
            case .malformedLink: "the link does not parse"
            }
        }
    }

    /// Opens a screen: `widget://PLUGIN/SCREEN?key=value`.
    public func push(_ link: String) throws(NavigationFailure) {
        guard let table = service(WH_SERVICE_NAVIGATOR, as: wh_navigator_v1.self) else { throw .unavailable }
        guard table.pointee.push(raw, link) == 0 else { throw .malformedLink }
    }

    public func pop() throws(NavigationFailure) {
        guard let table = service(WH_SERVICE_NAVIGATOR, as: wh_navigator_v1.self) else { throw .unavailable }
        guard table.pointee.pop(raw) == 0 else { throw .malformedLink }
    }
}

/// Work waiting for the host's thread; run at the start of each host call.
final class MainQueue: Sendable {
    private let pending = Locked<[@Sendable () -> Void]>([])

    func enqueue(_ work: @escaping () -> Void) {
        nonisolated(unsafe) let work = work
        pending.withLock { $0.append { work() } }
    }

    func drain() {
        while true {
            let batch = pending.withLock { queue in
                defer { queue.removeAll() }
                return queue
            }
            if batch.isEmpty { return }
            batch.forEach { $0() }
        }
    }
}

/// A `wh_output` the plugin owns, for services that return bytes.
final class Sink {
    private(set) var bytes: [UInt8] = []

    func withOutput<R>(_ body: (UnsafePointer<wh_output>) -> R) -> R {
        var output = wh_output(host_data: Unmanaged.passUnretained(self).toOpaque(), write: { output, data, count in
            guard let output, let context = output.pointee.host_data else { return -1 }
            let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
            if let data, count > 0 { sink.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: Int(count))) }
            return 0
        })
        return withUnsafePointer(to: &output) { body($0) }
    }
}

/// Runs `body` on a new detached thread. Glibc's threads, not Foundation's:
/// the host holds this module too, and must start without loading Foundation.
/// If no thread can be made, `body` runs here, late rather than never.
private func detachThread(_ body: @escaping @Sendable () -> Void) {
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var thread = pthread_t()
    let started = pthread_create(&thread, nil, { context in
        Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().body()
        return nil
    }, context)
    if started == 0 {
        pthread_detach(thread)
    } else {
        Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().body()
    }
}

private final class ThreadBody: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// A service table the host owns for the life of the process, immutable: safe to share between threads.
private struct ServiceTablePointer: @unchecked Sendable {
    let pointer: UnsafeRawPointer
}
