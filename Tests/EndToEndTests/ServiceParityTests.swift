import Foundation
import PluginABI
import Testing
@testable import WidgetHostKit
@testable import TestSupport

private typealias Kit = IsolationTestKit

/// Each host service is described once (`ServiceCatalog`), and the same call
/// gets the same answer in process and isolated, for every function of every
/// table, NULL and bad arguments included.
@Suite("Services: described once, the same answer in both modes")
struct ServiceParityTests {
    /// How abiwalk.c names each table's variable.
    private static let variables = [
        WH_SERVICE_LOG: "log", WH_SERVICE_CLOCK: "clock", WH_SERVICE_CLOCK_2: "clock2", WH_SERVICE_CONFIG: "config", WH_SERVICE_STORE: "store",
        WH_SERVICE_HTTP: "http", WH_SERVICE_HTTP_2: "http2", WH_SERVICE_HTTP_3: "http3", WH_SERVICE_BUS: "bus", WH_SERVICE_NAVIGATOR: "nav",
        WH_SERVICE_CONTRACT: "contract",
    ]

    @Test("every C table has one non-NULL function per described function, and every service id is unique")
    func tablesMatchTheirDescriptions() {
        #expect(Set(ServiceCatalog.all.map(\.id)).count == ServiceCatalog.all.count)
        for service in ServiceCatalog.all {
            let count = service.functionSlots.count
            #expect(count == service.functions.count, "\(service.id): \(count) slots, \(service.functions.count) functions")
            let slots = service.table.pointer.assumingMemoryBound(to: UnsafeRawPointer?.self)
            for index in service.functionSlots {
                #expect(slots[index] != nil, "\(service.id): slot \(index) is NULL")
            }
            #expect(Set(service.functions.map(\.name)).count == service.functions.count, "\(service.id) repeats a name")
            #expect(service.functions.allSatisfy { $0.service == service.id })
        }
        // The registry hands out every table but the contracts', which go by the contract's id.
        #expect(ServiceTable.all.map(\.id) == ServiceCatalog.all.map(\.id).filter { $0 != WH_SERVICE_CONTRACT })
    }

