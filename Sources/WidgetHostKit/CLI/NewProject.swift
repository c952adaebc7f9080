import Glibc

/// The files of a project `widget-host new` makes, by path relative to the
/// project, and the commands to run next. Every path in them is relative:
/// nothing of the machine it was made on, so no directory name is ever
/// written into shell, make or Swift source.
struct NewProject {
    let files: [(String, [UInt8])]
    let next: [String]

    /// "my-clock" -> "MyClock".
    static func moduleName(_ text: String) -> String {
        text.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    static func manifest(_ id: PluginID, _ name: String) -> String {
        """
        {"abi": "1.0", "id": "\(id)", "name": "\(name)", "version": "0.1.0", "description": "Counts presses.",
         "screens": [{"id": "main", "title": "\(name)", "actions": ["bump"]}],
         "services": {"required": [], "optional": []}}

        """
    }

    /// The Package.swift of a Swift plugin named `module`: the one source of
    /// it. Examples/CounterSwift and docs/writing-plugins.md show what it
    /// writes, and PackageTemplateTests holds them to it.
    static func swiftPackage(module: String) -> String {
        """
        // swift-tools-version: 6.1
        import PackageDescription

        let package = Package(
            name: "\(module)",
            products: [.library(name: "\(module)", type: .dynamic, targets: ["\(module)"])],
            // The SDK `widget-host new` copied in; replace the directory to move to another version.
            dependencies: [.package(path: "WidgetHostSDK")],
            targets: [
                // Embeds widget.json in the plugin's manifest section; editing it rebuilds.
                .target(name: "\(module)Manifest", dependencies: [.product(name: "PluginABI", package: "WidgetHostSDK")]),
                .target(name: "\(module)", dependencies: [
                    "\(module)Manifest",
                    .product(name: "PluginABI", package: "WidgetHostSDK"),
                    // The SDK under a module name of this plugin's own, so that plugins built against
                    // different SDK versions load into one host.
                    .product(name: "PluginKit", package: "WidgetHostSDK", moduleAliases: ["PluginKit": "\(module)PluginKit"]),
                ]),
            ]
        )

        """
    }

    /// The SDK's own Package.swift, written into a project's `WidgetHostSDK/`;
    /// Examples/WidgetHostSDK holds the same (PackageTemplateTests).
    static let sdkPackage = """
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

        """

    /// A Swift package with the SDK's two targets copied into
    /// `WidgetHostSDK/`, a package of its own the plugin depends on by a
    /// relative path (so that `moduleAliases` can rename PluginKit).
    static func swift(id: PluginID, module: String, sdk: String) throws(SystemError) -> NewProject {
        let library = ".build/debug/lib\(module).so"
        var files = text([
            ("widget.json", manifest(id, module)),
            (".gitignore", ".build/\n.swiftpm/\n*.so\n"),
            ("Package.swift", swiftPackage(module: module)),
            ("Sources/\(module)Manifest/include/\(module)Manifest.h", "#include \"widget_host/manifest.h\"\n"),
            ("Sources/\(module)Manifest/manifest.c", """
                #include "widget_host/manifest.h"
                /* widget.json, embedded by the compiler, which tracks it: editing it rebuilds the plugin. */
                WH_MANIFEST_BYTES {
                #embed "../../widget.json"
                    , 0 };

                """),
            ("Sources/\(module)/\(module).swift", """
                import PluginABI
                import PluginKit

                // The entry point must be public: a release build hides anything else, and the host finds no entry.
                @_cdecl("widget_host_entry")
                public func widgetHostEntry() -> UnsafePointer<wh_plugin_descriptor>? {
                    exportWidget(manifest: wh_manifest_json()) { _ in \(module)Widget() }
                }

                final class \(module)Widget: Widget {
                    var presses = 0

                    func render(screen: String, params: JSONValue) throws(WidgetError) -> String {
                        VStack { Text("Pressed \\(presses) times"); Button("Press", action: "bump") }.screen
                    }

                    // Only actions widget.json declares arrive here; the host's refresh (r) goes to refresh(screen:).
                    func handle(action: String, value: String?) throws(WidgetError) {
                        switch action {
                        case "bump": presses += 1
                        default: throw .unknownAction(action)
                        }
                    }
                }

                """),
            ("check.sh", """
                #!/bin/sh
                # Builds the plugin and runs widget-host's contract checks on it.
                # WIDGET_HOST names the widget-host to use (default: the one on PATH).
                set -e
                cd "$(dirname "$0")"
                swift build
                "${WIDGET_HOST:-widget-host}" validate \(library)

                """),
            ("WidgetHostSDK/Package.swift", sdkPackage),
        ])
        files += try tree(sdk + "/Sources/PluginABI", as: "WidgetHostSDK/Sources/PluginABI")
        files += try tree(sdk + "/Sources/PluginKit", as: "WidgetHostSDK/Sources/PluginKit")
        return NewProject(files: files, next: ["./check.sh", "widget-host install \(library)", "widget-host launch \(id.shortName)",
                                               "widget-host dev    # edit and save: rebuilt and reloaded on the screen"])
    }

    /// A C file, the SDK's headers copied into `include/`, and a Makefile.
    static func c(id: PluginID, sdk: String) throws(SystemError) -> NewProject {
        let file = id.shortName
        var files = text([
            ("widget.json", manifest(id, moduleName(file))),
            (".gitignore", "*.so\n"),
            ("Makefile", """
                # make: build \(file).so; make check: run widget-host's contract checks on it; make install.
                # WIDGET_HOST names the widget-host to use (default: the one on PATH).
                WIDGET_HOST ?= widget-host
                CFLAGS ?= -O2 -Wall -Wextra

                \(file).so: \(file).c widget.json
                \t$(CC) -shared -fPIC $(CFLAGS) -I include \(file).c -o $@

                check: \(file).so
                \t$(WIDGET_HOST) validate ./\(file).so

                install: check
                \t$(WIDGET_HOST) install ./\(file).so

                .PHONY: check install

                """),
            ("\(file).c", """
                #include <stdio.h>
                #include <stdlib.h>
                #include <string.h>
                #include "widget_host/widget_host.h"

                WH_MANIFEST_FILE("widget.json")

                struct wh_plugin { int presses; };

                static wh_plugin *create(const wh_host *host) { (void)host; return calloc(1, sizeof(wh_plugin)); }

                static int32_t render(wh_plugin *p, const char *screen, const char *params, const wh_output *out) {
                    (void)params;
                    if (strcmp(screen, "main") != 0) return WH_UNKNOWN_SCREEN;
                    char text[64];
                    snprintf(text, sizeof text, "Pressed %d times", p->presses);
                    wh_view_writer w;
                    wh_view_begin(&w, out);
                    wh_node_begin(&w, "vstack");
                    wh_children_begin(&w);
                    wh_text(&w, text, NULL);
                    wh_button(&w, "Press", "bump", NULL);
                    wh_children_end(&w);
                    wh_node_end(&w);
                    return wh_view_end(&w);
                }

                /* Every action arrives here, the host's refresh (WH_ACTION_REFRESH, the r key) too:
                 * answer WH_UNKNOWN_ACTION to any this widget does not know. */
                static int32_t handle_action(wh_plugin *p, const char *action, const char *value) {
                    (void)value;
                    if (strcmp(action, "bump") != 0) return WH_UNKNOWN_ACTION;
                    p->presses++;
                    return WH_OK;
                }

                static void on_event(wh_plugin *p, const char *topic, const char *json) { (void)p; (void)topic; (void)json; }
                static void destroy(wh_plugin *p) { free(p); }

                /* The id, name, version and screens come from widget.json. */
                static const wh_plugin_descriptor descriptor =
                    WH_DESCRIPTOR(create, render, handle_action, on_event, destroy, NULL);
                WH_EXPORT const wh_plugin_descriptor *widget_host_entry(void) { return &descriptor; }

                """),
        ])
        files += try tree(sdk + "/Sources/PluginABI/include", as: "include")
        files.removeAll { $0.0 == "include/module.modulemap" }
        return NewProject(files: files, next: ["make check", "make install", "widget-host launch \(file)",
                                               "widget-host dev    # edit and save: rebuilt and reloaded on the screen"])
    }

    private static func text(_ files: [(String, String)]) -> [(String, [UInt8])] {
        files.map { ($0.0, Array($0.1.utf8)) }
    }

    /// Every regular file under `directory`, read now, by its path under
    /// `prefix`; symbolic links are not followed.
    static func tree(_ directory: String, as prefix: String) throws(SystemError) -> [(String, [UInt8])] {
        guard let stream = opendir(directory) else { throw SystemError(code: errno) }
        defer { closedir(stream) }
        let entries = try Discovery.entries(of: stream)
        var files: [(String, [UInt8])] = []
        for entry in entries {
            let path = directory + "/" + entry.name
            var info = stat()
            guard lstat(path, &info) == 0 else { throw SystemError(code: errno) }
            if info.st_mode & S_IFMT == S_IFDIR {
                files += try tree(path, as: prefix + "/" + entry.name)
            } else if info.st_mode & S_IFMT == S_IFREG {
                files.append((prefix + "/" + entry.name, try FileSystem.contents(of: path)))
            }
        }
        return files
    }
}
