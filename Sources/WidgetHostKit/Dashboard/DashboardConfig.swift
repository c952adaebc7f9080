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
        /// The key or value the mistake is in, to find its line and column.
        var word: String?
    }

    static func spec(_ config: HostConfig, manifests: [Manifest]) throws(Invalid) -> DashboardSpec {
        guard let section = config.root["dashboard"], section != .null else { return .everyWidget(manifests) }
        guard case let .object(members) = section else {
            throw Invalid(description: "\"dashboard\" must be an object with \"cards\" and \"columns\"", word: "dashboard")
        }
        for (key, _) in members where !keys.contains(key) { throw unknown(key, in: "dashboard", known: keys) }
        var spec = DashboardSpec.everyWidget(manifests)
        if let columns = section["columns"] {
            let range = DashboardSpec.columnRange
            guard let number = columns.int64, range.contains(Int(clamping: number)) else {
                throw Invalid(description: "dashboard.columns must be a number from \(range.lowerBound) to \(range.upperBound)", word: "columns")
            }
            spec.columns = Int(number)
        }
        if let cards = section["cards"] {
            guard let items = cards.array else { throw Invalid(description: "dashboard.cards must be an array of widget names or card objects", word: "cards") }
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
                throw Invalid(description: "\(place).size must be small, medium or large\(hint)", word: size.string ?? "size")
            }
            card.size = value
        }
        if let isolated = item["isolated"] {
            guard case let .bool(value) = isolated else { throw Invalid(description: "\(place).isolated must be true or false", word: "isolated") }
            card.isolated = value
        }
        if let refresh = item["refreshSeconds"] {
            guard case let .number(text) = refresh, let seconds = Double(text), seconds >= DashboardSpec.minimumRefreshSeconds, seconds <= 86_400 else {
                throw Invalid(description: "\(place).refreshSeconds must be a number of seconds from \(Int(DashboardSpec.minimumRefreshSeconds)) to 86400",
                              word: "refreshSeconds")
            }
            card.refreshSeconds = seconds
        }
        return card
    }

    private static func unknown(_ key: String, in place: String, known: [String]) -> Invalid {
        let hint = Suggestions.closest(to: key, among: known).map { " (did you mean '\($0)'?)" } ?? ""
        return Invalid(description: "\(place) has an unknown key '\(key)'\(hint); known keys: \(known.joined(separator: ", "))", word: key)
    }

    /// The error as the configuration file's errors read: its path, the
    /// line and column of the word at fault (its first appearance after
    /// "dashboard"), and the message.
    static func located(_ error: Invalid, path: String) -> String {
        guard let word = error.word, let bytes = try? FileSystem.contents(of: path) else { return "configuration \(path): \(error)" }
        let start = find(Array("\"dashboard\"".utf8), in: bytes, from: 0) ?? 0
        guard let at = find(Array("\"\(word)\"".utf8), in: bytes, from: start) ?? find(Array(word.utf8), in: bytes, from: start) else {
            return "configuration \(path): \(error)"
        }
        let before = bytes[..<at]
        let line = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let column = bytes[lineStart..<at].filter { $0 & 0xC0 != 0x80 }.count + 1
        return "configuration \(path): line \(line), column \(column): \(error)"
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        return (start...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
