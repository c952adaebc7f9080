/// Lays the painted cards out on the grid: where each card's lines go on
/// the terminal, and the whole grid as text (for `--once --format text`).
struct DashboardFrame {
    let grid: CardGrid
    let placements: [CardGrid.Placement]
    let painter: CardPainter

    init(dashboard: Dashboard, width: Int, columns: Int?, color: Bool, ascii: Bool = false) {
        grid = CardGrid(width: width, columns: columns)
        placements = grid.place(dashboard.cards.map(\.spec.size))
        painter = CardPainter(color: color, ascii: ascii)
    }

    /// No card box fits (each is as wide as the terminal below 40 columns):
    /// the terminal says so instead, as `launch` does.
    var tooNarrow: Bool { grid.width < TerminalRenderer.minimumWidth }

    var narrowMessage: [String] { TerminalRenderer(width: grid.width, color: false).narrowMessage }

    /// The grid's height in lines.
    var height: Int { placements.map { $0.y + $0.height }.max() ?? 0 }

    func lines(of dashboard: Dashboard, card index: Int, focused: Bool, now: Int64) -> [String] {
        let place = placements[index]
        return painter.lines(dashboard.cards[index].content, width: place.width, height: place.height, number: index + 1,
                             focused: focused, now: now)
    }

    /// Every line of the grid, cards side by side, blank where no card is.
    func text(of dashboard: Dashboard, focus: Int?, now: Int64) -> [String] {
        guard !tooNarrow else { return narrowMessage }
        var rows = Array(repeating: [(x: Int, text: String)](), count: height)
        for index in placements.indices {
            let place = placements[index]
            for (offset, line) in lines(of: dashboard, card: index, focused: index == focus, now: now).enumerated() {
                rows[place.y + offset].append((place.x, line))
            }
        }
        return rows.map { pieces in
            var line = "", column = 0
            for piece in pieces.sorted(by: { $0.x < $1.x }) {
                line += String(repeating: " ", count: max(piece.x - column, 0)) + piece.text
                column = piece.x + CardPainter.columns(piece.text)
            }
            return line
        }
    }
}
