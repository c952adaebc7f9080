/// The one encoder of the view model: what a plugin's `render` writes and
/// what `launch --format json` prints. Every key of a kind is written, with
/// its default or null, so a script never has to know the defaults. A tree
/// the host parsed shows an unknown kind as "unknown".
extension ViewNode {
    public var json: JSONValue {
        switch self {
        case let .stack(axis, children):
            ["kind": .string(axis == .vertical ? "vstack" : "hstack"), "children": .array(children.map(\.json))]
        case let .section(header, children):
            ["kind": "section", "header": .string(header), "children": .array(children.map(\.json))]
        case let .text(text, style, color):
            ["kind": "text", "text": .string(text), "style": .string(style.rawValue), "color": .string(color.rawValue)]
        case let .button(title, action, value, prominence):
            ["kind": "button", "title": .string(title), "action": .string(action), "value": .optional(value), "prominence": .string(prominence.rawValue)]
        case let .field(label, action, placeholder, value, input):
            [
                "kind": .string(input == .secure ? "securefield" : "field"), "label": .optional(label), "action": .string(action),
                "placeholder": .string(placeholder), "value": .string(value), "input": .string(input.rawValue),
            ]
        case let .list(action, rows):
            ["kind": "list", "action": .optional(action), "rows": .array(rows.map(\.json))]
        case .divider: ["kind": "divider"]
        case .spacer: ["kind": "spacer"]
        case let .badge(text, color): ["kind": "badge", "text": .string(text), "color": .string(color.rawValue)]
        case let .image(alt, url): ["kind": "image", "alt": .string(alt), "url": .optional(url)]
        case let .progress(label, fraction):
            ["kind": "progress", "label": .optional(label), "value": fraction.map { .number(String($0)) } ?? .null]
        case let .link(title, target): ["kind": "link", "title": .string(title), "target": .string(target)]
        case let .chart(chart):
            ["kind": "chart", "title": .optional(chart.title), "style": .string(chart.style.rawValue),
             "points": .array(chart.points.map { ["label": .string($0.label), "value": .number(String($0.value))] })]
        case let .overlay(alignment, children):
            ["kind": "overlay", "alignment": .string(alignment.rawValue), "children": .array(children.map(\.json))]
        case let .modified(node, modifiers):
            modifiers.adding(to: node.json)
        case let .unknown(kind): ["kind": "unknown", "unknownKind": .string(kind)]
        }
    }
}

extension ViewNode.ListRow {
    /// `cells` and `disclosure` are written only when used, so older rows read as they always did.
    var json: JSONValue {
        var fields: [(String, JSONValue)] = [("id", .string(id)), ("title", .string(title)), ("detail", .optional(detail)), ("badge", .optional(badge))]
        if !cells.isEmpty { fields.append(("cells", .array(cells.map(\.json)))) }
        if disclosure { fields.append(("disclosure", .bool(true))) }
        return .object(fields)
    }
}

extension ViewNode.Modifiers {
    /// The modified node's own keys, then the modifiers it uses.
    func adding(to json: JSONValue) -> JSONValue {
        guard case var .object(fields) = json else { return json }
        fields.removeAll { ["align", "padding", "spacing", "code"].contains($0.0) }
        if let alignment { fields.append(("align", .string(alignment.rawValue))) }
        if padding > 0 { fields.append(("padding", .number(String(padding)))) }
        if let spacing { fields.append(("spacing", .number(String(spacing)))) }
        if let code { fields.append(("code", .string(code))) }
        return .object(fields)
    }
}

extension ViewScreen {
    /// The whole description, `{"view":1,"root":...}`, with `"error"` when
    /// the screen shows one. (Not `json`, which is a node's: code that takes
    /// a screen for its root then fails to build instead of reading nothing.)
    public var document: JSONValue {
        .object([("view", .number(String(ViewDescription.version))), ("root", root.json)] + (error.map { [("error", .string($0))] } ?? []))
    }
}
