/// Which cards a dashboard has, in order, and how each runs: the
/// configuration's `"dashboard"` object, or by default every widget found,
/// medium, in a stable order by name.
public struct DashboardSpec: Equatable, Sendable {
    public struct Card: Equatable, Sendable {
        /// As the person named it: an id, a last segment or a display name.
        public var widget: String
        public var size: CardSize
        /// nil: the default (isolated unless the plugin shipped with the host).
        public var isolated: Bool?
        /// Ask the widget for fresh data this often (WH_ACTION_REFRESH).
        public var refreshSeconds: Double?

        public init(widget: String, size: CardSize = .medium, isolated: Bool? = nil, refreshSeconds: Double? = nil) {
            self.widget = widget
            self.size = size
            self.isolated = isolated
            self.refreshSeconds = refreshSeconds
        }
    }

    public var cards: [Card]
    /// At most this many grid columns (fewer when the terminal is narrow).
    public var columns: Int?
    /// What `columns` may be, from the configuration or `--columns`.
    public static let columnRange = 1...12

    public init(cards: [Card], columns: Int? = nil) {
        self.cards = cards
        self.columns = columns
    }

    /// The smallest refresh interval a card may ask for: a dashboard is
    /// glanced at, and a widget's server is someone else's.
    public static let minimumRefreshSeconds = 10.0

    public static func everyWidget(_ manifests: [Manifest]) -> DashboardSpec {
        DashboardSpec(cards: HomeScreen.ordered(manifests).map { Card(widget: $0.id.value) })
    }
}
