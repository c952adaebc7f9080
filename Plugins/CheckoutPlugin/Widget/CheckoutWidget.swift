import PluginABI

@_cdecl("widget_host_entry")
public func widgetHostEntry() -> UnsafePointer<wh_plugin_descriptor>? {
    exportWidget(manifest: wh_manifest_json()) { CheckoutWidget(host: $0) }
}

/// The buy-now-pay-later checkout widget: a schedule of four instalments
/// that follows the order total, in tokenless mode (an amount before any
/// checkout) or token mode (a completed checkout the app stored).
final class CheckoutWidget: Widget {
    private let host: Host
    private let events: CheckoutEvents
    private var state: CheckoutState
    /// The status scripts last heard about, so `checkout.changed` can say
    /// whether an update left it as it was (`sameStatus`).
    private var announced: CheckoutStatus

    init(host: Host) {
        self.host = host
        events = CheckoutEvents(host: host)
        let configuration = host.configuration
        for key in CheckoutConfiguration.unknownKeys(configuration) {
            host.log(.warning, "ignoring unknown configuration key \"\(CheckoutText.clip(key))\"")
        }
        state = CheckoutState.start(configuration: configuration, today: CalendarDate.today(host)) { token, currency in
            CheckoutOrder.load(token: token, currency: currency, from: host)
        }
        announced = state.status
        // A widget that cannot work is a failure, as creating the original
        // without a configuration was; anything else, even invalid, is ready.
        switch state {
        case let .unconfigured(issues): events.failure(issues[0])
        case let .unavailable(_, issue) where issue.code.isInternalFailure: events.failure(issue)
        default: events.ready(state.status)
        }
    }

    func render(screen: String, params: JSONValue) throws(WidgetError) -> String {
        guard screen == "checkout" else { throw .unknownScreen(screen) }
        return CheckoutView.screen(state, params: params)
    }

    func card(size: CardSize) throws(WidgetError) -> String? {
        CheckoutCard.view(state, size: size)
    }

    /// `status`: what the original's getStatus returned, as `CheckoutStatus.json`.
    func query(_ id: String) throws(WidgetError) -> String {
        guard id == "status" else { throw .unknownQuery(id) }
        return state.status.json.serialized
    }

    /// `update` with the new order total, as the original's sendUpdate(amount:).
    /// A bad amount is accepted as input and becomes an invalid status; only a
    /// missing value, or a widget that cannot take amounts, is refused.
    func handle(action: String, value: String?) throws(WidgetError) {
        guard action == "update" else { throw .unknownAction(action) }
        guard let value else { throw .invalidValue("update needs the new order total, such as update=250.00") }
        guard case let .active(checkout) = state else {
            let reason = "update refused: the checkout cannot take an amount (\(state.status.json["errorCode"]?.string ?? "-"))"
            host.log(.warning, reason)
            throw .invalidValue(reason)
        }
        guard let today = CalendarDate.today(host) else {
            let issue = CheckoutIssue(.clockUnavailable, CheckoutText.clockUnavailable)
            state = .unavailable(checkout.settings, issue)
            events.failure(issue)
            announce()
            return
        }
        state = .active(checkout.updated(value, today: today))
        announce()
    }

    /// Every accepted update is announced, as the original told its handler
    /// "the widget has had an update" each time.
    private func announce() {
        let status = state.status
        events.changed(status, sameStatus: status == announced)
        announced = status
    }
}

extension CheckoutErrorCode {
    /// The host failed us, as opposed to input or configuration being wrong.
    var isInternalFailure: Bool { self == .storeUnavailable || self == .clockUnavailable }
}
