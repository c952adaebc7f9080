// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Counter",
    products: [.library(name: "Counter", type: .dynamic, targets: ["Counter"])],
    // The SDK `widget-host new` copied in; replace the directory to move to another version.
    dependencies: [.package(path: "WidgetHostSDK")],
    targets: [
        // Embeds widget.json in the plugin's manifest section; editing it rebuilds.
        .target(name: "CounterManifest", dependencies: [.product(name: "PluginABI", package: "WidgetHostSDK")]),
        .target(name: "Counter", dependencies: [
            "CounterManifest",
            .product(name: "PluginABI", package: "WidgetHostSDK"),
            // The SDK under a module name of this plugin's own, so that plugins built against
            // different SDK versions load into one host.
            .product(name: "PluginKit", package: "WidgetHostSDK", moduleAliases: ["PluginKit": "CounterPluginKit"]),
        ]),
    ]
)
