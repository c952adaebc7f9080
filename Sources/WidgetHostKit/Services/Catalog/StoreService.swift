import PluginABI

/// "widget-host.store/1" (services/store.h): the shared container.
enum StoreService {
    static let get = ServiceFunction(service: WH_SERVICE_STORE, name: "get", arguments: [.text], writesOutput: true,
                                     fallback: Int64(WH_STORE_IO_ERROR),
                                     whenSinkRefuses: Int64(WH_STORE_IO_ERROR)) { context, arguments, out in
        status(context, arguments.text(0)!, writing: false) { key in
            guard let value = try context.store.get(key) else { return WH_STORE_MISSING }
            return out!.write(value) ? WH_STORE_FOUND : WH_STORE_IO_ERROR
        }
    }

    static let put = ServiceFunction(service: WH_SERVICE_STORE, name: "put", arguments: [.text, .bytes],
                                     fallback: Int64(WH_STORE_IO_ERROR)) { context, arguments, _ in
        status(context, arguments.text(0)!, writing: true) { key in
            try context.store.put(key, arguments.bytes(1))
            return 0
        }
    }

    static let remove = ServiceFunction(service: WH_SERVICE_STORE, name: "remove", arguments: [.text],
                                        fallback: Int64(WH_STORE_IO_ERROR)) { context, arguments, _ in
        status(context, arguments.text(0)!, writing: true) { key in try context.store.remove(key) ? WH_STORE_FOUND : WH_STORE_MISSING }
    }

    static let description = ServiceDescription(WH_SERVICE_STORE, [get, put, remove], table: wh_store_v1(
        get: { host, key, out in
            guard let key = key.flatMap(ServiceValue.cString), let out else { return Int32(WH_STORE_BAD_KEY) }
            return Int32(clamping: get.call(host, [key], out))
        },
        put: { host, key, data, count in
            guard let key = key.flatMap(ServiceValue.cString), data != nil || count == 0 else { return Int32(WH_STORE_BAD_KEY) }
            guard count <= UInt64(SharedStore.maxValueBytes) else { return Int32(WH_STORE_IO_ERROR) }
            let bytes = data.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(count))) } ?? []
            return Int32(clamping: put.call(host, [key, .bytes(bytes)]))
        },
        remove: { host, key in
            guard let key = key.flatMap(ServiceValue.cString) else { return Int32(WH_STORE_BAD_KEY) }
            return Int32(clamping: remove.call(host, [key]))
        }))

    /// Runs `body` on `key` if the plugin's store groups grant it, and
    /// answers a store error, or a denial (a key outside its groups breaks
    /// store.h's rules: WH_STORE_BAD_KEY), as the status store.h promises,
    /// logged for the plugin.
    private static func status(_ context: PluginContext, _ key: String, writing: Bool, _ body: (String) throws -> Int) -> Int64 {
        if let problem = SharedStore.problem(withKey: key) {
            context.log.warning("store: \(problem)")
            return Int64(WH_STORE_BAD_KEY)
        }
        if let denial = StoreGroups.denial(of: key, writing: writing, for: context.manifest) {
            context.log.warning(denial)
            return Int64(WH_STORE_BAD_KEY)
        }
        do { return Int64(try body(key)) } catch {
            context.log.warning("store: \(error)")
            if case .badKey? = error as? StoreError { return Int64(WH_STORE_BAD_KEY) }
            return Int64(WH_STORE_IO_ERROR)
        }
    }
}
