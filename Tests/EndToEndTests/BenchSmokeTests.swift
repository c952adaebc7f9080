import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The benchmark is run here only as a smoke test, with tiny sizes: it must
/// run every group and produce figures. No test asserts a time.
@Suite("Benchmark smoke test")
struct BenchSmokeTests {
    @Test("widget-host-bench --quick --json-to FILE measures every group, printing the table and writing the same rows as JSON")
    func quickRun() throws {
        let bench = TestSupport.productsDirectory + "/widget-host-bench"
        let report = NSTemporaryDirectory() + "bench-report-\(getpid()).json"
        defer { try? FileManager.default.removeItem(atPath: report) }
        let run = try ChildProcess.run([bench, "--quick", "--json-to", report], timeout: 600)
        #expect(run.termination == .exited(0), "\(String(decoding: run.standardError, as: UTF8.self))")
        let table = String(decoding: run.standardOutput, as: UTF8.self)
        #expect(table.hasPrefix("| group | measurement |"), "\(table.prefix(200))")
        let rows = try #require(try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: report)))).array)
        #expect(table.split(separator: "\n").count == rows.count + 2, "a table row for each JSON row, under a header and a rule")
        let groups = Set(rows.compactMap { $0["group"]?.string })
        for group in ["discovery", "load", "abi", "bus", "registry", "memory", "startup", "trips", "Serve"] {
            #expect(groups.contains(group), "no \(group) rows in \(groups.sorted())")
        }
        // Every row has a finite figure (a difference of two timings may dip
        // below zero at tiny sizes), and every compared row a ratio.
        for row in rows {
            guard case let .number(value)? = row["value"], let figure = Double(value) else {
                Issue.record("a row without a value: \(row.serialized)")
                continue
            }
            #expect(figure.isFinite, "\(row.serialized)")
            if row["baseline"] != .null { #expect(row["ratio"] != .null, "\(row.serialized)") }
        }
    }

    @Test("an unknown option is a usage error")
    func unknownOption() throws {
        let run = try ChildProcess.run([TestSupport.productsDirectory + "/widget-host-bench", "--fast"], timeout: 60)
        #expect(run.termination == .exited(2))
        #expect(String(decoding: run.standardError, as: UTF8.self).contains("unknown option --fast"))
    }

    @Test("--check without a file is a usage error; an unreadable or empty figures file fails before measuring")
    func checkNeedsReadableFigures() throws {
        let bench = TestSupport.productsDirectory + "/widget-host-bench"
        let bare = try ChildProcess.run([bench, "--check"], timeout: 60)
        #expect(bare.termination == .exited(2))
        #expect(String(decoding: bare.standardError, as: UTF8.self).contains("--check needs a file"))
        let bareReport = try ChildProcess.run([bench, "--quick", "--json-to"], timeout: 60)
        #expect(bareReport.termination == .exited(2))
        #expect(String(decoding: bareReport.standardError, as: UTF8.self).contains("--json-to needs a file"))

        let missing = try ChildProcess.run([bench, "--check", "/nonexistent/figures.json"], timeout: 60)
        #expect(missing.termination == .exited(1))
        #expect(String(decoding: missing.standardError, as: UTF8.self).contains("cannot read the checked-in figures"))

        let empty = NSTemporaryDirectory() + "bench-figures-\(getpid()).json"
        try Data("[]".utf8).write(to: URL(fileURLWithPath: empty))
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let none = try ChildProcess.run([bench, "--check", empty], timeout: 60)
        #expect(none.termination == .exited(1))
        #expect(String(decoding: none.standardError, as: UTF8.self).contains("no rows with a name and a value"))
    }
}
