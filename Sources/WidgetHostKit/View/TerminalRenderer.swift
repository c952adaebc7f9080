/// Draws a screen for a terminal: a box sized to the terminal (at most
/// `maximumWidth` columns, so a line stays readable on a wide one), with
/// every action numbered in on-screen order. Widths are display columns, so
/// wide and combining characters line up; colour is used only when asked
/// for. A terminal narrower than `minimumWidth` gets a short "too narrow"
/// message instead of a box it would wrap into garbage.
public struct TerminalRenderer {
    /// The columns the box takes.
    public let width: Int
    public let color: Bool
    /// The terminal has fewer than `minimumWidth` columns: no box fits.
    public let tooNarrow: Bool

    public static let minimumWidth = 24
    public static let maximumWidth = 100

    public init(width: Int, color: Bool) {
        tooNarrow = width < Self.minimumWidth
        self.width = tooNarrow ? max(width, 1) : min(width, Self.maximumWidth)
        self.color = color
    }

    public func render(_ view: ViewNode, title: String, footer: String? = nil) -> String {
        layout(view, title: title).text + footerText(footer)
    }

    /// The panel shown instead of a screen that could not be rendered.
    public func errorPanel(plugin: String, screen: String, reason: String, footer: String? = nil) -> String {
        errorLayout(plugin: plugin, screen: screen, reason: reason).text + footerText(footer)
    }

    /// A screen laid out for the width, before it is cut to a terminal's height.
    public func layout(_ view: ViewNode, title: String) -> Layout {
        guard !tooNarrow else { return Layout(renderer: self, title: "", body: []) }
        var numbering = Numbering()
        return Layout(renderer: self, title: ViewNode.visible(title, lines: false), body: lines(view.visible, width: width - 4, numbering: &numbering))
    }

    public func errorLayout(plugin: String, screen: String, reason: String) -> Layout {
        guard !tooNarrow else { return Layout(renderer: self, title: "", body: []) }
        let inner = width - 4
        let heading = ViewNode.visible("\(plugin) could not render '\(screen)'")
        var body = DisplayWidth.wrap(heading, columns: inner).map { Line($0, .negative, bold: true) }
        body += DisplayWidth.wrap(ViewNode.visible(reason), columns: inner).map { Line($0, .secondary) }
        return Layout(renderer: self, title: "Error", body: body)
    }

    /// The lines under the box (keys, a message), wrapped to the width; none
    /// on a terminal too narrow to show them whole.
    public func footerLines(_ footer: String?) -> [String] {
        guard let footer, !tooNarrow else { return [] }
        return DisplayWidth.wrap(ViewNode.visible(footer), columns: width)
    }

    private func footerText(_ footer: String?) -> String {
        footerLines(footer).map { $0 + "\n" }.joined()
    }

    /// A screen as lines of a box: all of it (`text`), or a window of its
    /// body for a terminal shorter than the screen, whose borders say how
    /// many lines are above and below.
    public struct Layout {
        let renderer: TerminalRenderer
        let title: String
        let body: [Line]

        /// The number of body lines: what a window scrolls over.
        public var bodyCount: Int { renderer.tooNarrow ? renderer.narrowMessage.count : body.count }

        public var text: String { window(rows: bodyCount, offset: 0) }

        /// `rows` body lines from `offset` (clamped), between the borders.
        public func window(rows: Int, offset: Int) -> String {
            if renderer.tooNarrow { return renderer.narrowMessage.prefix(max(rows, 1)).map { $0 + "\n" }.joined() }
            let rows = max(min(rows, body.count), 0)
            let offset = Self.clamp(offset, count: body.count, rows: rows)
            let above = offset, below = body.count - offset - rows
            var out = renderer.border("┌─", title: title, more: above > 0 ? "↑ \(above) more" : nil, "┐")
            for line in body[offset..<(offset + rows)] {
                let padding = String(repeating: " ", count: max(renderer.width - 4 - DisplayWidth.of(line.text), 0))
                out += "│ " + renderer.styled(line) + padding + " │\n"
            }
            return out + renderer.border("└", title: nil, more: below > 0 ? "↓ \(below) more" : nil, "┘")
        }

