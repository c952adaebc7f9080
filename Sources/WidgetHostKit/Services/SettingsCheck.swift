/// Checks configured values against the settings each widget declares
/// (DeclaredSetting): every scanning command warns about what it finds, and
/// `config set` refuses it. Each problem names the widget and the setting,
/// so a person knows which line of which section to fix.
public enum SettingsCheck {
    /// How a problem names a widget: `Crypto (org.widgethost.crypto)`.
    static func widget(_ manifest: Manifest) -> String { "\(manifest.name) (\(manifest.id))" }

    /// Why `value` cannot be `key` of the widget, or nil when it can (or the
    /// widget declares no settings, so nothing can be said).
    public static func problem(_ manifest: Manifest, key: String, value: JSONValue) -> String? {
        guard let settings = manifest.settings else { return nil }
        guard let setting = settings.first(where: { $0.key == key }) else { return unknownKey(manifest, key) }
        return setting.problem(with: value).map { "the setting \(key) of \(widget(manifest)) must be \($0)" }
    }

    /// The words for a key the widget does not declare, with the closest it does.
    static func unknownKey(_ manifest: Manifest, _ key: String) -> String {
        let keys = (manifest.settings ?? []).map(\.key)
        let hint = Suggestions.closest(to: key, among: keys).map { " (did you mean '\($0)'?)" } ?? ""
        let known = keys.isEmpty ? "it declares none" : "its settings are " + keys.joined(separator: ", ")
        return "\(widget(manifest)) has no setting '\(key)'\(hint); \(known)"
    }

    /// Every problem with the values the configuration gives the widgets in
    /// `manifests` (their sections and `--set`, as each widget would see them).
    public static func problems(_ config: HostConfig, manifests: [Manifest]) -> [String] {
        var seen = Set<String>(minimumCapacity: manifests.count)
        return manifests.filter { seen.insert($0.id.value).inserted }.flatMap { manifest -> [String] in
            guard case let .object(members) = config.section(for: manifest.id) else { return [] }
            return members.compactMap { problem(manifest, key: $0.0, value: $0.1) }
        }
    }
}
