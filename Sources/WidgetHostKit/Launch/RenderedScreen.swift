/// A screen as rendered for a person or a script.
public struct RenderedScreen: Sendable {
    public let plugin: PluginID
    public let screen: String
    public let title: String
    /// The view, or why there is none (the plugin failed, or its
    /// description was refused); either way the host stays up.
    public let view: Result<ViewNode, RenderFailure>
    /// The error state the widget declared for this screen (ViewScreen.error).
    public let declaredError: String?

    public init(plugin: PluginID, screen: String, title: String, view: Result<ViewNode, RenderFailure>, declaredError: String? = nil) {
        self.plugin = plugin
        self.screen = screen
        self.title = title
        self.view = view
        self.declaredError = declaredError
    }

    /// The error the screen shows: the widget's declared error state, or
    /// why there is no view at all.
    public var error: String? {
        switch view {
        case .success: declaredError
        case let .failure(failure): failure.description
        }
    }

    public var actions: [ScreenAction] { (try? view.get())?.actions ?? [] }

    /// An indeterminate progress node: the widget says it is still loading.
    public var isLoading: Bool {
        guard case let .success(view) = view else { return false }
        return view.containsIndeterminateProgress
    }
}

public struct RenderFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    /// The widget has not answered yet, for this many seconds; its answer
    /// wakes the caller later.
    public var busySeconds: Double?
}

public struct SessionError: Error, Equatable, CustomStringConvertible {
    public let description: String
}

extension ViewNode {
    var containsIndeterminateProgress: Bool {
        switch self {
        case .progress(_, nil): true
        default: contained.contains { $0.containsIndeterminateProgress }
        }
    }
}
