import Testing
@testable import WidgetHostKit

/// The index must answer every name as the rule does when it is applied to
/// each manifest in turn (the rule as it was written first, kept here as the
/// oracle): a full id first, then a last segment, display name or id in any
/// case, ambiguous when it names more than one id.
@Suite("Plugin names, resolved through an index")
struct PluginNamesIndexTests {
    static func manifest(_ id: String, _ name: String) throws -> Manifest {
        try Manifest(json: ManifestTests.minimal(["id": .string(id), "name": .string(name)]))
    }

    static func oracle(_ name: String, among manifests: [Manifest]) -> PluginNames.Resolution {
        if let exact = manifests.first(where: { $0.id.value == name }) { return .found(exact.id) }
        let wanted = name.lowercased()
        let matches = manifests.filter {
            $0.id.value.lowercased() == wanted || $0.id.shortName.lowercased() == wanted || $0.name.lowercased() == wanted
        }
        let ids = Set(matches.map(\.id.value))
        guard ids.count <= 1 else { return .ambiguous(ids.sorted()) }
        return matches.first.map { .found($0.id) } ?? .unknown
    }

    @Test("every name resolves as the rule says: found, ambiguous or unknown")
    func matchesTheRule() throws {
        let manifests = try [
            Self.manifest("org.widgethost.trips", "My Trips"),
            Self.manifest("org.other.trips", "Trips"),            // the same last segment
            Self.manifest("org.widgethost.checkout", "Checkout"),
            Self.manifest("org.widgethost.checkout", "Checkout"), // a shadowed copy: the same id twice
            Self.manifest("org.widgethost.crypto", "Bitcoin"),
            Self.manifest("org.example.bitcoin", "Prices"),       // a last segment that is another's display name
            Self.manifest("org.example.prices", "org.widgethost.crypto"),
        ]
        let index = PluginNames.Index(manifests)
        let names = ["org.widgethost.trips", "trips", "TRIPS", "My Trips", "my trips", "checkout", "Checkout", "bitcoin", "Bitcoin",
                     "prices", "org.widgethost.crypto", "ORG.WIDGETHOST.CRYPTO", "crypto", "nothing", "", "org.other.trips"]
        for name in names {
            #expect(index.resolve(name) == Self.oracle(name, among: manifests), "\(name)")
        }
        #expect(index.resolve("trips") == .ambiguous(["org.other.trips", "org.widgethost.trips"]))
        #expect(index.resolve("checkout") == .found(try PluginID("org.widgethost.checkout")))
        #expect(index.resolve("nothing") == .unknown)
        #expect(PluginNames.Index([]).resolve("trips") == .unknown)
    }
}
