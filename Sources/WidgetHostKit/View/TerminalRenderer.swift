/// Draws a screen for a terminal: a box sized to the terminal, with every
/// action numbered in on-screen order. Widths are display columns, so wide
/// and combining characters line up; colour is used only when asked for.
public struct TerminalRenderer {
    public var width: Int
    public var color: Bool

    public static let minimumWidth = 24

    public init(width: Int, color: Bool) {
        self.width = max(width, Self.minimumWidth)
        self.color = color
    }

    public func render(_ view: ViewNode, title: String, footer: String? = nil) -> String {
        var numbering = Numbering()
        let inner = width - 4
        let body = lines(view.visible, width: inner, numbering: &numbering)
        return box(title: ViewNode.visible(title, lines: false), body: body, footer: footer.map { ViewNode.visible($0) })
    }

    /// The panel shown instead of a screen that could not be rendered.
    public func errorPanel(plugin: String, screen: String, reason: String, footer: String? = nil) -> String {
        let inner = width - 4
        let heading = ViewNode.visible("\(plugin) could not render '\(screen)'")
        var body = DisplayWidth.wrap(heading, columns: inner).map { Line($0, .negative, bold: true) }
        body += DisplayWidth.wrap(ViewNode.visible(reason), columns: inner).map { Line($0, .secondary) }
        return box(title: "Error", body: body, footer: footer.map { ViewNode.visible($0) })
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
            return next <= 9 ? "[\(next)]" : "[ ]"
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
            let shown = value.isEmpty ? placeholder : value
            let prefix = "\(numbering.label()) " + (label.map { "\($0): " } ?? "")
            return DisplayWidth.wrap(prefix + "[" + shown + "]", columns: width).map { Line($0, value.isEmpty ? .secondary : .primary) }
        case let .list(action, rows):
            let labels = rows.map { _ in action == nil ? "•" : numbering.label() }
            let titleWidth = rows.map { DisplayWidth.of($0.title) }.max() ?? 0
            return zip(labels, rows).flatMap { label, row -> [Line] in
                var text = "\(label) \(row.title)"
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
        case let .unknown(kind):
            return DisplayWidth.wrap("[unsupported view: \(kind)]", columns: width).map { Line($0, .warning) }
        }
    }

    private func box(title: String, body: [Line], footer: String?) -> String {
        let inner = width - 4
        let heading = DisplayWidth.prefix(" \(title) ", fitting: width - 4)
        var out = "┌─" + heading + String(repeating: "─", count: width - 3 - DisplayWidth.of(heading)) + "┐\n"
        for line in body {
            let padding = String(repeating: " ", count: max(inner - DisplayWidth.of(line.text), 0))
            out += "│ " + styled(line) + padding + " │\n"
        }
        out += "└" + String(repeating: "─", count: width - 2) + "┘\n"
        if let footer { out += DisplayWidth.wrap(footer, columns: width).joined(separator: "\n") + "\n" }
        return out
    }

    private func styled(_ line: Line) -> String {
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
        case let .unknown(kind): return .unknown(kind: line(kind))
        case .divider, .spacer: return self
        }
    }

    /// A plugin's text as the terminal may show it (see `TerminalText`).
    static func visible(_ text: String, lines: Bool = true) -> String { TerminalText.safe(text, lines: lines) }
}
