/// One node of a widget's screen: the view model the SDK's builder makes,
/// the description carries (ViewJSON, ViewDescription) and the host renders
/// (see docs/view-description.md). Plugins and the host compile this one
/// file, so a new kind or modifier is added here, in the encoder and in the
/// parser beside it, and nowhere else.
///
/// Parsing never fails the whole screen for one odd node: an unknown kind
/// becomes a visible placeholder. Only a description that is not JSON, not
/// the right shape at the top, too large or too deep is refused whole, and
/// the host shows an error panel naming the plugin instead.
public indirect enum ViewNode: Equatable, Sendable {
    case stack(axis: Axis, children: [ViewNode])
    case section(header: String, children: [ViewNode])
    case text(String, style: TextStyle, color: SemanticColor)
    case button(title: String, action: String, value: String?)
    case field(label: String?, action: String, placeholder: String, value: String, input: FieldInput)
    case list(action: String?, rows: [ListRow])
    case divider
    case spacer
    case badge(String, color: SemanticColor)
    case image(alt: String, url: String?)
    case progress(label: String?, fraction: Double?)
    case link(title: String, target: String)
    /// A line or bar sparkline (ViewChart.swift).
    case chart(Chart)
    /// A node of a kind this host does not know, shown as a placeholder.
    case unknown(kind: String)

    public enum Axis: String, Sendable { case vertical, horizontal }
    public enum TextStyle: String, Sendable, CaseIterable { case title, headline, body, caption, monospaced, emphasis }
    public enum SemanticColor: String, Sendable, CaseIterable { case primary, secondary, positive, negative, warning }
    public enum FieldInput: String, Sendable { case text, amount }

    public struct ListRow: Equatable, Sendable {
        public let id: String
        public let title: String
        public let detail: String?
        public let badge: String?

        public init(id: String, title: String, detail: String? = nil, badge: String? = nil) {
            self.id = id
            self.title = title
            self.detail = detail
            self.badge = badge
        }
    }
}

/// A whole screen: its root node, and the error it shows, if it shows one.
/// A widget that renders an error state ("Price unavailable") says so here,
/// so that a script reads it from `launch --format json`'s `error` instead of
/// searching the view.
public struct ViewScreen: Equatable, Sendable {
    public var root: ViewNode
    public var error: String?

    public init(root: ViewNode, error: String? = nil) {
        self.root = root
        self.error = error
    }
}
