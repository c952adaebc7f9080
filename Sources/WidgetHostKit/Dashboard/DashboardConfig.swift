/// The configuration's `"dashboard"` object:
///
///     { "dashboard": { "columns": 3,
///                      "cards": [ "crypto",
///                                 { "widget": "trips", "size": "small", "isolated": false, "refreshSeconds": 600 } ] } }
///
/// A card is a widget's name, or an object with its name and options.
/// Without the object, every widget found gets a medium card, by name.
enum DashboardConfig {
    static let keys = ["columns", "cards"]
    static let cardKeys = ["widget", "size", "isolated", "refreshSeconds"]

    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    static func spec(_ config: HostConfig, manifests: [Manifest]) throws(Invalid) -> DashboardSpec {
        guard let section = config.root["dashboard"], section != .null else { return .everyWidget(manifests) }
        guard case let .object(members) = section else { throw Invalid(description: "\"dashboard\" must be an object with \"cards\" and \"columns\"") }
        for (key, _) in members where !keys.contains(key) { throw unknown(key, in: "dashboard", known: keys) }
        var spec = DashboardSpec.everyWidget(manifests)
        if let columns = section["columns"] {
            guard let number = columns.int64, (1...12).contains(number) else { throw Invalid(description: "dashboard.columns must be a number from 1 to 12") }
            spec.columns = Int(number)
        }
        if let cards = section["cards"] {
            guard let items = cards.array else { throw Invalid(description: "dashboard.cards must be an array of widget names or card objects") }
            spec.cards = try items.enumerated().map { (index, item) throws(Invalid) -> DashboardSpec.Card in try card(item, at: index) }
        }
        return spec
    }

    private static func card(_ item: JSONValue, at index: Int) throws(Invalid) -> DashboardSpec.Card {
        let place = "dashboard.cards[\(index)]"
        if let name = item.string { return DashboardSpec.Card(widget: name) }
        guard case let .object(members) = item else { throw Invalid(description: "\(place) must be a widget's name or an object with \"widget\"") }
        for (key, _) in members where !cardKeys.contains(key) { throw unknown(key, in: place, known: cardKeys) }
        guard let widget = item["widget"]?.string, !widget.isEmpty else { throw Invalid(description: "\(place) needs \"widget\": the widget's name") }
        var card = DashboardSpec.Card(widget: widget)
        if let size = item["size"] {
            guard let name = size.string, let value = CardSize(rawValue: name) else {
                let close = size.string.flatMap { Suggestions.closest(to: $0, among: CardSize.allCases.map(\.rawValue)) }
                let hint = close.map { " (did you mean '\($0)'?)" } ?? ""
                throw Invalid(description: "\(place).size must be small, medium or large\(hint)")
            }
            card.size = value
        }
        if let isolated = item["isolated"] {
            guard case let .bool(value) = isolated else { throw Invalid(description: "\(place).isolated must be true or false") }
            card.isolated = value
        }
        if let refresh = item["refreshSeconds"] {
            guard case let .number(text) = refresh, let seconds = Double(text), seconds >= DashboardSpec.minimumRefreshSeconds, seconds <= 86_400 else {
                throw Invalid(description: "\(place).refreshSeconds must be a number of seconds from \(Int(DashboardSpec.minimumRefreshSeconds)) to 86400")
            }
            card.refreshSeconds = seconds
        }
        return card
    }

    private static func unknown(_ key: String, in place: String, known: [String]) -> Invalid {
        let hint = Suggestions.closest(to: key, among: known).map { " (did you mean '\($0)'?)" } ?? ""
        return Invalid(description: "\(place) has an unknown key '\(key)'\(hint); known keys: \(known.joined(separator: ", "))")
    }
}
