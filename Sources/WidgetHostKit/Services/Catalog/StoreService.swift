import PluginABI

/// "widget-host.store/1" (services/store.h): the shared container.
enum StoreService {
    static let get = ServiceFunction(service: WH_SERVICE_STORE, name: "get", arguments: [.text], writesOutput: true,
                                     fallback: Int64(WH_STORE_IO_ERROR),
                                     whenSinkRefuses: Int64(WH_STORE_IO_ERROR)) { context, arguments, out in
        status(context) {
            guard let value = try context.store.get(arguments.text(0)!) else { return WH_STORE_MISSING }
            return out!.write(value) ? WH_STORE_FOUND : WH_STORE_IO_ERROR
        }
    }

    static let put = ServiceFunction(service: WH_SERVICE_STORE, name: "put", arguments: [.text, .bytes],
                                     fallback: Int64(WH_STORE_IO_ERROR)) { context, arguments, _ in
        status(context) {
            try context.store.put(arguments.text(0)!, arguments.bytes(1))
            return 0
        }
    }

    static let remove = ServiceFunction(service: WH_SERVICE_STORE, name: "remove", arguments: [.text],
                                        fallback: Int64(WH_STORE_IO_ERROR)) { context, arguments, _ in
        status(context) { try context.store.remove(arguments.text(0)!) ? WH_STORE_FOUND : WH_STORE_MISSING }
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

    /// A store error as the status store.h promises, logged for the plugin.
    private static func status(_ context: PluginContext, _ body: () throws -> Int) -> Int64 {
        do { return Int64(try body()) } catch {
            context.log.warning("store: \(error)")
            if case .badKey? = error as? StoreError { return Int64(WH_STORE_BAD_KEY) }
            return Int64(WH_STORE_IO_ERROR)
        }
    }
}
