/// Where the cards go on a terminal of a given width: a grid of cells
/// about `cellWidth` columns wide (so fewer columns when narrow, one below
/// `singleColumnBelow`), each card taking its size's cells, placed in order
/// at the first free spot that fits, row by row (as a home screen fills).
/// A card wider than the grid takes the whole width. Nothing is ever placed
/// past the edge: every cell's columns add up to the width.
public struct CardGrid: Equatable, Sendable {
    public static let cellWidth = 30
    public static let cellHeight = 7
    public static let singleColumnBelow = 40

    public let width: Int
    /// The number of cell columns.
    public let columns: Int

    public struct Placement: Equatable, Sendable {
        /// Cells, from the top left.
        public let column: Int
        public let row: Int
        public let columns: Int
        public let rows: Int
        /// Terminal columns and lines, from the grid's top left.
        public let x: Int
        public let y: Int
        public let width: Int
        public let height: Int
    }

    public init(width: Int, columns wanted: Int? = nil) {
        self.width = max(width, 1)
        let fit = width < Self.singleColumnBelow ? 1 : max(width / Self.cellWidth, 1)
        columns = min(max(wanted ?? fit, 1), fit)
    }

    /// The first terminal column of cell column `index`; the remainder of
    /// the division goes to the leftmost cells, one column each.
    public func x(_ index: Int) -> Int {
        let base = width / columns, extra = width % columns
        return index * base + min(index, extra)
    }

    public func place(_ sizes: [CardSize]) -> [Placement] {
        var taken: Set<[Int]> = []
        var placements: [Placement] = []
        var start = 0   // cells before this one, row-major, are all taken
        for size in sizes {
            let wide = min(size.columns, columns), tall = size.rows
            var spot = start
            while !fits(spot, wide, tall, taken) { spot += 1 }
            let column = spot % columns, row = spot / columns
            for r in row..<(row + tall) { for c in column..<(column + wide) { taken.insert([c, r]) } }
            while taken.contains([start % columns, start / columns]) { start += 1 }
            placements.append(Placement(column: column, row: row, columns: wide, rows: tall, x: x(column), y: row * Self.cellHeight,
                                        width: x(column + wide) - x(column), height: tall * Self.cellHeight))
        }
        return placements
    }

    private func fits(_ spot: Int, _ wide: Int, _ tall: Int, _ taken: Set<[Int]>) -> Bool {
        let column = spot % columns, row = spot / columns
        guard column + wide <= columns else { return false }
        for r in row..<(row + tall) { for c in column..<(column + wide) where taken.contains([c, r]) { return false } }
        return true
    }
}
