import Glibc

/// `widget-host new NAME [--swift | --c] [--dir DIR] [--sdk PATH]`: a
/// standalone plugin project with a widget.json manifest, one screen with one
/// action (a counter), and a check that runs `widget-host validate`.
enum NewCommand {
    static let command = Command(
        name: "new",
        summary: "make a new plugin project (Swift package or C with a Makefile)",
        operands: [Operand(name: "NAME", help: "the plugin's id (org.example.hello) or its last part (hello, for org.example.hello)")],
        options: [.flag("--swift", "a Swift package using PluginKit (the default)"),
                  .flag("--c", "a C file, its headers and a Makefile"),
                  .value("--dir", "DIR", "where to make it (default ./LAST-PART-OF-ID); must not exist or be empty", completion: .directory),
                  .value("--sdk", "PATH", "this package's source (default: WIDGET_HOST_SDK, or the one widget-host was built from)",
                         completion: .directory)],
        run: { cli, arguments in
            guard let name = arguments.positionals.first else { throw UsageError("new needs a NAME, such as hello") }
            guard !(arguments.has("--swift") && arguments.has("--c")) else { throw UsageError("choose one of --swift and --c") }
            let id: PluginID
            do { id = try PluginID(name.contains(".") ? name : "org.example." + name) } catch {
                throw UsageError("\(error)")
            }
            let module = moduleName(id.shortName)
            guard let first = module.first, first.isLetter else {
                throw UsageError("the last part of '\(id)' must start with a letter to name a module")
            }
            guard let sdk = sdkPath(arguments.value("--sdk"), cli) else {
                throw UsageError("cannot find widget-host's source; pass --sdk PATH (the directory holding its Package.swift)")
            }
            let directory = arguments.value("--dir") ?? id.shortName
            if let existing = try? Discovery.entries(in: directory), !existing.isEmpty {
                cli.console.error("\(directory) exists and is not empty; choose another --dir")
                return 1
            }
            let host = resolved(cli.executable) ?? "widget-host"
            let template = arguments.has("--c")
                ? cProject(id: id, module: module, sdk: sdk, host: host)
                : swiftProject(id: id, module: module, sdk: sdk, host: host)
            for (path, text) in template.files {
                let full = directory + "/" + path
                do {
                    try FileSystem.makeDirectories(FileSystem.directory(of: full), mode: 0o755)
                    try FileSystem.write(Array(text.utf8), to: full, mode: path.hasSuffix(".sh") ? 0o755 : 0o644)
                } catch {
                    cli.console.error("cannot write \(full): \(error)")
                    return 1
                }
            }
            cli.console.line("made \(id) in \(directory). Next:")
            cli.console.line("  cd \(directory)")
            for step in template.next { cli.console.line("  " + step) }
            return 0
        }
    )

    struct Template {
        let files: [(String, String)]
        let next: [String]
    }

