/// How `launch` and the home screen choose where plugins run.
extension WidgetHostCLI {
    /// The configuration's isolation settings, with `--isolate` forcing
    /// isolation on.
    func isolationSettings(_ arguments: Arguments, config: HostConfig) throws(PluginRunSettingsError) -> PluginRunSettings {
        var settings = try PluginRunSettings(config: config)
        if arguments.has("--isolate") { settings.mode = .always }
        settings.allowWeakSandbox = arguments.has("--allow-weak-sandbox")
        return settings
    }

    func launcher(for settings: PluginRunSettings) -> WidgetLauncher {
        guard settings.mode == .always else { return launchInProcess(maxEventsPerSecond: settings.maxEventsPerSecond) }
        return IsolatedLauncher(executable: executable, settings: settings, environment: environment).launcher
    }
}
