// swift-tools-version: 6.1
// The counter in Swift, as `widget-host new` lays a project out (its SDK one directory up).
import PackageDescription

let package = Package(
    name: "Counter",
    products: [.library(name: "Counter", type: .dynamic, targets: ["Counter"])],
    dependencies: [.package(path: "../WidgetHostSDK")],
    targets: [
        .target(name: "CounterManifest", dependencies: [.product(name: "PluginABI", package: "WidgetHostSDK")]),
        .target(name: "Counter", dependencies: [
            "CounterManifest",
            .product(name: "PluginABI", package: "WidgetHostSDK"),
            .product(name: "PluginKit", package: "WidgetHostSDK", moduleAliases: ["PluginKit": "CounterPluginKit"]),
        ]),
    ]
)
