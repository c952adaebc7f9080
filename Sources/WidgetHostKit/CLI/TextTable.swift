/// Left-aligned columns separated by two spaces, padded by display width (a
/// CJK name takes two columns a letter); the last column is not padded.
struct TextTable {
    var rows: [[String]]

    func render() -> String {
        // A cell may hold a plugin's words: shown, never obeyed by the terminal.
        let rows = self.rows.map { $0.map { TerminalText.safe($0, lines: false) } }
        guard let width = rows.map(\.count).max(), width > 0 else { return "" }
        let widths = (0..<width).map { column in rows.map { column < $0.count ? DisplayWidth.of($0[column]) : 0 }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - DisplayWidth.of(cell))
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
