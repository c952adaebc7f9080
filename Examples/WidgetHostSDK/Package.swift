// swift-tools-version: 6.1
// The widget-host SDK a plugin builds against, as `widget-host new` writes it.
import PackageDescription

let package = Package(
    name: "WidgetHostSDK",
    products: [
        .library(name: "PluginABI", targets: ["PluginABI"]),
        .library(name: "PluginKit", targets: ["PluginKit"]),
    ],
    targets: [
        .target(name: "PluginABI"),
        .target(name: "PluginKit", dependencies: ["PluginABI"]),
    ]
)
