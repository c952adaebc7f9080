/// Something a person can do on a screen, numbered in on-screen order.
public struct ScreenAction: Equatable, Sendable {
    public enum Kind: String, Sendable { case button, field, row, link }
    public let kind: Kind
    public let title: String
    /// The plugin's action id; for a link, the deep link.
    public let action: String
    /// The value sent with the action: a row's id, a button's value.
    public let value: String?
    /// A secure field: what is typed for it is never shown, only a mask.
    public var secret = false
}

extension ViewNode {
    /// What this node itself offers (a list, one action per row), its
    /// children aside: the one definition of an action, which the terminal
    /// renderer numbers as it draws (`TerminalRenderer.Layout.actions`).
    var offered: [ScreenAction] {
        switch self {
        case let .button(title, action, value, _): [ScreenAction(kind: .button, title: title, action: action, value: value)]
        case let .field(label, action, placeholder, _, input):
            [ScreenAction(kind: .field, title: label ?? placeholder, action: action, value: nil, secret: input == .secure)]
        case let .list(action?, rows): rows.map { ScreenAction(kind: .row, title: $0.title, action: action, value: $0.id) }
        case let .link(title, target): [ScreenAction(kind: .link, title: title, action: target, value: nil)]
        default: []
        }
    }

    /// Every action on the screen, in the order a person reads them, for
    /// a caller that does not draw it (JSON, `validate`); a drawn screen
    /// takes its layout's, numbered in the same walk that draws it.
    public var actions: [ScreenAction] { offered + contained.flatMap(\.actions) }
}