        /// The first line a window of `rows` can start at, nearest `offset`.
        public static func clamp(_ offset: Int, count: Int, rows: Int) -> Int {
            max(min(offset, count - rows), 0)
        }
    }

    /// Said instead of a box on a terminal too narrow for one, in words that wrap cleanly.
    var narrowMessage: [String] {
        DisplayWidth.wrap("Too narrow: \(width) columns; needs at least \(Self.minimumWidth).", columns: width)
    }

    struct Line {
        var text: String
        var color: ViewNode.SemanticColor
        var bold = false
        var dim = false
        var italic = false

        init(_ text: String, _ color: ViewNode.SemanticColor = .primary, bold: Bool = false, dim: Bool = false, italic: Bool = false) {
            self.text = text
            self.color = color
            self.bold = bold
            self.dim = dim
            self.italic = italic
        }
    }

    private struct Numbering {
        var next = 1
        mutating func label() -> String {
            defer { next += 1 }
            return "[\(next)]"
        }
    }

    private func lines(_ node: ViewNode, width: Int, numbering: inout Numbering) -> [Line] {
        switch node {
        case let .stack(.vertical, children):
            return children.flatMap { lines($0, width: width, numbering: &numbering) }
        case let .stack(.horizontal, children):
            let parts = children.map { lines($0, width: width, numbering: &numbering) }
            let joined = parts.map { $0.map(\.text).joined(separator: " ") }.joined(separator: "  ")
            if DisplayWidth.of(joined) <= width, parts.allSatisfy({ $0.count <= 1 }) {
                return [Line(joined, parts.first?.first?.color ?? .primary)]
            }
            return parts.flatMap { $0 }
        case let .section(header, children):
            var result = [Line("")] + DisplayWidth.wrap(header.uppercased(), columns: width).map { Line($0, .secondary, bold: true) }
            result += children.flatMap { lines($0, width: width, numbering: &numbering) }
            return result
        case let .text(text, style, color):
            return DisplayWidth.wrap(text, columns: width).map {
                Line($0, style == .caption ? .secondary : color, bold: style == .title || style == .headline,
                     dim: style == .caption, italic: style == .emphasis)
            }
        case let .button(title, _, _):
            return DisplayWidth.wrap("\(numbering.label()) \(title)", columns: width).map { Line($0, bold: true) }
        case let .field(label, _, placeholder, value, _):
            // An empty field shows an empty box and its placeholder dimmed
            // after it, so a hint never reads as a value, colour or not.
            let prefix = "\(numbering.label()) " + (label.map { "\($0): " } ?? "")
            guard value.isEmpty else { return DisplayWidth.wrap(prefix + "[" + value + "]", columns: width).map { Line($0) } }
            return DisplayWidth.wrap(prefix + "[ ]" + (placeholder.isEmpty ? "" : " " + placeholder), columns: width)
                .map { Line($0, .secondary, dim: true, italic: true) }
        case let .list(action, rows):
            let labels = rows.map { _ in action == nil ? "•" : numbering.label() }
            let titleWidth = rows.map { DisplayWidth.of($0.title) }.max() ?? 0
            // [9] and [10] take different widths: pad, so titles and details stay in their columns.
            let labelWidth = labels.map { DisplayWidth.of($0) }.max() ?? 0
            return zip(labels, rows).flatMap { label, row -> [Line] in
                var text = label + String(repeating: " ", count: labelWidth - DisplayWidth.of(label)) + " \(row.title)"
                if let detail = row.detail {
                    text += String(repeating: " ", count: titleWidth - DisplayWidth.of(row.title)) + "  " + detail
                }
                if let badge = row.badge { text += "  (\(badge))" }
                return DisplayWidth.wrap(text, columns: width).map { Line($0) }
            }
        case .divider:
            return [Line(String(repeating: "─", count: width), .secondary)]
        case .spacer:
            return [Line("")]
        case let .badge(text, color):
            return DisplayWidth.wrap("(\(text))", columns: width).map { Line($0, color, bold: true) }
        case let .image(alt, _):
            return DisplayWidth.wrap("[image: \(alt)]", columns: width).map { Line($0, .secondary) }
        case let .progress(label, fraction):
            let text: String
            if let fraction {
                let cells = max(min(width - 8, 20), 4)
                let filled = Int((fraction * Double(cells)).rounded())
                text = "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: cells - filled) + "] \(Int((fraction * 100).rounded()))%"
            } else {
                text = "…"
            }
            // The bar always fits a line; a label that does not fit beside it goes above it, so
            // wrapping never breaks the bar at its empty cells.
            guard let label, DisplayWidth.of("\(label) \(text)") > width else {
                return [Line(label.map { "\($0) \(text)" } ?? text, .secondary)]
            }
            return DisplayWidth.wrap(label, columns: width).map { Line($0, .secondary) } + [Line(text, .secondary)]
        case let .link(title, _):
            return DisplayWidth.wrap("\(numbering.label()) \(title) →", columns: width).map { Line($0, bold: true) }
        case let .chart(chart):
            let title = chart.title.map { DisplayWidth.wrap($0, columns: width).map { Line($0, bold: true) } } ?? []
            return title + [Line(Sparkline.row(chart, width: width), .positive)]
                + DisplayWidth.wrap(Sparkline.summary(chart), columns: width).map { Line($0, .secondary) }
        case let .unknown(kind):
            return DisplayWidth.wrap("[unsupported view: \(kind)]", columns: width).map { Line($0, .warning) }
        }
    }

    /// A border line: `open`, the title, a run of ─, what is beyond the window, `close`.
    private func border(_ open: String, title: String?, more: String?, _ close: String) -> String {
        let right = more.map { " \($0) ─" } ?? ""
        let room = width - DisplayWidth.of(open) - DisplayWidth.of(right) - DisplayWidth.of(close)
        let heading = title.map { DisplayWidth.prefix(" \($0) ", fitting: room - 1) } ?? ""
        return open + heading + String(repeating: "─", count: max(room - DisplayWidth.of(heading), 0)) + right + close + "\n"
    }

    fileprivate func styled(_ line: Line) -> String {
        guard color, !line.text.isEmpty else { return line.text }
        var codes: [String] = []
        if line.bold { codes.append("1") }
        if line.dim { codes.append("2") }
        if line.italic { codes.append("3") }
        switch line.color {
        case .primary: break
        case .secondary: codes.append("90")
        case .positive: codes.append("32")
        case .negative: codes.append("31")
        case .warning: codes.append("33")
        }
        return codes.isEmpty ? line.text : "\u{1B}[" + codes.joined(separator: ";") + "m" + line.text + "\u{1B}[0m"
    }
}

