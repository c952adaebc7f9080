/// The code the host shares with plugins (JSON, time, locks, the view model)
/// lives in one folder, `Sources/PluginKit/Shared`, and reaches the host
/// through the PluginKit module: re-exported here, so that every file of the
/// host, and every module that imports the host, sees it as before. Plugins
/// never hold a module named PluginKit (see Package.swift), so the host's
/// copy is the only one in the process under that name.
@_exported import PluginKit