    @Test("abiwalk.c calls every function of every table with NULL and bad arguments: the answers are the same in process and isolated")
    func sameAnswersInBothModes() throws {
        func walk(_ instance: any WidgetInstance) throws -> [JSONValue] {
            try instance.handle(action: "walk", value: nil)
            let rendered = try JSONParser.parse(Array(try instance.render(screen: "main", params: [:])))
            return try #require(rendered["calls"]?.array)
        }
        var config = HostConfig.empty
        try config.set("abiwalk.answer=42")
        let both = try Kit.BothModes(fixture: "abiwalk", config: config)
        // A provider of the contract the walk asks, the same in both hosts.
        let provider = WalkProvider()
        for runtime in [both.inRuntime, both.isolatedRuntime] { runtime.resolve(ContractBroker.self).attach(provider) }
        let inProcess = try walk(both.inProcess)
        let isolated = try walk(both.isolated)

        #expect(inProcess.count == isolated.count)
        for (local, remote) in zip(inProcess, isolated) {
            #expect(local == remote, "in process \(local.serialized), isolated \(remote.serialized)")
        }

        // The walk reaches every function the catalog describes, so a new
        // function fails here until it is walked in both modes.
        let calls = inProcess.compactMap { $0["call"]?.string }
        for service in ServiceCatalog.all {
            let variable = try #require(Self.variables[service.id], "abiwalk.c does not walk \(service.id)")
            for function in service.functions {
                #expect(calls.contains { $0.hasPrefix("\(variable)->\(function.name)(") }, "\(service.id) \(function.name) is not walked")
            }
        }

        // And the answers are the ones the headers promise.
        func answer(_ call: String) -> Int64? {
            inProcess.first { $0["call"]?.string == call }?["result"]?.int64
        }
        #expect(answer("nav->push(h, NULL)") == Int64(WH_NAV_MALFORMED_LINK))
        #expect(answer("wh_use_contract(h, \"org.example.undeclared/1\").table != NULL") == 0)
        #expect(answer("contract->ask(h, NULL, &refusing)") == Int64(WH_CONTRACT_FAILED))
        #expect(answer("contract->ask(h, contract, &refusing)") == Int64(WH_CONTRACT_TOO_LARGE))
        #expect(answer("contract->ask(h, contract, out) wrote 16") == Int64(WH_CONTRACT_OK))
        #expect(answer("nav->push(h, \"widget://abiwalk/main\")") == 0)
        #expect(answer("store->get(h, \"walk.key\", &refusing)") == Int64(WH_STORE_IO_ERROR))
        #expect(answer("store->get(h, \"walk.key\", out) wrote 5") == Int64(WH_STORE_FOUND))
        #expect(answer("store->put(h, \"walk.key\", NULL, 5)") == Int64(WH_STORE_BAD_KEY))
        #expect(answer("store->put(NULL, \"walk.key\", \"x\", 1)") == Int64(WH_STORE_IO_ERROR))
        #expect(answer("config->get(h, \"answer\", &refusing)") == 0)
        #expect(answer("http->get(h, \"http://127.0.0.1:1/\", 0, 0, NULL)") == Int64(WH_HTTP_BAD_URL))
        #expect(answer("bus->publish(h, \"walk.out\", \"{\\\"a\\\":\\\"\\xc0\\xaf\\\"}\")") == Int64(WH_BUS_INVALID_PAYLOAD))
        #expect(answer("bus->publish(h, \"undeclared\", \"{}\")") == Int64(WH_BUS_DENIED))
        // Ill-formed UTF-8 is refused as a bad name by every service, never repaired into another name.
        #expect(answer("store->put(h, \"walk.\\xc0\\xaf\", \"x\", 1)") == Int64(WH_STORE_BAD_KEY))
        #expect(answer("store->get(h, \"walk.\\xc0\\xaf\", &s.output)") == Int64(WH_STORE_BAD_KEY))
        #expect(answer("store->remove(h, \"walk.\\xc0\\xaf\")") == Int64(WH_STORE_BAD_KEY))
        #expect(answer("config->get(h, \"answer\\xc0\\xaf\", &s.output)") == 0)
        #expect(answer("http->get(h, \"http://127.0.0.1:1/\\xc0\\xaf\", 0, 0, &s.output)") == Int64(WH_HTTP_BAD_URL))
        #expect(answer("bus->subscribe(h, \"walk.\\xed\\xa0\\x80\")") == Int64(WH_BUS_INVALID_TOPIC))
        #expect(answer("nav->push(h, \"widget://abiwalk/\\xc0\\xaf\")") == Int64(WH_NAV_MALFORMED_LINK))
        // A port nobody listens on: http/2 names the refusal, http/1 keeps its one answer.
        #expect(answer("http2->get(h, \"http://127.0.0.1:1/\", 5000, 0, &s.output)") == Int64(WH_HTTP_REFUSED))
        #expect(answer("http->get(h, \"http://127.0.0.1:1/\", 5000, 0, &s.output)") == Int64(WH_HTTP_UNREACHABLE))
        // An undeclared host: http/3 says denied, the older ids keep their one answer.
        #expect(answer("http3->get(h, \"http://undeclared.invalid/\", 1000, 0, &s.output)") == Int64(WH_HTTP_DENIED))
        #expect(answer("http->get(h, \"http://undeclared.invalid/\", 1000, 0, &s.output)") == Int64(WH_HTTP_UNREACHABLE))
        // A store key outside the groups abiwalk declares is refused like a bad key.
        #expect(answer("store->get(h, \"other.key\", &s.output)") == Int64(WH_STORE_BAD_KEY))
        #expect(answer("h->get_service(h, \"widget-host.log/2\") != NULL") == 0)
    }

