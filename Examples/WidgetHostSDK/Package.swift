// swift-tools-version: 6.1
// The SDK as a package of its own, as `widget-host new` copies it into a
// project: here its two targets link to the repository's Sources.
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
