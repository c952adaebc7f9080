/// A declarative view tree, written with a result builder:
///
///     VStack {
///         Text("Bitcoin").style(.title)
///         Text(priceText).color(.positive)
///         Button("Retrieve", action: "retrieve")
///     }
///
/// It becomes the JSONValue view description the host renders
/// (docs/view-description.md); presentation is the host's business.
public struct View: Sendable {
    var members: [(String, JSONValue)]

    init(kind: String, _ members: [(String, JSONValue)]) {
        self.members = [("kind", .string(kind))] + members.filter { $0.1 != .null }
    }

    public var json: JSONValue { .object(members) }

    /// The whole screen, ready to return from `Widget.render`.
    public var screen: String { JSONValue.object([("view", 1), ("root", json)]).serialized }

    func setting(_ key: String, _ value: JSONValue) -> View {
        var copy = self
        if let index = copy.members.firstIndex(where: { $0.0 == key }) { copy.members[index].1 = value } else { copy.members.append((key, value)) }
        return copy
    }

    public enum TextStyle: String, Sendable { case title, headline, body, caption, monospaced, emphasis }
    public enum Color: String, Sendable { case primary, secondary, positive, negative, warning }

    public func style(_ style: TextStyle) -> View { setting("style", .string(style.rawValue)) }
    public func color(_ color: Color) -> View { setting("color", .string(color.rawValue)) }
}

@resultBuilder
public enum ViewBuilder {
    public static func buildExpression(_ view: View) -> [View] { [view] }
    public static func buildExpression(_ views: [View]) -> [View] { views }
    public static func buildBlock(_ parts: [View]...) -> [View] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [View]?) -> [View] { part ?? [] }
    public static func buildEither(first part: [View]) -> [View] { part }
    public static func buildEither(second part: [View]) -> [View] { part }
    public static func buildArray(_ parts: [[View]]) -> [View] { parts.flatMap { $0 } }
}

public func VStack(@ViewBuilder _ content: () -> [View]) -> View {
    View(kind: "vstack", [("children", .array(content().map(\.json)))])
}

public func HStack(@ViewBuilder _ content: () -> [View]) -> View {
    View(kind: "hstack", [("children", .array(content().map(\.json)))])
}

public func Section(_ header: String, @ViewBuilder _ content: () -> [View]) -> View {
    View(kind: "section", [("header", .string(header)), ("children", .array(content().map(\.json)))])
}

public func Text(_ text: String) -> View { View(kind: "text", [("text", .string(text))]) }

public func Button(_ title: String, action: String, value: String? = nil) -> View {
    View(kind: "button", [("title", .string(title)), ("action", .string(action)), ("value", .optional(value))])
}

/// A text or amount input; typing sends `action` with the text as its value.
public func Field(_ label: String? = nil, action: String, placeholder: String = "", value: String = "", amount: Bool = false) -> View {
    View(kind: "field", [("label", .optional(label)), ("action", .string(action)), ("placeholder", .string(placeholder)),
                         ("value", .string(value)), ("input", .string(amount ? "amount" : "text"))])
}

public struct Row: Sendable {
    public let id: String, title: String, detail: String?, badge: String?
    public init(id: String, title: String, detail: String? = nil, badge: String? = nil) {
        self.id = id
        self.title = title
        self.detail = detail
        self.badge = badge
    }
}

/// Rows; choosing one sends `action` with the row's id as its value.
public func List(action: String? = nil, rows: [Row]) -> View {
    View(kind: "list", [("action", .optional(action)), ("rows", .array(rows.map {
        .object([("id", .string($0.id)), ("title", .string($0.title)), ("detail", .optional($0.detail)), ("badge", .optional($0.badge))]
            .filter { $0.1 != .null })
    }))])
}

public func Divider() -> View { View(kind: "divider", []) }
public func Spacer() -> View { View(kind: "spacer", []) }
public func Badge(_ text: String) -> View { View(kind: "badge", [("text", .string(text))]) }
public func Image(alt: String, url: String? = nil) -> View { View(kind: "image", [("alt", .string(alt)), ("url", .optional(url))]) }

/// A loading indicator (no fraction), or progress from 0 to 1. While a
/// screen shows an indeterminate one, scripted runs wait for it to go.
public func Progress(_ label: String? = nil, fraction: Double? = nil) -> View {
    View(kind: "progress", [("label", .optional(label)), ("value", fraction.map { .number(String($0)) } ?? .null)])
}

/// A link to a screen: `widget://PLUGIN/SCREEN?key=value`.
public func Link(_ title: String, to target: String) -> View {
    View(kind: "link", [("title", .string(title)), ("target", .string(target))])
}
