import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

private typealias Kit = IsolationTestKit

/// The public C headers: usable from C++ without a warning, every function
/// pointer tagged with the thread it may be called on, every service table
/// saying how it grows and offering typed wrappers.
@Suite("C headers")
struct CHeaderTests {
    private static let root = TestSupport.includeDirectory + "/widget_host"
    private static let tags = ["[main-thread]", "[any-thread]", "[call-thread]", "[in-call]"]

    private static func headers() throws -> [(name: String, text: String)] {
        let names = try FileManager.default.subpathsOfDirectory(atPath: root).filter { $0.hasSuffix(".h") }.sorted()
        return try names.map { ($0, try String(contentsOfFile: root + "/" + $0, encoding: .utf8)) }
    }

    /// The lines that declare a function pointer, with the text since the
    /// previous one (where its comment is).
    private static func functionPointers(_ text: String) -> [(declaration: String, context: String)] {
        var found: [(String, String)] = []
        var pending = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            pending += line + "\n"
            if line.contains(/\(\*\w+\)\(/) {
                found.append((String(line), pending))
                pending = ""
            }
        }
        return found
    }

    @Test("wh_buffer keeps a service's answer NUL-terminated, keeps what fits of one too long and says so", arguments: ["gcc", "g++"])
    func outputBuffer(compiler: String) throws {
        let directory = try TestSupport.makeTemporaryDirectory("buffer")
        let program = directory + "/buffer"
        let language = compiler == "g++" ? ["-x", "c++"] : []
        try OutOfTreeSwiftPluginTests.run([try OutOfTreeSwiftPluginTests.executable(compiler), "-Wall", "-Wextra", "-Werror"] + language
            + ["-I", TestSupport.includeDirectory, TestSupport.packageRoot + "/Tests/Fixtures/buffer_check.c", "-o", program])
        let run = try ChildProcess.run([program], timeout: 30, environment: [:])
        #expect(String(decoding: run.standardOutput, as: UTF8.self) == "0 [abc] 3 0\n-1 [abcdefg] 7 1\n0 [] 0 0\n")
    }

    @Test("a C++ plugin builds with g++ -Wall -Wextra -Wpedantic -Werror and runs, in process and isolated")
    func cxxPlugin() throws {
        let directory = try TestSupport.makeTemporaryDirectory("cxx-plugin")
        try TestSupport.compileC(source: TestSupport.fixtureDirectory + "/cxx_plugin.cpp", flags: ["-Wpedantic", "-std=c++17"],
                                 output: directory + "/cxx.so", compiler: "g++")
        let home = try Kit.Home()
        let arguments = ["launch", "org.example.cxx", "--plugin-dir", directory, "--actions", "save=hi", "--once", "--format", "json"]
        let inProcess = try home.run(arguments)
        let isolated = try home.run(arguments + ["--isolate"])
        #expect(inProcess.status == 0, "\(inProcess)")
        // Saved through the store wrapper; the bus, not granted, answers
        // WH_NO_SERVICE through its wrapper instead of crashing on NULL.
        #expect(inProcess.stdout.contains("saved 1, bus -100"), "\(inProcess)")
        #expect(isolated.stdout == inProcess.stdout, "in process:\n\(inProcess)\nisolated:\n\(isolated)")
    }

    @Test("every public header that declares anything is wrapped for C++")
    func externCGuards() throws {
        for (name, text) in try Self.headers() where name != "version.h" && name != "widget_host.h" {
            #expect(text.contains("WH_BEGIN_DECLS") && text.contains("WH_END_DECLS"), "\(name) has no extern \"C\" guard")
        }
    }

    @Test("every function pointer carries exactly one thread tag from the vocabulary")
    func threadTags() throws {
        var count = 0
        for (name, text) in try Self.headers() {
            for (declaration, context) in Self.functionPointers(text) {
                count += 1
                let tags = Self.tags.filter { context.contains($0) }
                #expect(tags.count == 1, "\(name): \(declaration.trimmingCharacters(in: .whitespaces)) has tags \(tags)")
                let any = context.matches(of: /\[[a-z]+-thread\]/).map { String($0.output) }
                #expect(any.allSatisfy(Self.tags.contains), "\(name): a tag outside the vocabulary: \(any)")
            }
        }
        #expect(count >= 25)
    }

    @Test("the growth rule is stated once, in version.h, and every header that grows points to it")
    func growthRuleStatedOnce() throws {
        let headers = try Self.headers()
        let stating = headers.filter { $0.text.contains("The growth rule, stated here once") }.map(\.name)
        #expect(stating == ["version.h"])
        // The words a restatement would use: none outside version.h.
        for (name, text) in headers where name != "version.h" {
            for phrase in ["never changes once", "appending", "Grows by a new id", "Later minors"] {
                #expect(!text.contains(phrase), "\(name) restates the growth rule (\"\(phrase)\")")
            }
        }
        for name in ["plugin.h", "host.h"] {
            #expect(headers.first { $0.name == name }?.text.contains("growth rule") == true, "\(name) does not point to the growth rule")
        }
    }

    @Test("every service header points to the growth rule and has a typed wrapper for each function")
    func serviceHeaders() throws {
        let services = try Self.headers().filter { $0.name.hasPrefix("services/") }
        // One header per service family: http.h holds http/1 and http/2.
        let families = Set(ServiceCatalog.all.map { $0.id.dropFirst("widget-host.".count).prefix { $0 != "/" } })
        #expect(services.count == families.count)
        for (name, text) in services {
            let service = String(name.dropFirst("services/".count).dropLast(2))
            #expect(text.contains("how a service grows is the growth rule in version.h"), "\(name) does not point to the growth rule")
            // A contract's table is asked for by the contract's id, which the plugin chooses: the same ref, its own wh_use.
            let namedByPlugin = "wh_\(service)_ref wh_use_\(service)(const wh_host *host, const char *id)"
            #expect(text.contains("WH_SERVICE_REF(\(service),") || (text.contains("WH_SERVICE_REF_TYPE(\(service),") && text.contains(namedByPlugin)),
                    "\(name) has no wh_\(service)_ref and wh_use_\(service)")
            for (declaration, _) in Self.functionPointers(text) {
                let function = try #require(declaration.firstMatch(of: /\(\*(\w+)\)/)?.output.1)
                let wrapper = function == service ? "wh_\(service)(" : "wh_\(service)_\(function)("
                #expect(text.contains(wrapper), "\(name): no wrapper \(wrapper))")
            }
        }
    }
}
