/// A navigation target: which plugin, which screen, with what params.
public struct NavigationTarget: Equatable, Sendable {
    /// A full id or its last segment, as the user or plugin wrote it.
    public let plugin: String
    /// Nil for the plugin's first screen.
    public let screen: String?
    public let params: [(String, String)]

    public init(plugin: String, screen: String?, params: [(String, String)] = []) {
        self.plugin = plugin
        self.screen = screen
        self.params = params
    }

    public static func == (a: NavigationTarget, b: NavigationTarget) -> Bool {
        a.plugin == b.plugin && a.screen == b.screen && a.params.elementsEqual(b.params) { $0 == $1 }
    }

    /// Parses `widget://PLUGIN/SCREEN?k=v&k2=v2`, where the screen and the
    /// query are optional and values are percent-decoded.
    public init(link: String) throws(DeepLinkError) {
        let scheme = "widget://"
        guard link.hasPrefix(scheme) else { throw DeepLinkError("a link must start with \(scheme)", link) }
        let rest = link.dropFirst(scheme.count)
        let (location, query) = rest.firstIndex(of: "?").map { (rest[..<$0], rest[rest.index(after: $0)...]) } ?? (rest, nil)
        let parts = location.split(separator: "/", omittingEmptySubsequences: false)
        guard let pluginPart = parts.first, !pluginPart.isEmpty else { throw DeepLinkError("the link names no plugin", link) }
        guard parts.count <= 2 else { throw DeepLinkError("the link has more than PLUGIN/SCREEN", link) }
        let plugin = try Self.decode(pluginPart, link)
        guard plugin.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) else {
            throw DeepLinkError("'\(plugin)' is not a plugin id", link)
        }
        var screen: String?
        if parts.count == 2, !parts[1].isEmpty {
            let decoded = try Self.decode(parts[1], link)
            guard ScreenID.isValid(decoded) else { throw DeepLinkError("'\(decoded)' is not a screen id", link) }
            screen = decoded
        }
        var params: [(String, String)] = []
        for pair in (query ?? "").split(separator: "&") {
            let sides = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = try Self.decode(sides[0], link)
            guard !key.isEmpty else { throw DeepLinkError("a query parameter has no name", link) }
            params.append((key, sides.count == 2 ? try Self.decode(sides[1], link) : ""))
        }
        self.init(plugin: plugin, screen: screen, params: params)
    }

    /// The link that parses back into this target.
    public var link: String {
        var text = "widget://\(Self.encode(plugin))"
        if let screen { text += "/\(Self.encode(screen))" }
        if !params.isEmpty { text += "?" + params.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&") }
        return text
    }

    /// The payload of a nav.push, nav.replace or nav.root event.
    public var json: JSONValue {
        ["plugin": .string(plugin), "screen": .optional(screen), "params": .object(params.map { ($0.0, .string($0.1)) })]
    }

    /// Reads a navigation payload: `{"plugin", "screen", "params"}` or `{"link"}`.
    public init(json: JSONValue) throws(DeepLinkError) {
        if let link = json["link"]?.string {
            try self.init(link: link)
            return
        }
        guard let plugin = json["plugin"]?.string, !plugin.isEmpty else {
            throw DeepLinkError("a navigation event needs \"plugin\" or \"link\"", json.serialized)
        }
        let screen = json["screen"]?.string
        var params: [(String, String)] = []
        if case let .object(pairs)? = json["params"] {
            params = pairs.map { ($0.0, $0.1.string ?? $0.1.serialized) }
        }
        self.init(plugin: plugin, screen: screen, params: params)
    }

    private static func decode(_ text: Substring, _ link: String) throws(DeepLinkError) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                continue
            }
            guard let high = iterator.next().flatMap(hex), let low = iterator.next().flatMap(hex) else {
                throw DeepLinkError("bad percent-encoding", link)
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { throw DeepLinkError("the link is not UTF-8 once decoded", link) }
        return decoded
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "-._~".utf8.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }
}

public struct DeepLinkError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public let link: String
    init(_ message: String, _ link: String) {
        self.message = message
        self.link = link
    }

    public var description: String { "malformed link '\(link)': \(message)" }
}
