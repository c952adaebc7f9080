import Foundation
import PluginKit

/// `--check FILE`: the instruction rows of this run against the figures
/// checked into the repository (the `--json` output of the same command),
/// for CI. Instruction counts repeat to a fraction of a percent where wall
/// time moves severalfold, so a row more than `tolerance` above its figure
/// is a regression, not noise.
enum InstructionCheck {
    static let tolerance = 0.10
    /// Rows of a few dozen instructions (a closure call, a slot read) move
    /// by a handful when unrelated code changes the layout around them: a
    /// rise is a regression only when it is also more than this many
    /// instructions.
    static let slack = 10.0

    /// The checked-in figures, read before anything is measured so that a
    /// bad file fails at once.
    static func load(_ path: String) throws -> [(name: String, value: Double)] {
        guard let data = FileManager.default.contents(atPath: path) else { throw BenchError("\(path): cannot read the checked-in figures") }
        let expected: [(name: String, value: Double)]
        do {
            expected = try (JSONParser.parse([UInt8](data), maxDepth: 8).array ?? []).compactMap { row in
                guard let name = row["name"]?.string, case let .number(text)? = row["value"], let value = Double(text) else { return nil }
                return (name, value)
            }
        } catch { throw BenchError("\(path): \(error)") }
        guard !expected.isEmpty else { throw BenchError("\(path): no rows with a name and a value") }
        return expected
    }

    /// One line per checked row, and whether every row held.
    static func compare(_ rows: [Measurement], with expected: [(name: String, value: Double)]) -> (report: String, passed: Bool) {
        var lines: [String] = [], passed = true
        for (name, figure) in expected {
            guard let row = rows.first(where: { $0.name == name }) else {
                lines.append("MISSING   \(name): checked in but not measured")
                passed = false
                continue
            }
            let measured = row.value, change = measured / figure - 1
            let regressed = change > tolerance && (row.unit != "instructions" || measured - figure > slack)
            let verdict = regressed ? "REGRESSED" : change < -tolerance ? "faster" : "ok"
            if regressed { passed = false }
            lines.append("\(verdict.padding(toLength: 9, withPad: " ", startingAt: 0)) \(name): \(measured.figure), checked in \(figure.figure) "
                + "(\(change >= 0 ? "+" : "")\((change * 100).figure)%)" + (verdict == "faster" ? ": refresh the figures with --update" : ""))
        }
        return (lines.joined(separator: "\n"), passed)
    }
}
