import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// Two copies of one id on the search path (#23, #28): a byte-identical
/// second copy (a plugin installed from the build tree it is also found in)
/// is listed once, with nothing to fix; a different one is a problem, and
/// a shipped widget that another copy replaces is marked on its card.
@Suite("Shadowed copies")
struct ShadowedCopyTests {
    @Test("list: an identical shadowed copy is its table row alone; a different one also gets its problem line")
    func identicalCopyListedOnce() throws {
        let first = try TestSupport.makeTemporaryDirectory("copy-first"), second = try TestSupport.makeTemporaryDirectory("copy-second")
        try TestSupport.compileHello(output: first + "/hello.so")
        try TestSupport.copy(first + "/hello.so", to: second + "/hello.so")
        let arguments = ["list", "--plugin-dir", first, "--plugin-dir", second]
        let same = try TestSupport.runHost(arguments)
        #expect(same.status == 0, "\(same)")
        #expect(same.stdout.split(separator: "\n").filter { $0.contains(second + "/hello.so") }.count == 1, "\(same)")
        #expect(same.stdout.contains("1 shadowed copy is identical to the one used: nothing to fix."), "\(same)")
        let json = try TestSupport.runHost(arguments + ["--json"])
        let copy = try #require(try json.json().array?.first { $0["path"]?.string == second + "/hello.so" }, "\(json)")
        #expect(copy["status"]?.string == "shadowed")
        #expect(copy["reason"]?.string?.contains("shadowed by \(first)/hello.so, an identical copy") == true, "\(copy)")

        try TestSupport.compileHello(defines: ["-DGREETED=\"there\""], output: second + "/hello.so")
        let different = try TestSupport.runHost(arguments)
        #expect(different.stdout.contains("\(second)/hello.so: shadowed: shadowed by \(first)/hello.so, which has the same id"), "\(different)")
        #expect(!different.stdout.contains("identical"), "\(different)")
    }

    @Test("the dashboard marks a shipped widget another copy replaces, not one an identical copy shadows")
    func dashboardMarksReplacedShipped() throws {
        let world = try DashboardWorld()
        let directory = try TestSupport.makeTemporaryDirectory("impostor")
        try TestSupport.compileHello(defines: ["-DPLUGIN_ID=\"org.widgethost.crypto\"", "-DPLUGIN_NAME=\"Crypto\""], output: directory + "/crypto.so")
        let names = { (run: TestSupport.HostRun) throws -> [String: String] in
            let cards = try JSONParser.parse(Array(run.stdout.utf8))["cards"]?.array ?? []
            return Dictionary(cards.map { ($0["widget"]?.string ?? "", $0["name"]?.string ?? "") }) { first, _ in first }
        }
        let arguments = ["dashboard", "--once", "--format", "json", "--wait", "20"] + world.arguments
        let replaced = try names(try world.run(arguments + ["--plugin-dir", directory], ["COLUMNS": "120"]))
        #expect(replaced["org.widgethost.crypto"] == "Crypto · not the shipped copy", "\(replaced)")
        #expect(replaced["org.widgethost.trips"] == "My Trips", "\(replaced)")

        let shipped = FileSystem.directory(of: TestSupport.widgetHost) + "/libCryptoPlugin.so"
        try TestSupport.copy(shipped, to: directory + "/crypto.so")
        let identical = try names(try world.run(arguments + ["--plugin-dir", directory], ["COLUMNS": "120"]))
        #expect(identical["org.widgethost.crypto"] == "Crypto", "\(identical)")
    }
}
