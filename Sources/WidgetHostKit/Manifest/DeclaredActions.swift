/// The host's one rule for actions, for every plugin whatever its language:
/// an action reaches a plugin only if some screen of its manifest declares
/// it, or it is the host's own (`widget-host.*`, such as WH_ACTION_REFRESH).
/// The session refuses the others before the plugin is called, and
/// `validate` fails a screen whose view offers one.
public enum DeclaredActions {
    static let hostPrefix = "widget-host."

    /// Why `action` may not reach the plugin of `manifest`, or nil if it may.
    public static func refusal(of action: String, for manifest: Manifest) -> String? {
        guard !action.hasPrefix(hostPrefix), !manifest.screens.contains(where: { $0.actions.contains(action) }) else { return nil }
        return "action '\(action)' is not declared by any screen of \(manifest.id)'s manifest"
    }

    /// Why the view `screen` rendered offers an action no screen declares,
    /// naming the fix, or nil if every action it offers is declared. Links
    /// are the host's to follow, not the plugin's actions.
    static func problem(offering actions: [ScreenAction], on screen: String, for manifest: Manifest) -> String? {
        let undeclared = Set(actions.filter { $0.kind != .link && refusal(of: $0.action, for: manifest) != nil }.map(\.action))
        guard !undeclared.isEmpty else { return nil }
        let names = undeclared.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
        return "the view offers \(names), which no screen of the manifest declares, so the host would refuse it: "
            + "add \(names) to the \"actions\" of screen \"\(screen)\" in the manifest"
    }
}
