/// A widget's settings as the dashboard's settings screen shows and edits
/// them (WidgetKit's "Edit Widget"): each setting the widget declares, with
/// the value the configuration file gives it, its default and its help; an
/// edit is checked and written exactly as `config set` does (ConfigFile).
struct SettingsScreen {
    let manifest: Manifest
    /// Every widget on the search path, to address the file's sections as `config` does.
    let manifests: [Manifest]
    let path: String

    var title: String { "\(manifest.name) · settings" }

    /// The settings, one field each (its number edits it) with a caption of its default and help.
    func view() -> ViewNode {
        let file: ConfigFile
        do { file = try ConfigFile.open(path) } catch {
            return .text("\(error); fix the file, or edit it with widget-host config", style: .body, color: .negative)
        }
        let section = file.section(for: manifest, among: manifests)
        let settings = manifest.settings ?? []
        var children: [ViewNode] = [.text("From \(path)", style: .caption, color: .secondary)]
        if settings.isEmpty { children.append(.text("\(manifest.name) declares no settings.", style: .body, color: .primary)) }
        for setting in settings {
            let value = section[setting.key].map(Self.text) ?? ""
            let fallback = setting.defaultValue.map { "default " + Self.text($0) } ?? "not set"
            children.append(.field(label: setting.key, action: setting.key, placeholder: fallback, value: value, input: .text))
            let help = ConfigCommand.describe(setting) + (setting.defaultValue.map { " · default " + Self.text($0) } ?? "")
            children.append(.modified(.text(help, style: .caption, color: .secondary), .init(padding: 4)))
        }
        return .stack(axis: .vertical, children: children)
    }

    /// Sets `key` to what the person typed: checked, then written atomically.
    /// Throws the refusal, naming the setting and the widget; a refused
    /// value leaves the file byte for byte.
    func set(_ key: String, text: String) throws -> String {
        let value = try ConfigFile.checkedValue(text, key: key, of: manifest)
        try ConfigFile.update(path) { file in
            file.set(key, to: value, section: file.sectionName(for: manifest, among: manifests))
            return true
        }
        return "\(key) is now \(Self.text(value))"
    }

    /// A value as a person types it: a string without its quotes.
    static func text(_ value: JSONValue) -> String { value.string ?? value.serialized }
}
