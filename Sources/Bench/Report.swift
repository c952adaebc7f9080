import WidgetHostKit

/// The benchmark's output: a Markdown table for the README, or JSON.
enum Report {
    static func table(_ rows: [Measurement]) -> String {
        var lines = ["| group | measurement | value (median) | compared with (median) | ratio | goal |", "| --- | --- | ---: | --- | ---: | --- |"]
        for row in rows {
            let baseline = row.baseline.map { "\($0.name): \($0.value.figure) \(row.unit)" } ?? ""
            var ratio = row.ratio.map { $0.figure + "×" } ?? ""
            if let paired = row.paired { ratio += " (\(paired.low.figure)–\(paired.high.figure))" }
            var goal = row.goal.map { "≤ \($0.figure)× " + (row.met == true ? "met" : "**missed**") } ?? ""
            if let note = row.note { goal += (goal.isEmpty ? "" : "; ") + note }
            lines.append("| \(row.group) | \(row.name) | \(row.value.figure) \(row.unit) | \(baseline) | \(ratio) | \(goal) |")
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ rows: [Measurement]) -> String {
        JSONValue.array(rows.map { row in
            [
                "group": .string(row.group), "name": .string(row.name), "value": number(row.value), "unit": .string(row.unit),
                "baseline": row.baseline.map { ["name": .string($0.name), "value": number($0.value)] } ?? .null,
                "ratio": row.ratio.map(number) ?? .null, "goal": row.goal.map(number) ?? .null,
                "met": row.met.map(JSONValue.bool) ?? .null, "note": .optional(row.note),
                "spread": row.paired.map { [number($0.low), number($0.high)] } ?? .null,
            ]
        }).serialized
    }

    private static func number(_ value: Double) -> JSONValue {
        value.isFinite ? .number(String(value)) : .null
    }
}
