/// Parses and validates the view description a plugin renders: the reader
/// beside the one encoder (ViewJSON).
public enum ViewDescription {
    public static let version = 1
    public static let maxBytes = 1 << 20
    public static let maxDepth = 32
    public static let maxNodes = 10_000

    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    public static func parse(_ bytes: [UInt8]) throws(Invalid) -> ViewScreen {
        guard bytes.count <= maxBytes else { throw Invalid(description: "the view description is \(bytes.count) bytes, over the limit of \(maxBytes)") }
        let json: JSONValue
        do {
            // Each node is an object holding an array of children: two JSON levels per view level.
            json = try JSONParser.parse(bytes, maxDepth: maxDepth * 2 + 4)
        } catch {
            if error.message.hasPrefix("nested deeper") { throw Invalid(description: "the view is nested deeper than \(maxDepth) levels") }
            throw Invalid(description: "the view description is not valid JSON: \(error)")
        }
        guard json.isObject else { throw Invalid(description: "the view description must be a JSON object") }
        guard case let .number(version)? = json["view"], Int(version) == Self.version else {
            throw Invalid(description: "the view description must say \"view\": \(Self.version)")
        }
        guard let root = json["root"], root.isObject else { throw Invalid(description: "the view description has no \"root\" node") }
        var budget = maxNodes
        // An error that is not a string, or is empty, declares nothing.
        let error = json["error"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        return ViewScreen(root: try node(root, depth: 1, budget: &budget), error: error)
    }

    private static func node(_ json: JSONValue, depth: Int, budget: inout Int) throws(Invalid) -> ViewNode {
        guard depth <= maxDepth else { throw Invalid(description: "the view is nested deeper than \(maxDepth) levels") }
        budget -= 1
        guard budget >= 0 else { throw Invalid(description: "the view has more than \(maxNodes) nodes") }
        guard json.isObject, let kind = json["kind"]?.string else { return .unknown(kind: "(a node without a kind)") }
        let plain = try kindNode(json, kind: kind, depth: depth, budget: &budget)
        return modifiers(json).map { .modified(plain, $0) } ?? plain
    }

    /// `align`, `padding`, `spacing` and `code`, on any node; nil when it has none that mean anything.
    /// A code that is empty or longer than a name is dropped: it is for scripts, not a second text.
    private static func modifiers(_ json: JSONValue) -> ViewNode.Modifiers? {
        func count(_ key: String, limit: Int) -> Int? {
            guard case let .number(literal)? = json[key], let value = Double(literal), value.isFinite else { return nil }
            return Int(min(max(value.rounded(), 0), Double(limit)))
        }
        let modifiers = ViewNode.Modifiers(alignment: json["align"]?.string.flatMap(ViewNode.Alignment.init),
                                           padding: count("padding", limit: ViewNode.Modifiers.maxPadding) ?? 0,
                                           spacing: count("spacing", limit: ViewNode.Modifiers.maxSpacing),
                                           code: json["code"]?.string.flatMap { (1...ViewNode.Modifiers.maxCodeLength).contains($0.utf8.count) ? $0 : nil })
        return modifiers == ViewNode.Modifiers() ? nil : modifiers
    }

    private static func kindNode(_ json: JSONValue, kind: String, depth: Int, budget: inout Int) throws(Invalid) -> ViewNode {
        func text(_ key: String) -> String? { json[key]?.string }
        func children() throws(Invalid) -> [ViewNode] {
            var nodes: [ViewNode] = []
            for child in json["children"]?.array ?? [] { nodes.append(try node(child, depth: depth + 1, budget: &budget)) }
            return nodes
        }
        func color() -> ViewNode.SemanticColor { text("color").flatMap(ViewNode.SemanticColor.init) ?? .primary }
        switch kind {
        case "vstack": return .stack(axis: .vertical, children: try children())
        case "hstack": return .stack(axis: .horizontal, children: try children())
        case "section": return .section(header: text("header") ?? "", children: try children())
        case "text":
            return .text(text("text") ?? "", style: text("style").flatMap(ViewNode.TextStyle.init) ?? .body, color: color())
        case "button":
            guard let action = text("action") else { return .unknown(kind: "button without an action") }
            return .button(title: text("title") ?? action, action: action, value: text("value"),
                           prominence: text("prominence").flatMap(ViewNode.Prominence.init) ?? .secondary)
        case "field", "securefield":
            guard let action = text("action") else { return .unknown(kind: "\(kind) without an action") }
            let input = kind == "securefield" ? .secure : text("input").flatMap(ViewNode.FieldInput.init) ?? .text
            return .field(label: text("label"), action: action, placeholder: text("placeholder") ?? "", value: text("value") ?? "", input: input)
        case "list":
            var rows: [ViewNode.ListRow] = []
            for row in json["rows"]?.array ?? [] {
                guard let id = row["id"]?.string else { continue }
                budget -= 1
                guard budget >= 0 else { throw Invalid(description: "the view has more than \(maxNodes) nodes") }
                var cells: [ViewNode] = []
                for cell in row["cells"]?.array ?? [] { cells.append(try node(cell, depth: depth + 2, budget: &budget)) }
                rows.append(ViewNode.ListRow(id: id, title: row["title"]?.string ?? id, detail: row["detail"]?.string, badge: row["badge"]?.string,
                                             cells: cells, disclosure: row["disclosure"] == .bool(true)))
            }
            return .list(action: text("action"), rows: rows)
        case "overlay":
            return .overlay(alignment: text("alignment").flatMap(ViewNode.OverlayAlignment.init) ?? .center, children: try children())
        case "divider": return .divider
        case "spacer": return .spacer
        case "badge": return .badge(text("text") ?? "", color: color())
        case "image": return .image(alt: text("alt") ?? "image", url: text("url"))
        case "progress":
            let fraction = json["value"].flatMap { value -> Double? in
                guard case let .number(literal) = value else { return nil }
                return Double(literal).map { min(max($0, 0), 1) }
            }
            return .progress(label: text("label"), fraction: fraction)
        case "link":
            guard let target = text("target") else { return .unknown(kind: "link without a target") }
            return .link(title: text("title") ?? target, target: target)
        case "chart":
            let points = (json["points"]?.array ?? []).compactMap { point -> ViewNode.Chart.Point? in
                guard case let .number(literal)? = point["value"], let value = Double(literal) else { return nil }
                return ViewNode.Chart.Point(label: point["label"]?.string ?? "", value: value)
            }
            budget -= points.count
            guard budget >= 0 else { throw Invalid(description: "the view has more than \(maxNodes) nodes") }
            return .chart(ViewNode.Chart(title: text("title"), style: text("style").flatMap(ViewNode.Chart.Style.init) ?? .line, points: points))
        default:
            return .unknown(kind: kind)
        }
    }
}
