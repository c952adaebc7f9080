/// Finds the plugin a person named on the command line: a plugin file, or a
/// name `PluginNames` resolves against what the search path holds. Every
/// command that takes a plugin goes through here.
enum PluginLookup {
    enum Result {
        case found(PluginCandidate)
        case failed(String)
    }

    static let operand = Operand(name: "ID|NAME|PATH",
                                 help: "a full id, the last part of one (crypto), a display name (\"My Trips\"), or a plugin file",
                                 completion: .pluginOrFile)

    /// Whether `name` is a file rather than a name: it has a slash or ends in `.so`.
    static func isPath(_ name: String) -> Bool { name.contains("/") || name.hasSuffix(".so") }

    /// A file, or a name looked up on the search path `arguments` give (the
    /// scan's warnings said on the way, as every command that searches does).
    static func find(_ name: String, _ cli: WidgetHostCLI, _ arguments: Arguments) -> Result {
        let discovery = cli.discovery(arguments)
        if isPath(name) { return .found(discovery.inspect(path: name)) }
        let report = discovery.scan(cli.searchPath(arguments))
        report.warnings.forEach { cli.console.error("warning: \($0)") }
        return find(name, in: report.plugins)
    }

    /// Among candidates already scanned. Prefers the copy that would load: the
    /// usable one, not a shadowed or rejected twin.
    static func find(_ name: String, in plugins: [PluginCandidate]) -> Result {
        let manifests = plugins.compactMap(\.manifest)
        let resolution = PluginNames.resolve(name, among: manifests)
        guard case let .found(id) = resolution else { return .failed(PluginNames.failure(name, resolution, among: manifests)) }
        let copies = plugins.filter { $0.manifest?.id == id }
        return .found(copies.first { $0.status == .ok } ?? copies[0])
    }
}
