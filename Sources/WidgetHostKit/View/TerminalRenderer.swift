/// Draws a screen for a terminal: a box sized to the terminal (at most
/// `maximumWidth` columns, so a line stays readable on a wide one), with
/// every action numbered in on-screen order; the walk that draws the
/// numbers collects the actions they choose (`Layout.actions`). Widths are display columns, so
/// wide and combining characters line up; colour is used only when asked
/// for. A terminal narrower than `minimumWidth` gets a short "too narrow"
/// message instead of a box it would wrap into garbage.
public struct TerminalRenderer {
    /// The columns the box takes.
    public let width: Int
    public let color: Bool
    /// Box drawing and marks in UTF-8, or ASCII for a terminal that is not UTF-8.
    public let symbols: TerminalSymbols
    /// The terminal has fewer than `minimumWidth` columns: no box fits.
    public let tooNarrow: Bool

    public static let minimumWidth = 24
    public static let maximumWidth = 100

    public init(width: Int, color: Bool, ascii: Bool = false) {
        tooNarrow = width < Self.minimumWidth
        self.width = tooNarrow ? max(width, 1) : min(width, Self.maximumWidth)
        self.color = color
        symbols = TerminalSymbols(ascii: ascii)
    }

    /// For the terminal `environment` describes: its width, colour and character set.
    public init(environment: [String: String], fd: Int32 = 1) {
        self.init(width: Terminal.width(environment: environment, fd: fd), color: Terminal.color(environment: environment, fd: fd),
                  ascii: Terminal.ascii(environment: environment))
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
        let title = shown(ViewNode.visible(title, lines: false))
        let view = symbols.ascii ? view.visible.mappingStrings { text, _ in TerminalSymbols.asciiText(text) } : view.visible
        let body = lines(view.droppingHeading(title), width: width - 4, numbering: &numbering)
        return Layout(renderer: self, title: title, body: body, actions: numbering.actions)
    }

    public func errorLayout(plugin: String, screen: String, reason: String) -> Layout {
        guard !tooNarrow else { return Layout(renderer: self, title: "", body: []) }
        let inner = width - 4
        let heading = shown(ViewNode.visible("\(plugin) could not render '\(screen)'"))
        var body = DisplayWidth.wrap(heading, columns: inner).map { Line($0, .negative, bold: true) }
        body += DisplayWidth.wrap(shown(ViewNode.visible(reason)), columns: inner).map { Line($0, .secondary) }
        return Layout(renderer: self, title: "Error", body: body)
    }

    /// The lines under the box (keys, a message), wrapped to the width; none
    /// on a terminal too narrow to show them whole.
    public func footerLines(_ footer: String?) -> [String] {
        guard let footer, !tooNarrow else { return [] }
        return DisplayWidth.wrap(shown(ViewNode.visible(footer)), columns: width)
    }

    /// Text as this terminal's character set can show it.
    func shown(_ text: String) -> String { symbols.ascii ? TerminalSymbols.asciiText(text) : text }

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
        /// What each number on the screen chooses, `[1]` first: none on a
        /// terminal too narrow to show them. Titles are as shown (made safe
        /// for the terminal); ids and values are the widget's own.
        public var actions: [ScreenAction] = []

        /// The number of body lines: what a window scrolls over.
        public var bodyCount: Int { renderer.tooNarrow ? renderer.narrowMessage.count : body.count }

        public var text: String { window(rows: bodyCount, offset: 0) }

        /// `rows` body lines from `offset` (clamped), between the borders.
        public func window(rows: Int, offset: Int) -> String {
            if renderer.tooNarrow { return renderer.narrowMessage.prefix(max(rows, 1)).map { $0 + "\n" }.joined() }
            let rows = max(min(rows, body.count), 0)
            let offset = Self.clamp(offset, count: body.count, rows: rows)
            let above = offset, below = body.count - offset - rows
            let symbols = renderer.symbols
            var out = renderer.border(symbols.topLeft + symbols.horizontal, title: title, more: above > 0 ? "\(symbols.up) \(above) more" : nil,
                                      symbols.topRight)
            for line in body[offset..<(offset + rows)] {
                let padding = String(repeating: " ", count: max(renderer.width - 4 - DisplayWidth.of(line.text), 0))
                out += symbols.vertical + " " + renderer.styled(line) + padding + " " + symbols.vertical + "\n"
            }
            return out + renderer.border(symbols.bottomLeft, title: nil, more: below > 0 ? "\(symbols.down) \(below) more" : nil, symbols.bottomRight)
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
        /// Reverse video: a primary button.
        var inverse = false

        init(_ text: String, _ color: ViewNode.SemanticColor = .primary, bold: Bool = false, dim: Bool = false, italic: Bool = false,
             inverse: Bool = false) {
            self.text = text
            self.color = color
            self.bold = bold
            self.dim = dim
            self.italic = italic
            self.inverse = inverse
        }
    }

