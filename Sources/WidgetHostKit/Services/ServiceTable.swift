import Glibc
import PluginABI

/// A C service table as the registry holds it, under its versioned id.
/// Each table is static and stateless: a call finds its plugin, and the
/// plugin's grants, through the `wh_host` it passes.
public struct ServiceTable: @unchecked Sendable {
    public let id: String
    let pointer: UnsafeRawPointer

    static let all: [ServiceTable] = [
        ServiceTable(id: WH_SERVICE_LOG, pointer: table(wh_log_v1(log: ServiceCalls.log))),
        ServiceTable(id: WH_SERVICE_CLOCK, pointer: table(wh_clock_v1(now_ms: ServiceCalls.now, wake_at: ServiceCalls.wakeAt))),
        ServiceTable(id: WH_SERVICE_CONFIG, pointer: table(wh_config_v1(get: ServiceCalls.config))),
        ServiceTable(id: WH_SERVICE_STORE, pointer: table(wh_store_v1(
            get: ServiceCalls.storeGet, put: ServiceCalls.storePut, remove: ServiceCalls.storeRemove))),
        ServiceTable(id: WH_SERVICE_HTTP, pointer: table(wh_http_v1(get: ServiceCalls.httpGet))),
        ServiceTable(id: WH_SERVICE_BUS, pointer: table(wh_bus_v1(
            publish: ServiceCalls.publish, subscribe: ServiceCalls.subscribe, unsubscribe: ServiceCalls.unsubscribe))),
        ServiceTable(id: WH_SERVICE_NAVIGATOR, pointer: table(wh_navigator_v1(
            push: { ServiceCalls.navigate($0, "nav.push", $1) }, replace: { ServiceCalls.navigate($0, "nav.replace", $1) },
            root: { ServiceCalls.navigate($0, "nav.root", $1) }, pop: { ServiceCalls.navigate($0, "nav.pop", nil) }))),
    ]

    /// Static storage for a table: it lives as long as the process.
    private static func table<T>(_ value: T) -> UnsafeRawPointer {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        pointer.initialize(to: value)
        return UnsafeRawPointer(pointer)
    }
}

/// The bodies of the service functions. Every one starts from the calling
/// plugin's `PluginContext`, so it acts with that plugin's grants.
enum ServiceCalls {
    static let log: @convention(c) (UnsafePointer<wh_host>?, Int32, UnsafePointer<CChar>?) -> Void = { host, level, message in
        guard let context = PluginContext.from(host), let message else { return }
        context.runtime.log.log(HostLog.Level(rawValue: level) ?? .error, context.pluginID.value, text(message))
    }

    static let now: @convention(c) (UnsafePointer<wh_host>?) -> Int64 = { host in
        guard let context = PluginContext.from(host) else { return 0 }
        return context.runtime.clock.nowMilliseconds
    }

    static let wakeAt: @convention(c) (UnsafePointer<wh_host>?, Int64) -> Int32 = { host, at in
        PluginContext.from(host)?.wake(atMilliseconds: at)
        return 0
    }

    static let config: @convention(c) (UnsafePointer<wh_host>?, UnsafePointer<CChar>?, UnsafePointer<wh_output>?) -> Int32 = { host, key, out in
        guard let context = PluginContext.from(host), let out else { return 0 }
        let section = context.configSection
        guard let value = key.map({ section[text($0)] }) ?? section else { return 0 }
        return write(value.serialized, to: out) ? 1 : 0
    }

    static let storeGet: @convention(c) (UnsafePointer<wh_host>?, UnsafePointer<CChar>?, UnsafePointer<wh_output>?) -> Int32 = { host, key, out in
        guard let context = PluginContext.from(host), let key, let out else { return Int32(WH_STORE_BAD_KEY) }
        do {
            guard let value = try context.runtime.store.get(text(key)) else { return Int32(WH_STORE_MISSING) }
            return write(value, to: out) ? Int32(WH_STORE_FOUND) : Int32(WH_STORE_IO_ERROR)
        } catch {
            return storeStatus(error as! StoreError, context)
        }
    }

