/// Rewriting every string of a view tree at once: making a plugin's text
/// safe for a terminal, falling back to ASCII, dropping a heading the box
/// title already says. One walk (`mappingStrings`) serves them all, so a new
/// kind is taught its strings in one place.
extension ViewNode {
    /// The tree with every string passed through `transform`; `line` is true
    /// for strings shown on one line (titles, labels), false for texts that may break.
    func mappingStrings(_ transform: (String, _ line: Bool) -> String) -> ViewNode {
        func line(_ text: String) -> String { transform(text, true) }
        func map(_ nodes: [ViewNode]) -> [ViewNode] { nodes.map { $0.mappingStrings(transform) } }
        switch self {
        case let .stack(axis, children): return .stack(axis: axis, children: map(children))
        case let .section(header, children): return .section(header: line(header), children: map(children))
        case let .text(text, style, color): return .text(transform(text, false), style: style, color: color)
        case let .button(title, action, value, prominence): return .button(title: line(title), action: action, value: value, prominence: prominence)
        case let .field(label, action, placeholder, value, input):
            return .field(label: label.map(line), action: action, placeholder: line(placeholder), value: line(value), input: input)
        case let .list(action, rows):
            return .list(action: action, rows: rows.map {
                ListRow(id: $0.id, title: line($0.title), detail: $0.detail.map(line), badge: $0.badge.map(line), cells: map($0.cells),
                        disclosure: $0.disclosure)
            })
        case let .badge(text, color): return .badge(line(text), color: color)
        case let .image(alt, url): return .image(alt: line(alt), url: url)
        case let .progress(label, fraction): return .progress(label: label.map(line), fraction: fraction)
        case let .link(title, target): return .link(title: line(title), target: target)
        case let .overlay(alignment, children): return .overlay(alignment: alignment, children: map(children))
        case let .modified(node, modifiers): return .modified(node.mappingStrings(transform), modifiers)
        case let .chart(chart):
            return .chart(Chart(title: chart.title.map(line), style: chart.style, points: chart.points.map { .init(label: line($0.label), value: $0.value) }))
        case let .unknown(kind): return .unknown(kind: line(kind))
        case .divider, .spacer: return self
        }
    }

    /// The tree with every string made safe for a terminal (see `visible(_:)`).
    var visible: ViewNode { mappingStrings { Self.visible($0, lines: !$1) } }

    /// A plugin's text as the terminal may show it (see `TerminalText`).
    static func visible(_ text: String, lines: Bool = true) -> String { TerminalText.safe(text, lines: lines) }

    /// The tree without its first heading when that only repeats `title`,
    /// which the box's border already shows ("Exchanges" under "Exchanges").
    func droppingHeading(_ title: String) -> ViewNode {
        switch self {
        case let .text(text, style, _) where [.title, .headline].contains(style):
            return Self.same(text, title) ? .stack(axis: .vertical, children: []) : self
        case let .stack(.vertical, children) where !children.isEmpty:
            return .stack(axis: .vertical, children: [children[0].droppingHeading(title)] + children.dropFirst())
        case let .modified(node, modifiers):
            return .modified(node.droppingHeading(title), modifiers)
        default:
            return self
        }
    }

    private static func same(_ a: String, _ b: String) -> Bool {
        func key(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased() }
        return !a.isEmpty && key(a) == key(b)
    }
}
