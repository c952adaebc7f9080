/// A setting a widget declares in its manifest (`"settings": [...]`): what a
/// person may put in its section of the configuration, so the host can check
/// a value before the widget sees it, `config set` can refuse a bad one, and
/// completion and the dashboard can offer the keys with their help.
///
///     {"key": "refreshSeconds", "type": "integer", "default": 30, "minimum": 1, "maximum": 86400,
///      "help": "seconds between two price fetches"}
public struct DeclaredSetting: Equatable, Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        case string, integer, number, boolean
        /// An exact decimal such as an amount: a JSON number, or a string of
        /// digits with an optional fraction (`"50.00"`), kept as written.
        case decimal
    }

    public let key: String
    public let kind: Kind
    public let defaultValue: JSONValue?
    /// The only values allowed, when the widget lists them.
    public let values: [JSONValue]
    public let minimum: Double?
    public let maximum: Double?
    public let help: String

    /// Why `value` is not a value of this setting, in words that follow
    /// "KEY must be ..."; nil when it is one.
    public func problem(with value: JSONValue) -> String? {
        // The words are made only for a value that fails: every listing
        // checks every declared default.
        if !values.isEmpty {
            return values.contains(value) ? nil : "one of \(values.map(\.serialized).joined(separator: ", ")), not \(value.serialized)"
        }
        if let number = Self.number(value, kind), minimum.map({ number >= $0 }) != false, maximum.map({ number <= $0 }) != false {
            return nil
        }
        let expected: String
        switch kind {
        case .string: expected = "a string"
        case .integer: expected = "an integer"
        case .number: expected = "a number"
        case .boolean: expected = "true or false"
        case .decimal: expected = "a decimal"
        }
        let range: String
        switch (minimum, maximum) {
        case let (minimum?, maximum?): range = " from \(Self.text(minimum)) to \(Self.text(maximum))"
        case let (minimum?, nil): range = " of at least \(Self.text(minimum))"
        case let (nil, maximum?): range = " of at most \(Self.text(maximum))"
        case (nil, nil): range = ""
        }
        let example = kind == .decimal ? ", written like 50.00" : ""
        return "\(expected)\(range)\(example), not \(value.serialized)"
    }

    /// The JSON a person means by `text` on the command line: a string for a
    /// string or a decimal (kept exactly as typed), a number, or a boolean.
    public func value(fromText text: String) -> JSONValue {
        switch kind {
        case .string, .decimal: return .string(text)
        case .boolean: return text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(text)
        case .integer, .number:
            if let parsed = try? JSONParser.parse(text), case .number = parsed { return parsed }
            return .string(text)
        }
    }

    /// The value's magnitude for a range check; nil when the value is not of
    /// the kind (a string is no number; a decimal may be either, plainly written).
    private static func number(_ value: JSONValue, _ kind: Kind) -> Double? {
        switch (kind, value) {
        case (.string, .string): return 0
        case (.boolean, .bool): return 0
        case let (.integer, .number(text)): return Int64(text).map(Double.init)
        case let (.number, .number(text)): return Double(text)
        case let (.decimal, .number(text)), let (.decimal, .string(text)): return isPlainDecimal(text) ? Double(text) : nil
        default: return nil
        }
    }

    /// `0|[1-9][0-9]*` with an optional `.` and digits: what Checkout's amounts are.
    static func isPlainDecimal(_ text: String) -> Bool {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digits = { (part: Substring) in !part.isEmpty && part.utf8.allSatisfy { (48...57).contains($0) } }
        return digits(parts[0]) && (parts[0] == "0" || parts[0].first != "0") && (parts.count == 1 || digits(parts[1]))
    }

    static func text(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}

extension DeclaredSetting.Kind {
    var isNumeric: Bool { self == .integer || self == .number || self == .decimal }
}

extension DeclaredSetting {
    /// `"settings"`: nil when the manifest has no such key (the widget says
    /// nothing about its settings, so none can be checked), else each one,
    /// its key once, its default and allowed values of its type.
    static func all(in json: JSONValue?) throws(ManifestError) -> [DeclaredSetting]? {
        guard let json, json != .null else { return nil }
        guard let items = json.array else { throw ManifestError("manifest field \"settings\" must be an array of objects") }
        var settings: [DeclaredSetting] = []
        for item in items {
            let setting = try DeclaredSetting(json: item)
            guard !settings.contains(where: { $0.key == setting.key }) else {
                throw ManifestError("manifest settings declare \"\(setting.key)\" twice")
            }
            settings.append(setting)
        }
        return settings
    }

    init(json: JSONValue) throws(ManifestError) {
        guard json.isObject else { throw ManifestError("manifest field \"settings\" must be an array of objects") }
        guard let key = json["key"]?.string, Self.isValidKey(key) else {
            let named = json["key"]?.serialized ?? "without a key"
            throw ManifestError("manifest setting \(named): \"key\" must be 1 to 64 of [A-Za-z0-9_-], starting with a letter")
        }
        var context: String { "manifest setting \"\(key)\"" }
        guard let typeName = json["type"]?.string, let kind = Kind(rawValue: typeName) else {
            let kinds = Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw ManifestError("\(context): \"type\" must be one of \(kinds)")
        }
        guard let help = json["help"]?.string, !help.isEmpty, help.utf8.count <= 200, !Self.hasLineBreak(help) else {
            throw ManifestError("\(context): \"help\" must be one line of at most 200 bytes")
        }
        func bound(_ name: String) throws(ManifestError) -> Double? {
            guard let value = json[name], value != .null else { return nil }
            guard kind.isNumeric, case let .number(text) = value, let number = Double(text) else {
                throw ManifestError("\(context): \"\(name)\" must be a number, and only an integer, number or decimal has one")
            }
            return number
        }
        let values: [JSONValue]
        switch json["values"] {
        case nil, .null?: values = []
        case let .array(items)? where !items.isEmpty: values = items
        default: throw ManifestError("\(context): \"values\" must be a non-empty array")
        }
        self.init(key: key, kind: kind, defaultValue: json["default"].flatMap { $0 == .null ? nil : $0 }, values: values,
                  minimum: try bound("minimum"), maximum: try bound("maximum"), help: help)
        let plain = DeclaredSetting(key: key, kind: kind, defaultValue: nil, values: [], minimum: minimum, maximum: maximum, help: help)
        if let bad = values.first(where: { plain.problem(with: $0) != nil }), let problem = plain.problem(with: bad) {
            throw ManifestError("\(context): an allowed value must be \(problem)")
        }
        if let defaultValue, let problem = problem(with: defaultValue) {
            throw ManifestError("\(context): \"default\" must be \(problem)")
        }
    }

    /// Over the bytes in place: the UTF-8 view's iterator cost each listing
    /// more than the rest of a setting's checks.
    private static func hasLineBreak(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { $0.contains(10) }
    }

    static func isValidKey(_ key: String) -> Bool {
        (1...64).contains(key.utf8.count) && key.utf8.first.map { (65...90).contains($0) || (97...122).contains($0) } == true
            && key.utf8.allSatisfy { byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 45 || byte == 95
            }
    }
}