    static let storePut: @convention(c) (UnsafePointer<wh_host>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UInt64) -> Int32 = { host, key, data, count in
        guard let context = PluginContext.from(host), let key, data != nil || count == 0 else { return Int32(WH_STORE_BAD_KEY) }
        guard count <= UInt64(SharedStore.maxValueBytes) else { return Int32(WH_STORE_IO_ERROR) }
        let bytes = data.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(count))) } ?? []
        do {
            try context.runtime.store.put(text(key), bytes)
            return 0
        } catch {
            return storeStatus(error as! StoreError, context)
        }
    }

    static let storeRemove: @convention(c) (UnsafePointer<wh_host>?, UnsafePointer<CChar>?) -> Int32 = { host, key in
        guard let context = PluginContext.from(host), let key else { return Int32(WH_STORE_BAD_KEY) }
        do {
            return try context.runtime.store.remove(text(key)) ? Int32(WH_STORE_FOUND) : Int32(WH_STORE_MISSING)
        } catch {
            return storeStatus(error as! StoreError, context)
        }
    }

    static let httpGet: @convention(c) (UnsafePointer<wh_host>?, UnsafePointer<CChar>?, UInt32, UInt64, UnsafePointer<wh_output>?) -> Int32 = {
        host, url, timeout, maxBytes, out in
        guard let context = PluginContext.from(host), let url, let out else { return Int32(WH_HTTP_BAD_URL) }
        let seconds = timeout == 0 ? HTTPClient.defaultTimeout : Double(timeout) / 1000
        let limit = Int(min(maxBytes == 0 ? UInt64(HTTPClient.defaultMaxBytes) : maxBytes, UInt64(64 << 20)))
        do {
            // The manifest's hosts hold for every hop, redirects included.
            let response = try context.runtime.http.get(text(url), timeout: seconds, maxBytes: limit) {
                HTTPAllowList.denial(of: $0, for: context.manifest, log: context.runtime.log)
            }
            _ = write(response.body, to: out)
            return Int32(response.status)
        } catch {
            let failure = error as! HTTPClient.Failure
            if case .denied = failure {
                context.runtime.log.log(.warning, context.pluginID.value, "\(failure)")
            } else {
                context.runtime.log.log(.info, context.pluginID.value, "GET \(text(url)): \(failure)")
            }
            switch failure {
            case .denied: return Int32(WH_HTTP_UNREACHABLE)
            case .badURL: return Int32(WH_HTTP_BAD_URL)
            case .unreachable: return Int32(WH_HTTP_UNREACHABLE)
            case .timeout: return Int32(WH_HTTP_TIMEOUT)
            case .tooLarge: return Int32(WH_HTTP_TOO_LARGE)
            case .failed: return Int32(WH_HTTP_FAILED)
            }
        }
    }

    static let publish: @convention(c) (UnsafePointer<wh_host>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32 = { host, topic, payload in
        guard let context = PluginContext.from(host), let topic else { return Int32(WH_BUS_INVALID_TOPIC) }
        guard let topic = strictText(topic) else { return Int32(WH_BUS_INVALID_TOPIC) }
        guard let payload = payload.flatMap(strictText) else { return Int32(WH_BUS_INVALID_PAYLOAD) }
        return context.publish(topic: topic, payload: payload)
    }

    static let subscribe: @convention(c) (UnsafePointer<wh_host>?, UnsafePointer<CChar>?) -> Int64 = { host, pattern in
        guard let context = PluginContext.from(host), let pattern else { return Int64(WH_BUS_INVALID_TOPIC) }
        return context.subscribe(pattern: text(pattern))
    }

    static let unsubscribe: @convention(c) (UnsafePointer<wh_host>?, Int64) -> Void = { host, id in
        PluginContext.from(host)?.unsubscribe(id)
    }

    static func navigate(_ host: UnsafePointer<wh_host>?, _ topic: String, _ link: UnsafePointer<CChar>?) -> Int32 {
        guard let context = PluginContext.from(host) else { return Int32(WH_NAV_MALFORMED_LINK) }
        var payload: JSONValue = .object([])
        if let link {
            do { payload = try NavigationTarget(link: text(link)).json } catch {
                context.runtime.log.log(.warning, context.pluginID.value, "\(error)")
                return Int32(WH_NAV_MALFORMED_LINK)
            }
        }
        context.runtime.bus.enqueue(BusEvent(topic: topic, payload: payload.serialized))
        return 0
    }

    private static func storeStatus(_ error: StoreError, _ context: PluginContext) -> Int32 {
        context.runtime.log.log(.warning, context.pluginID.value, "store: \(error)")
        if case .badKey = error { return Int32(WH_STORE_BAD_KEY) }
        return Int32(WH_STORE_IO_ERROR)
    }

    /// A plugin's C string as Swift text; invalid UTF-8 is replaced.
    static func text(_ pointer: UnsafePointer<CChar>) -> String {
        String(decoding: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)), as: UTF8.self)
    }

    /// A plugin's C string as Swift text, or nil unless it is well-formed
    /// UTF-8: overlong (non-shortest) forms and encoded surrogates, which
    /// `bus.h` forbids, are refused rather than repaired into valid text.
    static func strictText(_ pointer: UnsafePointer<CChar>) -> String? {
        String(validatingCString: pointer)
    }

    /// Writes to a sink the plugin provided; false if it refused.
    private static func write(_ text: String, to out: UnsafePointer<wh_output>) -> Bool {
        write(Array(text.utf8), to: out)
    }

    private static func write(_ bytes: [UInt8], to out: UnsafePointer<wh_output>) -> Bool {
        guard let sink = out.pointee.write else { return false }
        return bytes.withUnsafeBytes { raw in
            sink(out, raw.baseAddress?.assumingMemoryBound(to: CChar.self), UInt64(raw.count)) == 0
        }
    }
}
