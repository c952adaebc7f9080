/// Left-aligned columns separated by two spaces, padded by display width (a
/// CJK name takes two columns a letter); the last column is not padded.
struct TextTable {
    var rows: [[String]]

    /// Plain loops: `list` renders one table a run, and the generic
    /// `joined` it replaced cost more the first time in a process than the
    /// whole table.
    func render() -> String {
        // A cell may hold a plugin's words: shown, never obeyed by the terminal.
        let rows = self.rows.map { $0.map { TerminalText.safe($0, lines: false) } }
        let cellWidths = rows.map { $0.map(DisplayWidth.of) }
        var widths: [Int] = []
        for row in cellWidths {
            for (column, width) in row.enumerated() {
                if column == widths.count { widths.append(width) } else { widths[column] = max(widths[column], width) }
            }
        }
        guard !widths.isEmpty else { return "" }
        // Bytes, made into one String at the end: a String appended to cell
        // by cell, with a String of spaces for each gap, cost five times as much.
        var text: [UInt8] = []
        for (row, rowWidths) in zip(rows, cellWidths) {
            for (column, cell) in row.enumerated() {
                text += cell.utf8
                if column < row.count - 1 { text += repeatElement(UInt8(ascii: " "), count: widths[column] - rowWidths[column] + 2) }
            }
            text.append(UInt8(ascii: "\n"))
        }
        return String(decoding: text, as: UTF8.self)
    }
}
