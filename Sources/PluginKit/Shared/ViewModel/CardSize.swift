/// The size of a dashboard card, as WidgetKit's families: a small card is
/// one cell of the dashboard's grid, a medium one two cells side by side, a
/// large one two by two. A widget lists the sizes it designs in its
/// manifest (`"sizes": ["small", "medium"]`); the host then renders its
/// first screen with the reserved parameter `widget-host.size` (plugin.h,
/// WH_PARAM_CARD_SIZE) set to the card's size.
public enum CardSize: String, Sendable, CaseIterable, Comparable {
    case small, medium, large

    /// The render parameter that carries the size (WH_PARAM_CARD_SIZE).
    public static let parameter = "widget-host.size"

    /// The cells of the grid the card takes.
    public var columns: Int { self == .small ? 1 : 2 }
    public var rows: Int { self == .large ? 2 : 1 }

    public static func < (lhs: CardSize, rhs: CardSize) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
