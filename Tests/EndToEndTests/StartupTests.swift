import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The commands that run no widget must not load Foundation: its libraries
/// and ICU made up most of the host's start-up (issue 16). The dynamic
/// linker's own log (LD_DEBUG=files) says what a run really loaded, dlopen
/// included.
@Suite("Start-up loads no Foundation")
struct StartupTests {
    @Test("list, store, --help and --version load no Foundation library, with the Swift widgets on the search path",
          arguments: [["--version"], ["list"], ["store", "list"], ["--help"]])
    func noFoundation(arguments: [String]) throws {
        let run = try TestSupport.runHost(arguments, environment: ["LD_DEBUG": "files",
                                                                   "WIDGET_HOST_PLUGIN_PATH": TestSupport.productsDirectory])
        #expect(run.termination == .exited(0), "\(run)")
        let loaded = run.stderr.split(separator: "\n").filter { $0.contains("file=") }
        #expect(!loaded.isEmpty, "LD_DEBUG printed nothing: the check would prove nothing\n\(run)")
        let foundation = loaded.filter { $0.contains("Foundation") || $0.contains("ICU") }
        #expect(foundation.isEmpty, "\(arguments) loaded \(foundation.joined(separator: "\n"))")
    }

    @Test("launching a widget built with Foundation loads it then, and only then")
    func foundationWithItsWidget() throws {
        let run = try TestSupport.runHost(["launch", "crypto", "--once", "--wait", "0"],
                                          environment: ["LD_DEBUG": "files", "WIDGET_HOST_PLUGIN_PATH": TestSupport.productsDirectory])
        #expect(run.stderr.contains("libFoundation"), "\(run.arguments): Foundation never loaded, so the other test's check may be blind")
    }
}
