/// The two adapters that present a rendered screen: text for people and
/// JSON for scripts. The plugin's logic never knows which one is used.
public enum ScreenFormat: String, Sendable {
    case text, json

    /// `status` is the widget's answer to the status query, for JSON (null
    /// when the widget answers none).
    public func present(_ screen: RenderedScreen, stack: [NavigationEntry], renderer: TerminalRenderer, footer: String? = nil,
                        status: JSONValue? = nil) -> String {
        switch self {
        case .text:
            switch screen.view {
            case let .success(view): renderer.render(view, title: screen.title, footer: footer)
            case let .failure(failure):
                renderer.errorPanel(plugin: screen.plugin.value, screen: screen.screen, reason: failure.description, footer: footer)
            }
        case .json:
            Self.json(screen, stack: stack, status: status).serialized + "\n"
        }
    }

    public static func json(_ screen: RenderedScreen, stack: [NavigationEntry], status: JSONValue? = nil) -> JSONValue {
        let view = try? screen.view.get()
        let actions: [JSONValue] = screen.actions.enumerated().map { index, action in
            ["number": .number(String(index + 1)), "kind": .string(action.kind.rawValue), "title": .string(action.title),
             "action": .string(action.action), "value": .optional(action.value)]
        }
        return [
            "plugin": .string(screen.plugin.value),
            "screen": .string(screen.screen),
            "title": .string(screen.title),
            "stack": .array(stack.map { ["plugin": .string($0.plugin.value), "screen": .string($0.screen), "params": $0.params] }),
            "view": view?.json ?? .null,
            "actions": .array(actions),
            "error": .optional(screen.error),
            "status": status ?? .null,
        ]
    }
}