    /// Numbers actions as they are drawn and keeps what each number chooses.
    struct Numbering {
        private(set) var actions: [ScreenAction] = []

        mutating func label(_ action: ScreenAction) -> String {
            actions.append(action)
            return "[\(actions.count)]"
        }
    }

    func lines(_ node: ViewNode, width: Int, numbering: inout Numbering) -> [Line] {
        switch node {
        case let .stack(axis, children):
            return stack(axis, children, spacing: nil, width: width, numbering: &numbering)
        case let .section(header, children):
            var result = [Line("")] + DisplayWidth.wrap(header.uppercased(), columns: width).map { Line($0, .secondary, bold: true) }
            result += children.flatMap { lines($0, width: width, numbering: &numbering) }
            return result
        case let .text(text, style, color):
            // A text's own leading spaces are its indent: its wrapped lines keep it.
            let indent = String(text.prefix { $0 == " " })
            return DisplayWidth.wrap(String(text.dropFirst(indent.count)), after: indent, columns: width).map {
                Line($0, style == .caption ? .secondary : color, bold: style == .title || style == .headline,
                     dim: style == .caption, italic: style == .emphasis)
            }
        case let .button(title, _, _, prominence):
            let mark = symbols.mark(prominence)
            return DisplayWidth.wrap(mark + title, after: "\(numbering.label(node.offered[0])) ", columns: width).map {
                Line($0, prominence == .destructive ? .negative : .primary, bold: true, inverse: prominence == .primary)
            }
        case let .field(label, _, placeholder, value, input):
            // An empty field shows an empty box and its placeholder dimmed
            // after it, so a hint never reads as a value, colour or not.
            let prefix = "\(numbering.label(node.offered[0])) "
            let name = label.map { "\($0): " } ?? ""
            let shown = input == .secure ? String(repeating: symbols.secret, count: min(value.count, 8)) : value
            guard shown.isEmpty else { return DisplayWidth.wrap(name + "[" + shown + "]", after: prefix, columns: width).map { Line($0) } }
            return DisplayWidth.wrap(name + "[ ]" + (placeholder.isEmpty ? "" : " " + placeholder), after: prefix, columns: width)
                .map { Line($0, .secondary, dim: true, italic: true) }
        case let .list(action, rows):
            let labels = action == nil ? rows.map { _ in symbols.bullet } : node.offered.map { numbering.label($0) }
            return ListLayout(renderer: self, rows: rows, labels: labels).lines(width: width)
        case .divider:
            return [Line(String(repeating: symbols.horizontal, count: width), .secondary)]
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
                text = symbols.ellipsis
            }
            // The bar always fits a line; a label that does not fit beside it goes above it, so
            // wrapping never breaks the bar at its empty cells.
            guard let label, DisplayWidth.of("\(label) \(text)") > width else {
                return [Line(label.map { "\($0) \(text)" } ?? text, .secondary)]
            }
            return DisplayWidth.wrap(label, columns: width).map { Line($0, .secondary) } + [Line(text, .secondary)]
        case let .link(title, _):
            return DisplayWidth.wrap("\(title) \(symbols.link)", after: "\(numbering.label(node.offered[0])) ", columns: width).map { Line($0, bold: true) }
        case let .chart(chart):
            let title = chart.title.map { DisplayWidth.wrap($0, columns: width).map { Line($0, bold: true) } } ?? []
            return title + [Line(Sparkline.row(chart, width: width), .positive)]
                + DisplayWidth.wrap(Sparkline.summary(chart), columns: width).map { Line($0, .secondary) }
        case let .overlay(alignment, children):
            return overlay(alignment, children, width: width, numbering: &numbering)
        case let .modified(node, modifiers):
            return modified(node, modifiers, width: width, numbering: &numbering)
        case let .unknown(kind):
            return DisplayWidth.wrap("[unsupported view: \(kind)]", columns: width).map { Line($0, .warning) }
        }
    }

    /// A border line: `open`, the title, a run of ─, what is beyond the window, `close`.
    func border(_ open: String, title: String?, more: String?, _ close: String) -> String {
        let right = more.map { " \($0) " + symbols.horizontal } ?? ""
        let room = width - DisplayWidth.of(open) - DisplayWidth.of(right) - DisplayWidth.of(close)
        let heading = title.map { DisplayWidth.prefix(" \($0) ", fitting: room - 1) } ?? ""
        return open + heading + String(repeating: symbols.horizontal, count: max(room - DisplayWidth.of(heading), 0)) + right + close + "\n"
    }

    fileprivate func styled(_ line: Line) -> String {
        guard color, !line.text.isEmpty else { return line.text }
        var codes: [String] = []
        if line.bold { codes.append("1") }
        if line.dim { codes.append("2") }
        if line.italic { codes.append("3") }
        if line.inverse { codes.append("7") }
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