extension ViewNode {
    /// The tree with every string made safe for a terminal (see `visible(_:)`).
    var visible: ViewNode {
        func clean(_ text: String) -> String { Self.visible(text) }
        func line(_ text: String) -> String { Self.visible(text, lines: false) }
        switch self {
        case let .stack(axis, children): return .stack(axis: axis, children: children.map(\.visible))
        case let .section(header, children): return .section(header: line(header), children: children.map(\.visible))
        case let .text(text, style, color): return .text(clean(text), style: style, color: color)
        case let .button(title, action, value): return .button(title: line(title), action: action, value: value)
        case let .field(label, action, placeholder, value, input):
            return .field(label: label.map(line), action: action, placeholder: line(placeholder), value: line(value), input: input)
        case let .list(action, rows):
            return .list(action: action, rows: rows.map {
                ListRow(id: $0.id, title: line($0.title), detail: $0.detail.map(line), badge: $0.badge.map(line))
            })
        case let .badge(text, color): return .badge(line(text), color: color)
        case let .image(alt, url): return .image(alt: line(alt), url: url)
        case let .progress(label, fraction): return .progress(label: label.map(line), fraction: fraction)
        case let .link(title, target): return .link(title: line(title), target: target)
        case let .chart(chart):
            return .chart(Chart(title: chart.title.map(line), style: chart.style, points: chart.points.map { .init(label: line($0.label), value: $0.value) }))
        case let .unknown(kind): return .unknown(kind: line(kind))
        case .divider, .spacer: return self
        }
    }

    /// A plugin's text as the terminal may show it (see `TerminalText`).
    static func visible(_ text: String, lines: Bool = true) -> String { TerminalText.safe(text, lines: lines) }
}
