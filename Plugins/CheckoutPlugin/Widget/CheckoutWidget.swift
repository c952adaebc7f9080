import PluginABI

@_cdecl("widget_host_entry")
public func widgetHostEntry() -> UnsafePointer<wh_plugin_descriptor>? {
    exportWidget(CheckoutWidget.self, manifest: wh_manifest_json())
}

/// The buy-now-pay-later checkout widget. This first cut proves the plugin
/// contract; the schedule arrives with the widget's own issue.
final class CheckoutWidget: Widget {
    private var amount: String?

    init(host: Host) {}

    func render(screen: String, params: String) throws(WidgetError) -> String {
        guard screen == "checkout" else { throw .unknownScreen(screen) }
        let line = amount.map { "Order total: \($0)" } ?? "No order total yet"
        return #"{"view":1,"root":{"kind":"vstack","children":[{"kind":"text","text":"Checkout","style":"title"},{"kind":"text","text":"\#(line)"}]}}"#
    }

    func handle(action: String, value: String?) throws(WidgetError) {
        guard action == "update" else { throw .unknownAction(action) }
        guard let value, !value.isEmpty, value.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) else {
            throw .invalidValue("an amount such as 250.00")
        }
        amount = value
    }
}
