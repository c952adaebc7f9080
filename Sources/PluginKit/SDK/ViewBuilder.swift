/// The view model (`ViewNode`, in Shared/ViewModel), written with a result
/// builder:
///
///     VStack {
///         Text("Bitcoin").style(.title)
///         Text(priceText).color(.positive)
///         Button("Retrieve", action: "retrieve")
///     }
///
/// The builder only makes nodes; the one encoder the host also uses turns
/// them into the view description (docs/view-description.md). Presentation
/// is the host's business.
public typealias View = ViewNode
/// A row of a `List`.
public typealias Row = ViewNode.ListRow

extension ViewNode {
    /// A text's style; other nodes have none and stay as they are.
    public func style(_ style: TextStyle) -> View {
        guard case let .text(text, _, color) = self else { return self }
        return .text(text, style: style, color: color)
    }

    /// A text's or badge's colour; other nodes have none and stay as they are.
    public func color(_ color: SemanticColor) -> View {
        switch self {
        case let .text(text, style, _): .text(text, style: style, color: color)
        case let .badge(text, _): .badge(text, color: color)
        default: self
        }
    }

    /// Where the node sits in the width it is given (a list row's column, the screen).
    public func align(_ alignment: Alignment) -> View { modifying { $0.alignment = alignment } }

    /// Blank columns before each of the node's lines.
    public func padding(_ columns: Int) -> View { modifying { $0.padding = columns } }

    /// A stack's gap between children: blank lines in a VStack, columns in an HStack.
    public func spacing(_ amount: Int) -> View { modifying { $0.spacing = amount } }

    /// The machine code of what the node says (`amountNotANumber`): `launch --format json` keeps it,
    /// the screen shows only the node's words. Show a person a sentence and give scripts the code here.
    public func code(_ code: String) -> View { modifying { $0.code = code } }

    private func modifying(_ change: (inout Modifiers) -> Void) -> View {
        var modifiers = Modifiers(), node = self
        if case let .modified(inner, existing) = self { (node, modifiers) = (inner, existing) }
        change(&modifiers)
        return .modified(node, modifiers)
    }

    /// The whole screen with this view as its root, ready to return from
    /// `Widget.render`. `error` declares the screen an error state (the
    /// message a script reads as the launch's `error`); nil for a screen
    /// that shows none.
    public func screen(error: String? = nil) -> String { ViewScreen(root: self, error: error).document.serialized }

    public var screen: String { screen() }
}

@resultBuilder
public enum ViewBuilder {
    public static func buildExpression(_ view: View) -> [View] { [view] }
    public static func buildExpression(_ views: [View]) -> [View] { views }
    public static func buildBlock(_ parts: [View]...) -> [View] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [View]?) -> [View] { part ?? [] }
    public static func buildEither(first part: [View]) -> [View] { part }
    public static func buildEither(second part: [View]) -> [View] { part }
    public static func buildArray(_ parts: [[View]]) -> [View] { parts.flatMap { $0 } }
}

public func VStack(@ViewBuilder _ content: () -> [View]) -> View { .stack(axis: .vertical, children: content()) }

public func HStack(@ViewBuilder _ content: () -> [View]) -> View { .stack(axis: .horizontal, children: content()) }

public func Section(_ header: String, @ViewBuilder _ content: () -> [View]) -> View { .section(header: header, children: content()) }

public func Text(_ text: String) -> View { .text(text, style: .body, color: .primary) }

/// `prominence` says how much the button stands out: `.primary` for the screen's main action, `.destructive` for one that deletes.
public func Button(_ title: String, action: String, value: String? = nil, prominence: ViewNode.Prominence = .secondary) -> View {
    .button(title: title, action: action, value: value, prominence: prominence)
}

/// A text or amount input; typing sends `action` with the text as its value.
public func Field(_ label: String? = nil, action: String, placeholder: String = "", value: String = "", amount: Bool = false) -> View {
    .field(label: label, action: action, placeholder: placeholder, value: value, input: amount ? .amount : .text)
}

/// A field whose text is never shown (a password, a key); hosts that predate it show a placeholder.
public func SecureField(_ label: String? = nil, action: String, placeholder: String = "") -> View {
    .field(label: label, action: action, placeholder: placeholder, value: "", input: .secure)
}

/// Children drawn over one another, the first at the bottom: `Overlay(.topTrailing) { Image(...); Badge("8.7") }`.
public func Overlay(_ alignment: ViewNode.OverlayAlignment = .center, @ViewBuilder _ content: () -> [View]) -> View {
    .overlay(alignment: alignment, children: content())
}

/// Rows; choosing one sends `action` with the row's id as its value.
public func List(action: String? = nil, rows: [Row]) -> View { .list(action: action, rows: rows) }

public func Divider() -> View { .divider }
public func Spacer() -> View { .spacer }
public func Badge(_ text: String) -> View { .badge(text, color: .primary) }
public func Image(alt: String, url: String? = nil) -> View { .image(alt: alt, url: url) }

/// A sparkline of `points` (label, value), oldest first.
public func Chart(_ title: String? = nil, style: ViewNode.Chart.Style = .line, points: [(String, Double)]) -> View {
    .chart(ViewNode.Chart(title: title, style: style, points: points.map { ViewNode.Chart.Point(label: $0.0, value: $0.1) }))
}

/// A loading indicator (no fraction), or progress from 0 to 1. While a
/// screen shows an indeterminate one, scripted runs wait for it to go.
public func Progress(_ label: String? = nil, fraction: Double? = nil) -> View { .progress(label: label, fraction: fraction) }

/// A link to a screen: `widget://PLUGIN/SCREEN?key=value`.
public func Link(_ title: String, to target: String) -> View { .link(title: title, target: target) }
