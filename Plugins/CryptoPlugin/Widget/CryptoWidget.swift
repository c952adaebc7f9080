import PluginABI

@_cdecl("widget_host_entry")
public func widgetHostEntry() -> UnsafePointer<wh_plugin_descriptor>? {
    exportWidget(CryptoWidget.self, manifest: wh_manifest_json())
}

/// The banking app's crypto widget. This first cut proves the plugin
/// contract; prices and exchanges arrive with the widget's own issue.
final class CryptoWidget: Widget {
    private let host: Host
    private var retrievals = 0

    init(host: Host) {
        self.host = host
    }

    func render(screen: String, params: String) throws(WidgetError) -> String {
        switch screen {
        case "price":
            let status = retrievals == 0 ? "Price not retrieved yet" : "Price unavailable: no price source yet"
            return #"{"view":1,"root":{"kind":"vstack","children":[{"kind":"text","text":"Bitcoin","style":"title"},{"kind":"text","text":"\#(status)"},{"kind":"button","title":"Retrieve","action":"retrieve"},{"kind":"button","title":"See Exchanges","action":"exchanges"}]}}"#
        case "exchanges":
            return #"{"view":1,"root":{"kind":"vstack","children":[{"kind":"text","text":"Exchanges","style":"title"},{"kind":"text","text":"Coinbase"},{"kind":"text","text":"Kraken"},{"kind":"text","text":"Binance"}]}}"#
        default:
            throw .unknownScreen(screen)
        }
    }

    func handle(action: String, value: String?) throws(WidgetError) {
        switch action {
        case "retrieve": retrievals += 1
        case "exchanges": host.log(.info, "exchanges requested")
        default: throw .unknownAction(action)
        }
    }
}
