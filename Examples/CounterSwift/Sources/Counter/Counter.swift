import PluginABI
import PluginKit

@_cdecl("widget_host_entry")
public func entry() -> UnsafePointer<wh_plugin_descriptor>? { exportWidget(manifest: wh_manifest_json()) { _ in Counter() } }

final class Counter: Widget {
    var count = 0

    func render(screen: String, params: JSONValue) throws(WidgetError) -> String {
        HStack { Button("-", action: "down"); Text("\(count)"); Button("+", action: "up") }.screen
    }

    func handle(action: String, value: String?) throws(WidgetError) { count += action == "up" ? 1 : -1 }
}
