/// The home screen: the loaded widgets, like the "More" menu of the
/// original app. Choosing one opens its first screen.
enum HomeScreen {
    static let title = "Widgets"

    static func view(_ manifests: [Manifest]) -> ViewNode {
        guard !manifests.isEmpty else {
            return .stack(axis: .vertical, children: [
                .text("No widgets found", style: .headline, color: .primary),
                .text("Put plugin .so files in a directory on the search path; see widget-host --help.", style: .caption, color: .secondary),
            ])
        }
        return .stack(axis: .vertical, children: [
            .list(action: "open", rows: ordered(manifests).map {
                .init(id: $0.id.value, title: $0.name, detail: $0.description, badge: nil, disclosure: true)
            }),
        ])
    }

    /// By name (then id), so a widget's number stays put when another
    /// plugin appears, whatever order the directories were scanned in.
    static func ordered(_ manifests: [Manifest]) -> [Manifest] {
        manifests.sorted { ($0.name.lowercased(), $0.id.value) < ($1.name.lowercased(), $1.id.value) }
    }

    static func text(_ manifests: [Manifest], renderer: TerminalRenderer) -> String {
        let names = ordered(manifests).map(\.id.shortName).joined(separator: ", ")
        return renderer.render(view(manifests), title: title,
                               footer: manifests.isEmpty ? nil : "Open one with: widget-host launch NAME, where NAME is one of: \(names)")
    }
}