    @Test("a service the host has but the catalog cannot forward is NULL under --isolate, and the host says why")
    func unforwardableServiceIsLogged() throws {
        let (path, candidate) = try Kit.fixture("services")
        let home = try Kit.Home()
        let recorder = LogRecorder()
        let runtime = home.runtime(recorder)
        // A table registered beside the catalog's, as a plugin-provided
        // contract would be: in process it is handed out as it is.
        let future = ServiceTable(id: "widget-host.future/8", pointer: LogService.description.table.pointer)
        runtime.registry.register(ServiceTable.self, name: future.id, scope: .application) { _ in future }
        let loaded = try Loader.load(path: path, manifest: candidate.manifest!, serviceIDs: runtime.serviceIDs)
        let local = try PluginInstance(plugin: loaded, runtime: runtime)
        try local.handle(action: "service", value: future.id)
        #expect(try JSONParser.parse(Array(try local.render(screen: "main", params: [:])))["found"] == .bool(true))

        let isolated = try home.launcher().launch(candidate, runtime)
        try isolated.handle(action: "service", value: future.id)
        #expect(try JSONParser.parse(Array(try isolated.render(screen: "main", params: [:])))["found"] == .bool(false))
        #expect(recorder.recorded.contains { $0.contains("asked for service widget-host.future/8, which the host has but cannot forward") },
                "\(recorder.recorded)")
    }

    @Test("the proxy refuses a forwarded call that names no function or whose arguments are not of their kinds")
    func proxyChecksArgumentKinds() throws {
        let manifest = try ServiceTestKit.manifest(id: "org.example.proxy", screens: ["main"],
                requiredServices: [WH_SERVICE_STORE, WH_SERVICE_HTTP, WH_SERVICE_BUS], storeGroups: [("absent", .read)])
        let runtime = HostRuntime(storeDirectory: try TestSupport.makeTemporaryDirectory("proxy"))
        let proxy = HostServiceProxy(context: PluginContext(manifest: manifest, runtime: runtime))
        func call(_ fn: String, _ service: String, _ args: JSONValue) -> Frame {
            Frame(.service, id: 1, fields: ["fn": .string(fn), "service": .string(service), "args": args])
        }
        #expect(throws: HostServiceProxy.Violation.self) { try proxy.perform(call("get", WH_SERVICE_STORE, [.int(1)])) }
        #expect(throws: HostServiceProxy.Violation.self) { try proxy.perform(call("get", WH_SERVICE_STORE, [])) }
        #expect(throws: HostServiceProxy.Violation.self) { try proxy.perform(call("fetch", WH_SERVICE_STORE, ["k"])) }
        #expect(throws: HostServiceProxy.Violation.self) { try proxy.perform(call("push", WH_SERVICE_NAVIGATOR, ["widget://x"])) }
        let missing = try proxy.perform(call("get", WH_SERVICE_STORE, ["absent.key"]))
        #expect(missing.fields["result"]?.int64 == Int64(WH_STORE_MISSING))
        let badKey = try proxy.perform(call("remove", WH_SERVICE_STORE, ["bad key!"]))
        #expect(badKey.fields["result"]?.int64 == Int64(WH_STORE_BAD_KEY))
        // Where a call runs follows from the description.
        #expect(HostServiceProxy.placement(of: call("get", WH_SERVICE_HTTP, [])) == .offReader)
        #expect(HostServiceProxy.placement(of: call("get", WH_SERVICE_STORE, [])) == .onReader)
        #expect(HostServiceProxy.placement(of: call("ask", WH_SERVICE_CONTRACT, [])) == .onWaitingCaller)
        // A contract's ask names the contract; one the plugin does not require is refused.
        let undeclared = try proxy.perform(call("ask", WH_SERVICE_CONTRACT, ["org.example.price/1"]))
        #expect(undeclared.fields["result"]?.int64 == Int64(WH_CONTRACT_UNAVAILABLE))
    }
}

/// Provides the contract abiwalk.c asks, as a session would.
private final class WalkProvider: ContractProviders {
    func provider(of contract: String) -> PluginID? {
        contract == "org.example.walk/1" ? try? PluginID("org.example.walker") : nil
    }

    func answer(_ contract: String, from provider: PluginID) -> Result<[UInt8], ContractFailure> {
        .success(Array(#"{"walked": true}"#.utf8))
    }
}
