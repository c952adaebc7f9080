/// The renderer's containers: stacks with their spacing, nodes with layout
/// modifiers (alignment, padding), overlays; each laid out from the lines
/// of the nodes it holds.
extension TerminalRenderer {
    func stack(_ axis: ViewNode.Axis, _ children: [ViewNode], spacing: Int?, width: Int, numbering: inout Numbering) -> [Line] {
        var parts: [[Line]] = []
        for child in children { parts.append(lines(child, width: width, numbering: &numbering)) }
        switch axis {
        case .vertical:
            guard let spacing, spacing > 0 else { return parts.flatMap { $0 } }
            let blank = Array(repeating: Line(""), count: spacing)
            return parts.filter { !$0.isEmpty }.enumerated().flatMap { index, part in index == 0 ? part : blank + part }
        case .horizontal:
            let gap = String(repeating: " ", count: spacing ?? 2)
            let joined = parts.map { $0.map(\.text).joined(separator: " ") }.joined(separator: gap)
            if DisplayWidth.of(joined) <= width, parts.allSatisfy({ $0.count <= 1 }) {
                return [Line(joined, parts.first?.first?.color ?? .primary)]
            }
            return parts.flatMap { $0 }
        }
    }

    /// Padding takes columns from the left; alignment places each line in what is left.
    func modified(_ node: ViewNode, _ modifiers: ViewNode.Modifiers, width: Int, numbering: inout Numbering) -> [Line] {
        let inner = max(width - modifiers.padding, 1)
        var result: [Line]
        if case let .stack(axis, children) = node, modifiers.spacing != nil {
            result = stack(axis, children, spacing: modifiers.spacing, width: inner, numbering: &numbering)
        } else {
            result = lines(node, width: inner, numbering: &numbering)
        }
        let lead = String(repeating: " ", count: width - inner)
        return result.map { line in
            guard !line.text.isEmpty else { return line }
            var line = line
            line.text = lead + String(repeating: " ", count: Self.offset(of: DisplayWidth.of(line.text), in: inner, modifiers.alignment)) + line.text
            return line
        }
    }

    static func offset(of columns: Int, in width: Int, _ alignment: ViewNode.Alignment?) -> Int {
        switch alignment ?? .leading {
        case .leading: 0
        case .center: max(width - columns, 0) / 2
        case .trailing: max(width - columns, 0)
        }
    }

    /// The first child's lines with the others drawn over them at the alignment. A terminal
    /// cannot stack text, so an upper child that would hide words of the base goes beside
    /// them when the line has room (a rating after an image's caption), over them when not.
    func overlay(_ alignment: ViewNode.OverlayAlignment, _ children: [ViewNode], width: Int, numbering: inout Numbering) -> [Line] {
        guard let first = children.first else { return [] }
        var base = lines(first, width: width, numbering: &numbering)
        for child in children.dropFirst() {
            let upper = lines(child, width: width, numbering: &numbering)
            let baseWidth = base.map { DisplayWidth.of($0.text) }.max() ?? 0
            let top = [0, (base.count - upper.count) / 2, base.count - upper.count][alignment.vertical]
            for (index, line) in upper.enumerated() {
                let row = max(top, 0) + index
                guard row < base.count else { base.append(line); continue }
                let upperWidth = DisplayWidth.of(line.text)
                var column = Self.offset(of: upperWidth, in: max(baseWidth, upperWidth), alignment.horizontal)
                let used = DisplayWidth.of(base[row].text)
                let covered = DisplayWidth.suffix(DisplayWidth.prefix(base[row].text, fitting: column + upperWidth), from: column)
                if covered.contains(where: { $0 != " " }), used + 1 + upperWidth <= width { column = used + 1 }
                base[row].text = DisplayWidth.splice(line.text, into: base[row].text, at: column)
            }
        }
        return base
    }
}

extension DisplayWidth {
    /// What of `text` lies from `column` on; a wide character cut in two becomes a space.
    static func suffix(_ text: String, from column: Int) -> String {
        var width = 0, out = ""
        for character in text {
            let next = width + of(character)
            if width >= column {
                out.append(character)
            } else if next > column {
                out += String(repeating: " ", count: next - column)
            }
            width = next
        }
        return out
    }

    /// `upper` written over `base` from `column` on, `base` padded with spaces to reach it.
    static func splice(_ upper: String, into base: String, at column: Int) -> String {
        let left = prefix(base, fitting: column)
        return left + String(repeating: " ", count: column - of(left)) + upper + suffix(base, from: column + of(upper))
    }
}
