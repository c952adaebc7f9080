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

let widgets = ["CryptoPlugin", "CheckoutPlugin", "TripsPlugin", "TickerPlugin"]

/// The host's code reaches generic type metadata through its accessors,
/// given the conformances the compiler already knows, instead of by
/// mangled name, which the runtime demangles and whose conformances it
/// looks up by scanning every image's records: that was about a seventh of
/// a short command such as `list` (docs/performance.md, Start-up). Only the
/// host's own targets: a package that depends on this one by version for
/// PluginKit or PluginABI could not build a target with unsafe flags (the
/// `widget-host` executable itself it cannot take that way).
let hostStartUp: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])]

// Licensed under the Apache License, Version 2.0 (LICENSE). Every product
// below, the executables and the libraries a plugin links (PluginABI, PluginKit),
// is under that licence; a plugin built against them may carry any licence of
// its own, as Apache-2.0 permits.
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
        // The host's logic, as a library so that tests can import it. It gets
        // the code it shares with plugins (Sources/PluginKit/Shared: JSON,
        // time, locks, the view model) from the PluginKit module.
        .target(name: "WidgetHostKit", dependencies: ["PluginABI", "HostShim", "PluginKit"], path: "Sources/WidgetHostKit",
                swiftSettings: hostStartUp),
        // The Swift SDK for plugin authors: `Shared/` is what the host compiles
        // too, `SDK/` what only plugins use. No plugin image holds a module
        // named PluginKit (only the host does): the widgets here compile
        // these sources into their own module (Plugins/*/Widget/PluginKit
        // links here), and out-of-tree plugins alias the module per plugin.
        .target(name: "PluginKit", dependencies: ["PluginABI"], path: "Sources/PluginKit"),
        .executableTarget(name: "Host", dependencies: ["WidgetHostKit"], path: "Sources/Host", swiftSettings: hostStartUp),
        // The benchmark: every hot path against its floor or a peer.
        .executableTarget(name: "Bench", dependencies: ["WidgetHostKit", "PluginKit", "PluginABI", "TripsPlugin", "HostShim"], path: "Sources/Bench"),
        // The tests (docs/testing.md): UnitTests run inside the test process, in
        // seconds; EndToEndTests drive the real executables (widget-host, cc,
        // tmux, a browser); TestSupport holds the helpers both use, and
        // tools/test-kind.sh says which target a test file belongs in.
        .testTarget(name: "TestSupport", dependencies: ["WidgetHostKit", "PluginABI", "PluginKit"], path: "Tests/TestSupport"),
        .testTarget(name: "UnitTests", dependencies: ["TestSupport", "WidgetHostKit", "PluginABI", "PluginKit"], path: "Tests/UnitTests"),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "WidgetHostKit", "PluginABI", "PluginKit"], path: "Tests/EndToEndTests"),
    ] + widgets.flatMap(widget)
)
