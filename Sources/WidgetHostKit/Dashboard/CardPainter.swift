/// Draws one card as exactly `height` lines of exactly `width` columns: a
/// box titled with its number and name (and "stale 5 min" when it is), the
/// notice and the view inside, cut to the box with the renderer's "↓ N
/// more" mark when the view is longer. The focused card's title is marked,
/// and bold on a colour terminal.
struct CardPainter {
    let color: Bool
    /// Box drawing and marks in ASCII: the terminal is not UTF-8.
    var ascii = false

    func lines(_ content: CardContent, width: Int, height: Int, number: Int, focused: Bool, now: Int64) -> [String] {
        let renderer = TerminalRenderer(width: width, color: color, ascii: ascii)
        var title = (focused ? renderer.symbols.focus + " " : "") + "\(number) " + content.title
        if content.stale, let at = content.renderedAt { title += (ascii ? " - " : " · ") + "stale \(CardContent.age(now - at))" }
        var children: [ViewNode] = []
        if let notice = content.notice { children.append(.text(notice, style: .body, color: .warning)) }
        if let view = content.view { children.append(view) }
        if content.view == nil, let error = content.error { children.append(.text(error, style: .body, color: .negative)) }
        let layout = renderer.layout(.stack(axis: .vertical, children: children), title: title)
        var lines = layout.window(rows: max(height - 2, 1), offset: 0).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        // A box as tall as its view: the rest of the card is blank below it,
        // the bottom border kept last so the card's extent reads at once.
        // Too narrow, the lines are the renderer's message, not a box.
        if lines.count < height, lines.count >= 2, !renderer.tooNarrow {
            let bottom = lines.removeLast()
            let blank = renderer.symbols.vertical + String(repeating: " ", count: max(renderer.width - 2, 0)) + renderer.symbols.vertical
            lines += Array(repeating: blank, count: height - lines.count - 1) + [bottom]
        }
        lines = Array(lines.prefix(height))
        lines += Array(repeating: "", count: height - lines.count)
        return lines.enumerated().map { index, line in
            let padded = line + String(repeating: " ", count: max(width - Self.columns(line), 0))
            return color && focused && (index == 0 || index == lines.count - 1) ? "\u{1B}[1m" + padded + "\u{1B}[0m" : padded
        }
    }

    /// The columns a line takes on screen: its text less the colour codes
    /// (ESC [ ... m) the renderer put in.
    static func columns(_ line: String) -> Int {
        var text = "", inEscape = false
        for scalar in line.unicodeScalars {
            if inEscape {
                if scalar == "m" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return DisplayWidth.of(text)
    }
}
