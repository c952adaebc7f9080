import PluginABI
import Testing
@testable import PluginKit
@testable import TestSupport

/// The SDK reports a failure one way: a typed error that says why.
@Suite("PluginKit: failures are typed errors")
struct PluginKitFailureTests {
    /// A host that grants nothing, or only a bus that refuses everything.
    private static func host(grantingBus: Bool) -> Host {
        let raw = UnsafeMutablePointer<wh_host>.allocate(capacity: 1)
        raw.initialize(to: wh_host(
            abi_major: WH_ABI_MAJOR, abi_minor: WH_ABI_MINOR, struct_size: UInt32(MemoryLayout<wh_host>.size),
            host_data: grantingBus ? UnsafeMutableRawPointer(bitPattern: 1) : nil,
            get_service: { host, id in
                guard host?.pointee.host_data != nil, let id, String(cString: id) == WH_SERVICE_BUS else { return nil }
                return UnsafeRawPointer(PluginKitFailureTests.refusingBus)
            },
            request_render: { _ in }))
        return Host(raw: raw, mainQueue: MainQueue())
    }

    nonisolated(unsafe) private static let refusingBus: UnsafeMutablePointer<wh_bus_v1> = {
        let table = UnsafeMutablePointer<wh_bus_v1>.allocate(capacity: 1)
        table.initialize(to: wh_bus_v1(
            publish: { _, _, _ in Int32(WH_BUS_DENIED) },
            subscribe: { _, _ in Int64(WH_BUS_INVALID_TOPIC) },
            unsubscribe: { _, _ in }))
        return table
    }()

    @Test("a service the manifest did not declare: each operation throws that it is unavailable")
    func undeclared() {
        let host = Self.host(grantingBus: false)
        #expect(throws: Host.StoreFailure.unavailable) { try host.storeGet("k") }
        #expect(throws: Host.StoreFailure.unavailable) { try host.storePut("k", [1]) }
        #expect(throws: Host.HTTPFailure.unavailable) { try host.get("http://127.0.0.1/") }
        #expect(throws: Host.BusFailure.unavailable) { try host.publish("a.b") }
        #expect(throws: Host.BusFailure.unavailable) { try host.subscribe("a.*") }
        #expect(throws: Host.NavigationFailure.unavailable) { try host.push("widget://x") }
        #expect(throws: Host.NavigationFailure.unavailable) { try host.pop() }
        #expect(throws: Host.ContractFailure.notGranted) { try host.ask(contract: "org.example.x/1") }
        #expect(host.nowMilliseconds == nil, "no clock is an answer of none, not a failure")
    }

    private static let lookups = Locked<[String]>([])

    @Test("each service table is asked of the host once, however often it is used; a missing one is asked again")
    func tablesLookedUpOnce() {
        let raw = UnsafeMutablePointer<wh_host>.allocate(capacity: 1)
        raw.initialize(to: wh_host(
            abi_major: WH_ABI_MAJOR, abi_minor: WH_ABI_MINOR, struct_size: UInt32(MemoryLayout<wh_host>.size), host_data: nil,
            get_service: { _, id in
                let name = String(cString: id!)
                PluginKitFailureTests.lookups.withLock { $0.append(name) }
                return name == WH_SERVICE_BUS ? UnsafeRawPointer(PluginKitFailureTests.refusingBus) : nil
            },
            request_render: { _ in }))
        let host = Host(raw: raw, mainQueue: MainQueue())
        for _ in 0..<3 {
            #expect(throws: Host.BusFailure.denied) { try host.publish("a.b") }
            #expect(throws: Host.StoreFailure.unavailable) { try host.storeGet("k") }
        }
        #expect(Self.lookups.withLock { $0 } == [WH_SERVICE_BUS, WH_SERVICE_STORE, WH_SERVICE_STORE, WH_SERVICE_STORE])
    }

    @Test("a refusal says which: the host's status becomes its case")
    func refusals() {
        let host = Self.host(grantingBus: true)
        #expect(throws: Host.BusFailure.denied) { try host.publish("a.b") }
        #expect(throws: Host.BusFailure.invalidTopic) { try host.subscribe("a..b") }
        #expect(Host.BusFailure.flooded.description.contains("stopped the widget"))
    }
}
