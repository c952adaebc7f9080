import PluginABI

/// What a Swift plugin implements: one instance of a widget, driven by the host.
/// How an instance is made is the plugin's choice (see `exportWidget`): a
/// widget that needs no host services needs no `init(host:)`.
///
/// The host calls every method on one thread, one call at a time (see
/// `widget_host/plugin.h`), so a widget needs no locking of its own unless it
/// starts work on other threads.
public protocol Widget: AnyObject {
    /// The view description of `screen` as JSON (build it with the view
    /// builder and `.screen`). `params` are the screen's parameters, parsed
    /// (`["id": "kraken"]` for `exchange?id=kraken`; an empty object for none).
    func render(screen: String, params: JSONValue) throws(WidgetError) -> String

    /// A person's action on the current screen, one the manifest declares
    /// (the host refuses any other); `value` is nil for a button. The host's
    /// own actions never arrive here: its refresh goes to `refresh(screen:)`.
    func handle(action: String, value: String?) throws(WidgetError)

    /// The host's request for fresh data on `screen` (the terminal's `r`,
    /// `WH_ACTION_REFRESH`). The default has nothing to fetch: it throws
    /// `.unknownAction`, and the host draws the screen again. A widget that
    /// fetches here declares `"refreshes": true` in widget.json, or
    /// `widget-host validate` fails it when a refresh changes what it shows.
    func refresh(screen: String) throws(WidgetError)

    /// A bus event the widget subscribed to.
    func receive(topic: String, payload: String)

    /// The JSON answer to a host-level query, such as `status` (see
    /// `widget_host/plugin.h`); throw `.unknownQuery` for one it does not answer.
    func query(_ id: String) throws(WidgetError) -> String

    /// The view of the widget's dashboard card of `size`, one its manifest
    /// lists under `"sizes"`: glanceable content designed for the space
    /// (small: about 26 columns by 5 lines; medium: twice as wide; large:
    /// twice as tall too). Nil, the default, renders the first screen
    /// instead, which the host cuts to the card.
    func card(size: CardSize) throws(WidgetError) -> String?
}

extension Widget {
    public func handle(action: String, value: String?) throws(WidgetError) {
        throw .unknownAction(action)
    }

    public func refresh(screen: String) throws(WidgetError) {
        throw .unknownAction(WH_ACTION_REFRESH)
    }

    public func receive(topic: String, payload: String) {}

    public func query(_ id: String) throws(WidgetError) -> String {
        throw .unknownQuery(id)
    }

    public func card(size: CardSize) throws(WidgetError) -> String? { nil }
}

/// Why a widget refused a call; each maps to a `wh_status` at the boundary.
public enum WidgetError: Error, Equatable {
    case unknownScreen(String)
    case unknownAction(String)
    case invalidValue(String)
    case unknownQuery(String)
    case failed(String)

    var status: wh_status {
        switch self {
        case .unknownScreen: WH_UNKNOWN_SCREEN
        case .unknownAction: WH_UNKNOWN_ACTION
        case .invalidValue: WH_INVALID_VALUE
        case .unknownQuery: WH_UNKNOWN_QUERY
        case .failed: WH_FAILED
        }
    }
}
