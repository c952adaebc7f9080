import PluginABI

@_cdecl("widget_host_entry")
public func widgetHostEntry() -> UnsafePointer<wh_plugin_descriptor>? {
    exportWidget(TripsWidget.self, manifest: wh_manifest_json())
}

/// The "My Trips" travel widget. This first cut proves the plugin contract;
/// bookings and the timeline arrive with the widget's own issue.
final class TripsWidget: Widget {
    init(host: Host) {}

    func render(screen: String, params: String) throws(WidgetError) -> String {
        guard screen == "timeline" else { throw .unknownScreen(screen) }
        return #"{"view":1,"root":{"kind":"vstack","children":[{"kind":"text","text":"My Trips","style":"title"},{"kind":"text","text":"No booking"}]}}"#
    }
}