    /// "my-clock" -> "MyClock".
    static func moduleName(_ text: String) -> String {
        text.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// --sdk, else WIDGET_HOST_SDK, else the source tree above the executable
    /// (`.build/<triple>/debug/widget-host`), recognised by its C headers.
    static func sdkPath(_ explicit: String?, _ cli: WidgetHostCLI) -> String? {
        let header = "/Sources/PluginABI/include/widget_host/widget_host.h"
        if let given = explicit ?? cli.environment["WIDGET_HOST_SDK"] {
            return resolved(given).flatMap { access($0 + header, R_OK) == 0 ? $0 : nil }
        }
        var directory = resolved(cli.executable).map(FileSystem.directory(of:)) ?? ""
        while directory.count > 1 {
            if access(directory + header, R_OK) == 0 { return directory }
            directory = FileSystem.directory(of: directory)
        }
        return nil
    }

    static func manifest(_ id: PluginID, _ module: String) -> String {
        """
        {"abi": "1.0", "id": "\(id)", "name": "\(module)", "version": "0.1.0", "description": "Counts presses.",
         "screens": [{"id": "main", "title": "\(module)", "actions": ["bump"]}],
         "services": {"required": [], "optional": []}}

        """
    }

    static func swiftProject(id: PluginID, module: String, sdk: String, host: String) -> Template {
        let identity = FileSystem.lastComponent(of: sdk).lowercased()
        let library = ".build/debug/lib\(module).so"
        return Template(files: [
            ("widget.json", manifest(id, module)),
            ("Package.swift", """
                // swift-tools-version: 6.1
                import PackageDescription

                let package = Package(
                    name: "\(module)",
                    products: [.library(name: "\(module)", type: .dynamic, targets: ["\(module)"])],
                    dependencies: [.package(path: "\(sdk)")],
                    targets: [
                        // Embeds widget.json in the plugin's manifest section.
                        .target(name: "\(module)Manifest", dependencies: [.product(name: "PluginABI", package: "\(identity)")],
                                cSettings: [.define("WIDGET_JSON", to: "\\"\\(Context.packageDirectory)/widget.json\\"")]),
                        .target(name: "\(module)", dependencies: [
                            "\(module)Manifest",
                            .product(name: "PluginABI", package: "\(identity)"),
                            // The SDK under a module name of this plugin's own.
                            .product(name: "PluginKit", package: "\(identity)", moduleAliases: ["PluginKit": "\(module)PluginKit"]),
                        ]),
                    ]
                )

                """),
            ("Sources/\(module)Manifest/include/\(module)Manifest.h", "#include \"widget_host/manifest.h\"\n"),
            ("Sources/\(module)Manifest/manifest.c", """
                /* After editing widget.json, touch this file: SwiftPM does not see the assembler read it. */
                #include "widget_host/widget_host.h"
                WH_MANIFEST_FILE(WIDGET_JSON)

                """),
            ("Sources/\(module)/\(module).swift", """
                import \(module)Manifest
                import PluginABI
                import PluginKit

                @_cdecl("widget_host_entry")
                public func widgetHostEntry() -> UnsafePointer<wh_plugin_descriptor>? {
                    exportWidget(manifest: wh_manifest_json()) { _ in \(module)Widget() }
                }

                final class \(module)Widget: Widget {
                    var presses = 0

                    func render(screen: String, params: JSONValue) throws(WidgetError) -> String {
                        VStack { Text("Pressed \\(presses) times"); Button("Press", action: "bump") }.screen
                    }

                    func handle(action: String, value: String?) throws(WidgetError) {
                        presses += 1  // the SDK refuses any action widget.json does not declare
                    }
                }

                """),
            ("check.sh", """
                #!/bin/sh
                # Builds the plugin and runs widget-host's contract checks on it.
                set -e
                cd "$(dirname "$0")"
                swift build
                "${WIDGET_HOST:-\(host)}" validate \(library)

                """),
        ], next: ["swift build", "./check.sh", "\(host) install \(library)", "\(host) launch \(id.shortName)"])
    }

    static func cProject(id: PluginID, module: String, sdk: String, host: String) -> Template {
        let file = id.shortName
        return Template(files: [
            ("widget.json", manifest(id, module)),
            ("Makefile", """
                # make: build \(file).so; make check: run widget-host's contract checks on it.
                WIDGET_HOST ?= \(host)
                WIDGET_HOST_SDK ?= \(sdk)
                CFLAGS ?= -O2 -Wall -Wextra

                \(file).so: \(file).c widget.json
                \tcc -shared -fPIC $(CFLAGS) -I $(WIDGET_HOST_SDK)/Sources/PluginABI/include \(file).c -o $@

                check: \(file).so
                \t$(WIDGET_HOST) validate ./\(file).so

                install: check
                \t$(WIDGET_HOST) install ./\(file).so

                .PHONY: check install

                """),
            ("\(file).c", """
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
        ], next: ["make check", "make install", "\(host) launch \(file)"])
    }
}
