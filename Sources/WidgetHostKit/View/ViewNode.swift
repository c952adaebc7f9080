/// A widget's screen as the host understands it: the validated form of the
/// view description a plugin renders (see docs/view-description.md).
///
/// Validation never fails the whole screen for one odd node: an unknown kind
/// becomes a visible placeholder. Only a description that is not JSON, not
/// the right shape at the top, too large or too deep is refused whole, and
/// the host shows an error panel naming the plugin instead.
public indirect enum ViewNode: Equatable, Sendable {
    case stack(axis: Axis, children: [ViewNode])
    case section(header: String, children: [ViewNode])
    case text(String, style: TextStyle, color: SemanticColor)
    case button(title: String, action: String, value: String?)
    case field(label: String?, action: String, placeholder: String, value: String, input: FieldInput)
    case list(action: String?, rows: [ListRow])
    case divider
    case spacer
    case badge(String, color: SemanticColor)
    case image(alt: String, url: String?)
    case progress(label: String?, fraction: Double?)
    case link(title: String, target: String)
    /// A node of a kind this host does not know, shown as a placeholder.
    case unknown(kind: String)

    public enum Axis: String, Sendable { case vertical, horizontal }
    public enum TextStyle: String, Sendable, CaseIterable { case title, headline, body, caption, monospaced, emphasis }
    public enum SemanticColor: String, Sendable, CaseIterable { case primary, secondary, positive, negative, warning }
    public enum FieldInput: String, Sendable { case text, amount }

    public struct ListRow: Equatable, Sendable {
        public let id: String
        public let title: String
        public let detail: String?
        public let badge: String?
    }
}

/// Something a person can do on a screen, numbered in on-screen order.
public struct ScreenAction: Equatable, Sendable {
    public enum Kind: String, Sendable { case button, field, row, link }
    public let kind: Kind
    public let title: String
    /// The plugin's action id; for a link, the deep link.
    public let action: String
    /// The value sent with the action: a row's id, a button's value.
    public let value: String?
}

extension ViewNode {
    /// Every action on the screen, in the order a person reads them.
    public var actions: [ScreenAction] {
        switch self {
        case let .stack(_, children), let .section(_, children): children.flatMap(\.actions)
        case let .button(title, action, value): [ScreenAction(kind: .button, title: title, action: action, value: value)]
        case let .field(label, action, placeholder, _, _):
            [ScreenAction(kind: .field, title: label ?? placeholder, action: action, value: nil)]
        case let .list(action?, rows): rows.map { ScreenAction(kind: .row, title: $0.title, action: action, value: $0.id) }
        case let .link(title, target): [ScreenAction(kind: .link, title: title, action: target, value: nil)]
        default: []
        }
    }
}
