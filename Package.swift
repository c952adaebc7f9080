// swift-tools-version: 6.1
import PackageDescription

/// Each widget is its own shared library: a Swift target with the widget's
/// code and a tiny C target that embeds its manifest in an ELF section (Swift
/// cannot place a string in a named section yet).
func widget(_ name: String) -> [Target] {
    [
        .target(
            name: "\(name)Manifest",
            dependencies: ["PluginABI"],
            path: "Plugins/\(name)/Manifest"
        ),
        .target(
            name: name,
            dependencies: ["PluginABI", .target(name: "\(name)Manifest")],
            path: "Plugins/\(name)/Widget"
        ),
    ]
}

let widgets = ["CryptoPlugin", "CheckoutPlugin", "TripsPlugin"]

let package = Package(
    name: "WidgetHost",
    products: [
        .executable(name: "widget-host", targets: ["Host"]),
        .executable(name: "widget-host-bench", targets: ["Bench"]),
        // For plugins built outside this package. A Swift plugin depends on
        // PluginKit with `moduleAliases: ["PluginKit": "<Plugin>Kit"]`, so
        // each plugin image holds the SDK under its own module name.
        .library(name: "PluginABI", targets: ["PluginABI"]),
        .library(name: "PluginKit", targets: ["PluginKit"]),
    ] + widgets.map { .library(name: $0, type: .dynamic, targets: [$0]) },
    targets: [
        // The C contract every plugin implements; headers only, plus layout checks.
        .target(name: "PluginABI", path: "Sources/PluginABI"),
        // System calls Swift's Glibc lacks or that must run in a signal handler.
        .target(name: "HostShim", path: "Sources/HostShim"),
        // The host's logic, as a library so that tests can import it.
        .target(name: "WidgetHostKit", dependencies: ["PluginABI", "HostShim"], path: "Sources/WidgetHostKit"),
        // The Swift SDK for plugin authors. Each plugin compiles these sources
        // into its own module (Plugins/*/Widget/PluginKit links here), so no
        // Swift module is ever shared between images; this target exists so
        // that tests can exercise the SDK directly.
        .target(name: "PluginKit", dependencies: ["PluginABI"], path: "Sources/PluginKit"),
        .executableTarget(name: "Host", dependencies: ["WidgetHostKit"], path: "Sources/Host"),
        // The benchmark: every hot path against its floor or a peer.
        .executableTarget(name: "Bench", dependencies: ["WidgetHostKit", "PluginKit", "PluginABI", "TripsPlugin"], path: "Sources/Bench"),
        .testTarget(name: "WidgetHostTests", dependencies: ["WidgetHostKit", "PluginABI", "PluginKit"], path: "Tests/WidgetHostTests"),
    ] + widgets.flatMap(widget)
)
