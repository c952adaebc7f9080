import Glibc

/// `widget-host new NAME [--swift | --c] [--dir DIR] [--sdk PATH]`: a
/// standalone plugin project with a widget.json manifest, one screen with one
/// action (a counter), and a check that runs `widget-host validate`.
///
/// The project holds no path of the machine it was made on: the SDK it
/// builds against is copied into it (`WidgetHostSDK/` for Swift, `include/`
/// for C), and every file names the others relatively. So a directory name
/// never reaches shell, make or Swift source, whatever it holds, and the
/// project builds wherever it is moved or cloned.
enum NewCommand {
    static let command = Command(
        name: "new",
        summary: "make a new plugin project (Swift package or C with a Makefile)",
        operands: [Operand(name: "NAME", help: "the plugin's id (org.example.hello) or its last part (hello, for org.example.hello)")],
        options: [.flag("--swift", "a Swift package using PluginKit (the default)"),
                  .flag("--c", "a C file, its headers and a Makefile"),
                  .value("--dir", "DIR", "where to make it (default ./LAST-PART-OF-ID); must not exist or be empty", completion: .directory),
                  .value("--sdk", "PATH", "the SDK to copy into the project (default: WIDGET_HOST_SDK, else the one installed with "
                         + "widget-host in ../share/widget-host/sdk, else the source tree it was built from)", completion: .directory)],
        run: { cli, arguments in
            guard let name = arguments.positionals.first else { throw UsageError("new needs a NAME, such as hello") }
            guard !(arguments.has("--swift") && arguments.has("--c")) else { throw UsageError("choose one of --swift and --c") }
            let id: PluginID
            do { id = try PluginID(name.contains(".") ? name : "org.example." + name) } catch {
                throw UsageError("\(error)")
            }
            let module = NewProject.moduleName(id.shortName)
            guard let first = module.first, first.isLetter else {
                throw UsageError("the last part of '\(id)' must start with a letter to name a module")
            }
            guard let sdk = sdkPath(arguments.value("--sdk"), cli) else {
                // A path the user gave is named: the search below it was never made.
                if let given = arguments.value("--sdk").map({ "--sdk \($0)" }) ?? cli.environment["WIDGET_HOST_SDK"].map({ "WIDGET_HOST_SDK=\($0)" }) {
                    throw UsageError("\(given) is not a widget-host SDK: it has no readable \(sdkHeader.dropFirst())")
                }
                throw UsageError("cannot find the widget-host SDK (a directory holding Sources/PluginABI and Sources/PluginKit): set "
                    + "WIDGET_HOST_SDK or pass --sdk PATH; an installed widget-host looks in ../share/widget-host/sdk beside its bin directory")
            }
            let directory = arguments.value("--dir") ?? id.shortName
            if let existing = try? Discovery.entries(in: directory), !existing.isEmpty {
                cli.console.error("\(directory) exists and is not empty; choose another --dir")
                return ExitStatus.failure
            }
            let project: NewProject
            do {
                project = arguments.has("--c") ? try .c(id: id, sdk: sdk) : try .swift(id: id, module: module, sdk: sdk)
            } catch {
                cli.console.error("cannot read the SDK at \(sdk): \(error)")
                return ExitStatus.failure
            }
            for (path, text) in project.files {
                let full = directory + "/" + path
                do {
                    try FileSystem.makeDirectories(FileSystem.directory(of: full), mode: 0o755)
                    try FileSystem.write(text, to: full, mode: path.hasSuffix(".sh") ? 0o755 : 0o644)
                } catch {
                    cli.console.error("cannot write \(full): \(error)")
                    return ExitStatus.failure
                }
            }
            cli.console.line("made \(id) in \(TerminalText.safe(directory)). Next:")
            cli.console.line("  cd " + TerminalText.safe(ShellWord.quoted(directory)))
            for step in project.next { cli.console.line("  " + step) }
            return ExitStatus.success
        }
    )

    static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// --sdk, else WIDGET_HOST_SDK, else where an install keeps it
    /// (BIN/../share/widget-host/sdk), else the source tree above the
    /// executable (`.build/<triple>/debug/widget-host`); each recognised by
    /// its C headers.
    static let sdkHeader = "/Sources/PluginABI/include/widget_host/widget_host.h"

    static func sdkPath(_ explicit: String?, _ cli: WidgetHostCLI) -> String? {
        let header = sdkHeader
        if let given = explicit ?? cli.environment["WIDGET_HOST_SDK"] {
            return resolved(given).flatMap { access($0 + header, R_OK) == 0 ? $0 : nil }
        }
        guard let binary = resolved(cli.executable).map(FileSystem.directory(of:)) else { return nil }
        let installed = FileSystem.directory(of: binary) + "/share/widget-host/sdk"
        if access(installed + header, R_OK) == 0 { return installed }
        var directory = binary
        while directory.count > 1 {
            if access(directory + header, R_OK) == 0 { return directory }
            directory = FileSystem.directory(of: directory)
        }
        return nil
    }
}
