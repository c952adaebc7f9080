extension DisplayWidth {
    /// The longest prefix of `text` that fits in `columns` (empty when the
    /// first cluster does not, or `columns` is 0 or less).
    public static func prefix(_ text: String, fitting columns: Int) -> String {
        var width = 0
        var end = text.startIndex
        for index in text.indices {
            let next = width + of(text[index])
            if next > columns { break }
            width = next
            end = text.index(after: index)
        }
        return String(text[..<end])
    }

    /// Words wrapped into lines of at most `columns`, one or more lines per
    /// paragraph ("\n"); a word longer than a line is broken. Every line
    /// fits, whatever the text: a cluster wider than the whole line (a wide
    /// character in one column, a base with dozens of spacing marks) is
    /// shown as `…`, or dropped when not even that fits (0 columns). Each
    /// cluster is measured once, so the work grows with the text, not its square.
    public static func wrap(_ text: String, columns: Int) -> [String] {
        let columns = max(columns, 0)
        return text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { paragraph in
            var breaker = LineBreaker(columns: columns)
            return breaker.lines(of: paragraph)
        }
    }

    /// `text` after `prefix` (`[1] `, a row's title column, an indent), wrapped so that every
    /// line after the first starts where the text did: a hanging indent, so a wrapped line
    /// keeps its place. A prefix wider than half the line gives way to an indent of half.
    public static func wrap(_ text: String, after prefix: String, columns: Int) -> [String] {
        let columns = max(columns, 0)
        let prefixWidth = of(prefix)
        guard prefixWidth <= columns / 2 else { return wrap(prefix + text, columns: columns) }
        var first = true
        return text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { paragraph in
            defer { first = false }
            var breaker = LineBreaker(columns: columns, start: first ? prefix : String(repeating: " ", count: prefixWidth), indent: prefixWidth)
            return breaker.lines(of: paragraph)
        }
    }
}

/// Fills the lines of one paragraph word by word, in one pass.
private struct LineBreaker {
    let columns: Int
    private var lines: [String] = []
    private var line = "", lineWidth = 0
    /// The spaces since the last word: kept between words on one line, so
    /// columns (a list's details) stay lined up; dropped at a line's start.
    private var gap = 0
    private var word: [(character: Character, width: Int)] = [], wordWidth = 0
    /// Each line after the first starts with this many spaces.
    private let indent: Int
    /// The width at which the current line's words start (its prefix or indent).
    private var lineStart: Int

    init(columns: Int, start: String = "", indent: Int = 0) {
        self.columns = columns
        self.indent = indent
        line = start
        lineWidth = DisplayWidth.of(start)
        lineStart = lineWidth
    }

    private var lineIsEmpty: Bool { lineWidth == lineStart }

    mutating func lines(of paragraph: Substring) -> [String] {
        let clusters = paragraph.map { (character: $0, width: DisplayWidth.of($0)) }
        // A paragraph that fits stays as it is, leading and trailing spaces too.
        if lineWidth + clusters.reduce(0, { $0 + $1.width }) <= columns { return [line + String(paragraph)] }
        for cluster in clusters {
            if cluster.character == " " {
                endWord()
                gap += 1
            } else if let shown = fitted(cluster) {
                word.append(shown)
                wordWidth += shown.width
            }
        }
        endWord()
        lines.append(line)
        return lines
    }

    /// `cluster`, or what stands for it when it is wider than a whole line.
    private func fitted(_ cluster: (character: Character, width: Int)) -> (character: Character, width: Int)? {
        if cluster.width <= columns - indent { return cluster }
        return columns - indent >= 1 ? ("…", 1) : nil
    }

    private mutating func endWord() {
        guard !word.isEmpty else { return }
        if !lineIsEmpty, lineWidth + gap + wordWidth > columns { endLine() }
        if !lineIsEmpty {
            line += String(repeating: " ", count: gap)
            lineWidth += gap
        }
        // Only a word longer than a line breaks here: every cluster fits an empty line.
        for cluster in word {
            if lineWidth + cluster.width > columns, !lineIsEmpty { endLine() }
            line.append(cluster.character)
            lineWidth += cluster.width
        }
        word = []
        wordWidth = 0
        gap = 0
    }

    private mutating func endLine() {
        lines.append(line)
        line = String(repeating: " ", count: indent)
        lineWidth = indent
        lineStart = indent
    }
}
