/// A list's rows as lines: a label (`[3]` or a bullet), the title, then the
/// row's columns (its cells, or its detail) and its badge, each column lined
/// up across the rows, and a mark at the right of a row that opens a screen.
///
/// A row that does not fit on one line keeps its columns in line: they go
/// on following lines, indented to where the first column starts (or under
/// the title when the titles leave too little room), in the same groups on
/// every row; a column too wide for a line wraps with a hanging indent.
struct ListLayout {
    let renderer: TerminalRenderer
    let rows: [ViewNode.ListRow]
    let labels: [String]

    private struct Cell {
        var text: String
        var alignment: ViewNode.Alignment = .leading
        /// A detail may wrap; a cell (a price, a badge) is kept whole.
        var wraps = false
    }

    func lines(width: Int) -> [TerminalRenderer.Line] {
        let cells = rows.map(cells(of:))
        let columns = (0..<(cells.map(\.count).max() ?? 0)).map { index in cells.compactMap { $0.count > index ? $0[index] : nil } }
        let columnWidths = columns.map { $0.map { DisplayWidth.of($0.text) }.max() ?? 0 }
        let wrapping = columns.map { $0.contains { $0.wraps } }
        let labelWidth = labels.map { DisplayWidth.of($0) }.max() ?? 0
        let titleWidth = rows.map { DisplayWidth.of($0.title) }.max() ?? 0
        let mark = rows.contains { $0.disclosure } ? 2 : 0
        let titleColumn = labelWidth + 1
        let firstColumn = titleColumn + titleWidth + 2
        let oneLine = firstColumn + columnWidths.reduce(0, +) + 2 * max(columnWidths.count - 1, 0) + mark
        if columnWidths.isEmpty || oneLine <= width {
            let rowWidth = columnWidths.isEmpty ? titleColumn + titleWidth + mark : oneLine
            return rows.indices.map { index in
                let groups = [Array(columnWidths.indices)]
                return line(index, cells[index], groups: groups, widths: columnWidths, indent: firstColumn, width: width, rowWidth: rowWidth)[0]
            }
        }
        // Beside the titles when every whole cell fits there and a detail has some room; else under them.
        let room = width - firstColumn - mark
        let besideTitles = firstColumn <= width / 2 && zip(columnWidths, wrapping).allSatisfy { $1 ? room >= min($0, 16) : room >= $0 }
        let indent = besideTitles ? firstColumn : titleColumn
        let groups = Self.groups(columnWidths, room: width - indent - mark)
        return rows.indices.flatMap { index in
            line(index, cells[index], groups: groups, widths: columnWidths, indent: indent, width: width, rowWidth: width, besideTitle: besideTitles)
        }
    }

    /// Consecutive columns that fit a line together; the same for every row, so they line up.
    private static func groups(_ widths: [Int], room: Int) -> [[Int]] {
        var groups: [[Int]] = [], current: [Int] = [], used = 0
        for (index, width) in widths.enumerated() {
            let needed = current.isEmpty ? width : used + 2 + width
            if !current.isEmpty, needed > room {
                groups.append(current)
                current = [index]
                used = width
            } else {
                current.append(index)
                used = needed
            }
        }
        if !current.isEmpty { groups.append(current) }
        return groups
    }

    private func line(_ index: Int, _ cells: [Cell], groups: [[Int]], widths: [Int], indent: Int, width: Int, rowWidth: Int,
                      besideTitle: Bool = true) -> [TerminalRenderer.Line] {
        let row = rows[index]
        let label = labels[index] + String(repeating: " ", count: (labels.map { DisplayWidth.of($0) }.max() ?? 0) - DisplayWidth.of(labels[index]))
        let mark = row.disclosure ? " " + renderer.symbols.disclosure : ""
        let markRoom = rows.contains { $0.disclosure } ? 2 : 0
        var texts = DisplayWidth.wrap(row.title, after: label + " ", columns: width - markRoom)
        let pad = String(repeating: " ", count: indent)
        for (number, group) in groups.enumerated() {
            let present = group.filter { $0 < cells.count }
            guard !present.isEmpty else { continue }
            let text = present.map { column -> String in
                let cell = cells[column], spare = widths[column] - DisplayWidth.of(cell.text)
                return cell.alignment == .trailing ? String(repeating: " ", count: spare) + cell.text : cell.text + String(repeating: " ", count: spare)
            }.joined(separator: "  ")
            let trimmed = String(text.reversed().drop { $0 == " " }.reversed())
            if number == 0, besideTitle, texts.count == 1 {
                let head = texts[0] + String(repeating: " ", count: max(indent - DisplayWidth.of(texts[0]), 0))
                texts = DisplayWidth.wrap(trimmed, after: head, columns: width - markRoom)
            } else {
                texts += DisplayWidth.wrap(trimmed, after: pad, columns: width - markRoom)
            }
        }
        if !mark.isEmpty {
            texts[0] += String(repeating: " ", count: max(rowWidth - markRoom - DisplayWidth.of(texts[0]), 0)) + mark
        }
        return texts.map { TerminalRenderer.Line($0) }
    }

    private func cells(of row: ViewNode.ListRow) -> [Cell] {
        var cells = row.cells.isEmpty ? row.detail.map { [Cell(text: $0, wraps: true)] } ?? [] : row.cells.map(cell)
        if let badge = row.badge { cells.append(Cell(text: "(\(badge))")) }
        return cells
    }

    /// A node as one column's text: a row's cells are words, not actions.
    private func cell(_ node: ViewNode) -> Cell {
        switch node {
        case let .text(text, _, _): return Cell(text: text.replacing("\n", with: " "))
        case let .badge(text, _): return Cell(text: "(\(text))")
        case let .modified(inner, modifiers):
            var cell = cell(inner)
            cell.alignment = modifiers.alignment ?? cell.alignment
            return cell
        default:
            var scratch = TerminalRenderer.Numbering()
            return Cell(text: renderer.lines(node, width: 200, numbering: &scratch).map(\.text).joined(separator: " "))
        }
    }
}
