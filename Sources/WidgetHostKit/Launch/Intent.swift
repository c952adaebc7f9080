/// What a person asks of the current screen. Parsed once where it comes in
/// (a key, a numbered action, `--actions`, a web form), so the session
/// dispatches on its case, never on the text.
public enum Intent: Equatable, Sendable {
    /// A plugin's action id, with the value a row, button or field gives it.
    case action(String, value: String?)
    /// A deep link, opened on top of the stack.
    case link(NavigationTarget)
    /// The screen under the current one.
    case back
    /// Fresh data from the current widget (`WH_ACTION_REFRESH`, the `r` key).
    case refresh

    /// The words of `--actions` and of a web form: `back`, a `widget://`
    /// link, or else a plugin's action id with its value.
    public init(parsing text: String, value: String? = nil) throws(DeepLinkError) {
        if text == "back" {
            self = .back
        } else if text.hasPrefix("widget://") {
            self = .link(try NavigationTarget(link: text))
        } else {
            self = .action(text, value: value)
        }
    }
}

extension ScreenAction {
    /// What choosing this action asks, `value` being what a person typed
    /// into a field (a row or button carries its own).
    public func intent(typed value: String? = nil) throws(DeepLinkError) -> Intent {
        switch kind {
        case .link: .link(try NavigationTarget(link: action))
        case .field: .action(action, value: value)
        case .button, .row: .action(action, value: self.value)
        }
    }
}
