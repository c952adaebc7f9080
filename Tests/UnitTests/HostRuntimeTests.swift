import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The runtime is the registry and nothing beside it: what a plugin's
/// context uses is what the registry holds, so replacing a registration
/// changes what plugins reach.
@Suite struct HostRuntimeTests {
    @Test("a plugin's context gets the host services the registry holds, resolved when it starts")
    func contextResolvesFromRegistry() throws {
        let runtime = HostRuntime(storeDirectory: try TestSupport.makeTemporaryDirectory("runtime"))
        let replacement = Bus()
        runtime.registry.register(Bus.self, scope: .application) { _ in replacement }
        let manifest = try ServiceTestKit.manifest(id: "org.example.runtime", screens: ["main"], requiredServices: [])
        let context = PluginContext(manifest: manifest, runtime: runtime)
        #expect(context.bus === replacement)
        #expect(context.clock === runtime.resolve(HostClock.self))
    }

    @Test("the store's changes go out on the bus the registry holds")
    func storeUsesRegisteredBus() throws {
        let runtime = HostRuntime(storeDirectory: try TestSupport.makeTemporaryDirectory("runtime"))
        let seen = ServiceTestKit.Locked<[String]>([])
        _ = try runtime.resolve(Bus.self).subscribe(SharedStore.changeTopic) { event in seen.withLock { $0.append(event.payload) } }
        try runtime.resolve(SharedStore.self).put("k", [1])
        #expect(runtime.resolve(Bus.self).waitUntilIdle())
        #expect(seen.withLock { $0 } == [#"{"key":"k","change":"put"}"#])
    }

    @Test("the service ids plugins may ask for are the tables registered, a new one included")
    func serviceIDsComeFromRegistry() throws {
        let runtime = HostRuntime(storeDirectory: try TestSupport.makeTemporaryDirectory("runtime"))
        #expect(runtime.serviceIDs == Set(ServiceTable.all.map(\.id)))
        let extra = ServiceTable(id: "org.example.extra/1", pointer: LogService.description.table.pointer)
        runtime.registry.register(ServiceTable.self, name: extra.id, scope: .application) { _ in extra }
        #expect(runtime.serviceIDs == Set(ServiceTable.all.map(\.id)).union([extra.id]))
    }
}
