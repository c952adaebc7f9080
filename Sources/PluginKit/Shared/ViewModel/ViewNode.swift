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
    case button(title: String, action: String, value: String?, prominence: Prominence = .secondary)
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
    /// Children drawn over one another, the first at the bottom (a badge on an image).
    case overlay(alignment: OverlayAlignment, children: [ViewNode])
    /// A node with modifiers: `align`, `padding`, `spacing` and `code` keys on any node.
    case modified(ViewNode, Modifiers)
    /// A node of a kind this host does not know, shown as a placeholder.
    case unknown(kind: String)

    public enum Axis: String, Sendable { case vertical, horizontal }
    public enum TextStyle: String, Sendable, CaseIterable { case title, headline, body, caption, monospaced, emphasis }
    public enum SemanticColor: String, Sendable, CaseIterable { case primary, secondary, positive, negative, warning }
    /// `secure` hides what is typed; it is written as the kind `securefield`, so a host
    /// that predates it shows a placeholder instead of the field's value in clear.
    public enum FieldInput: String, Sendable { case text, amount, secure }
    public enum Prominence: String, Sendable, CaseIterable { case primary, secondary, destructive }
    public enum Alignment: String, Sendable, CaseIterable { case leading, center, trailing }

    /// Where an overlay places its upper children: `topTrailing`, `center`, `bottom`...
    public enum OverlayAlignment: String, Sendable, CaseIterable {
        case topLeading, top, topTrailing, leading, center, trailing, bottomLeading, bottom, bottomTrailing

        public var horizontal: Alignment {
            switch self {
            case .topLeading, .leading, .bottomLeading: .leading
            case .top, .center, .bottom: .center
            case .topTrailing, .trailing, .bottomTrailing: .trailing
            }
        }

        /// 0 top, 1 middle, 2 bottom.
        public var vertical: Int {
            switch self {
            case .topLeading, .top, .topTrailing: 0
            case .leading, .center, .trailing: 1
            case .bottomLeading, .bottom, .bottomTrailing: 2
            }
        }
    }

    /// Keys any node may carry: the layout it asks for, and the machine code of what it says;
    /// nil or 0 is "as usual". Older hosts ignore these keys.
    public struct Modifiers: Equatable, Sendable {
        /// Where the node sits in the width it is given (a column of a list row, the screen).
        public var alignment: Alignment?
        /// Columns of blank space before the node's every line.
        public var padding: Int
        /// Between a stack's children: blank lines (vertical) or columns (horizontal).
        public var spacing: Int?
        /// A stable name for scripts (`amountNotANumber`) of what the node tells a person in words:
        /// kept in the JSON, never drawn, so the screen reads as sentences and a script need not parse them.
        public var code: String?

        public init(alignment: Alignment? = nil, padding: Int = 0, spacing: Int? = nil, code: String? = nil) {
            self.alignment = alignment
            self.padding = padding
            self.spacing = spacing
            self.code = code
        }

        /// Whether the node is laid out as it would be without these modifiers (a code alone).
        public var keepsLayout: Bool { alignment == nil && padding == 0 && spacing == nil }

        public static let maxPadding = 40
        public static let maxSpacing = 8
        public static let maxCodeLength = 64
    }

    public struct ListRow: Equatable, Sendable {
        public let id: String
        public let title: String
        public let detail: String?
        public let badge: String?
        /// Nodes shown in the row's columns instead of `detail` (a price, a change, a badge); each
        /// column lines up across the rows. Hosts that predate them show `detail`: set both.
        public let cells: [ViewNode]
        /// Choosing the row opens another screen: drawn with a mark, as links are.
        public let disclosure: Bool

        public init(id: String, title: String, detail: String? = nil, badge: String? = nil, cells: [ViewNode] = [], disclosure: Bool = false) {
            self.id = id
            self.title = title
            self.detail = detail
            self.badge = badge
            self.cells = cells
            self.disclosure = disclosure
        }
    }
}

extension ViewNode {
    /// The nodes a container holds (a modified node holds the one it modifies); none for a leaf.
    public var contained: [ViewNode] {
        switch self {
        case let .stack(_, children), let .section(_, children), let .overlay(_, children): children
        case let .modified(node, _): [node]
        default: []
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
