import Foundation
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

private typealias Kit = IsolationTestKit

/// The plugin's code is the same in both modes, and so is what the host
/// makes of it: the same screens, the same service answers, the same
/// capability checks.
@Suite("Isolation: in process and isolated agree")
struct IsolationEquivalenceTests {
    /// Each shipped widget and hello.c, as `launch --once --format json`
    /// prints them: (name, arguments, the start of the error state the
    /// screen declares, or nil for none).
    static let launches: [(String, [String], String?)] = [
        ("hello", ["launch", "hello", "--actions", "wave,rename=Bob"], nil),
        ("checkout", ["launch", "checkout", "--set", "checkout.minimumAmount=50", "--set", "checkout.maximumAmount=2000",
                      "--set", "checkout.currencyCode=USD", "--set", "checkout.locale=en_US", "--set", "checkout.amount=100.02",
                      "--now", "2026-05-01T09:30:00Z", "--actions", "update=250.00"], nil),
        ("checkout, invalid amount", ["launch", "checkout", "--set", "checkout.minimumAmount=50", "--set", "checkout.maximumAmount=2000",
                                      "--set", "checkout.currencyCode=USD", "--set", "checkout.locale=en_US", "--set", "checkout.amount=12.345",
                                      "--now", "2026-05-01T09:30:00Z"], "amountTooPrecise: "),
        ("trips", ["launch", "trips", "--now", "2026-06-12T09:00:00Z"], nil),
        ("trips, no bookings", ["launch", "trips", "--now", "2026-06-12T09:00:00Z"], "Data not found: "),
        ("crypto", ["launch", "crypto", "--set", "crypto.priceURL=http://127.0.0.1:1/price", "--now", "2026-05-01T09:30:00Z", "--wait", "5"],
         "Price unavailable: "),
    ]

    @Test("launch --once --format json prints the same with and without --isolate, declared error states included",
          arguments: launches.map(\.0))
    func sameScreen(_ name: String) throws {
        let (_, arguments, error) = try #require(Self.launches.first { $0.0 == name })
        let home = try Kit.Home()
        let plugins = try TestSupport.makeTemporaryDirectory("equivalence")
        try TestSupport.copy(try Kit.hello.get(), to: plugins + "/hello.so")
        if name == "trips" {
            let put = try home.run(["store", "put", "trips.bookings", "--file", TestSupport.packageRoot + "/Plugins/TripsPlugin/sample-bookings.json"])
            #expect(put.status == 0, "\(put)")
        }
        let common = arguments + ["--plugin-dir", plugins, "--once", "--format", "json"]
        let inProcess = try home.run(common)
        let isolated = try home.run(common + ["--isolate"])
        #expect(inProcess.status == 0, "\(inProcess)")
        let declared = try Kit.screen(inProcess)["error"]
        if let error {
            #expect(declared?.string?.hasPrefix(error) == true, "\(inProcess)")
        } else {
            #expect(declared == .null, "\(inProcess)")
        }
        #expect(isolated.status == inProcess.status)
        #expect(isolated.stdout == inProcess.stdout, "in process:\n\(inProcess)\nisolated:\n\(isolated)")
    }

    /// services.c answers every service call with what the host said; the
    /// same actions must get the same answers through the proxy.
    @Test("every service answers the same through the proxy, denials included")
    func sameServiceAnswers() throws {
        let steps: [(String, String?)] = [
            ("service", "widget-host.http/1"), ("service", "widget-host.log/1"), ("service", "widget-host.future/8"),
            ("publish", "services.out {\"n\":1}"), ("publish", "undeclared.topic {}"), ("publish", "services.out not json"),
            ("subscribe", "feed.*"), ("subscribe", "secret.*"), ("subscribe", "bad..pattern"),
            ("store_put", "iso.key=v1"), ("store_get", "iso.key"), ("store_get", "missing.key"), ("store_get", "bad key!"),
            ("store_remove", "iso.key"), ("store_remove", "iso.key"),
            ("config", nil), ("config", "currency"), ("config", "absent"),
            ("nav_push", "widget://org.example.services/events"), ("nav_push", "not a link"), ("nav_pop", nil),
            ("log", "said through the log service"), ("unknown_action", nil),
        ]
        func drive(_ instance: any WidgetInstance, _ runtime: HostRuntime) throws -> [String] {
            var transcript: [String] = []
            for (action, value) in steps {
                do {
                    try instance.handle(action: action, value: value)
                    transcript.append("\(action): ok")
                } catch {
                    transcript.append("\(action): \(error)")
                }
                transcript.append(String(decoding: try instance.render(screen: "main", params: [:]), as: UTF8.self))
            }
            try runtime.resolve(Bus.self).publish("feed.prices", payload: "{\"btc\":1}")
            instance.pump()
            transcript.append(String(decoding: try instance.render(screen: "events", params: [:]), as: UTF8.self))
            return transcript
        }
        var config = HostConfig.empty
        try config.set("services.currency=\"USD\"")
        let both = try Kit.BothModes(fixture: "services", config: config)
        let inProcess = try drive(both.inProcess, both.inRuntime)
        let isolated = try drive(both.isolated, both.isolatedRuntime)
        #expect(isolated == inProcess)
        for line in ["denied service widget-host.http/1", "denied publish to undeclared.topic", "denied subscription to secret.*",
                     "said through the log service"] {
            #expect(both.inLog.recorded.contains { $0.contains(line) }, "in process did not log \(line)")
            #expect(both.isolatedLog.recorded.contains { $0.contains(line) }, "isolated did not log \(line)")
        }
    }
}
