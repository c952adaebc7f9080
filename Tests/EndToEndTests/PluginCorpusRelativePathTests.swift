import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// A plugin named by a bare file name is a file in the current directory,
/// not a library for dlopen to search the library path for.
@Suite("PluginCorpus: relative paths")
struct PluginCorpusRelativePathTests {
    @Test("validate and info load a plugin named by a bare file name")
    func bareFileName() throws {
        let directory = try TestSupport.makeTemporaryDirectory("relative")
        try TestSupport.compileHello(output: directory + "/hello.so")
        for command in ["validate hello.so", "info hello.so --json"] {
            let run = try ChildProcess.run(
                ["/bin/sh", "-c", "cd '\(directory)' && exec '\(TestSupport.widgetHost)' \(command)"], timeout: 60,
                environment: ["HOME": directory, "XDG_DATA_HOME": directory + "/data", "PATH": "/usr/bin:/bin"])
            let output = String(decoding: run.standardOutput, as: UTF8.self)
            #expect(run.termination == .exited(0), "\(command): \(output)")
            #expect(!output.contains("dlopen failed"), "\(command): \(output)")
        }
    }
}
