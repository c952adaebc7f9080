import PluginABI

/// What a plugin says about itself in its embedded manifest (manifest.h).
///
/// A class, though immutable: discovery hands each plugin's manifest from
/// its cache to a candidate, and on to the report, for every plugin on
/// every listing, and a reference is one retain where a struct of these
/// fields would be twenty.
public final class Manifest: Equatable, Sendable {
    public struct Screen: Equatable, Sendable {
        public let id: String
        public let title: String
        public let actions: [String]
    }

    public let abi: ABIVersion
    public let id: PluginID
    public let name: String
    public let version: String
    public let vendor: String
    public let description: String
    public let screens: [Screen]
    public let requiredServices: [String]
    public let optionalServices: [String]
    public let publishes: [String]
    public let subscribes: [String]
    /// The hosts the http service may reach for this plugin (`"http":
    /// {"hosts": [...]}`). None when the manifest does not say: reaching
    /// any host must be spelt `["*"]`.
    public let httpHosts: [String]
    /// The store groups it may read or write (`StoreGroups`); none when the
    /// manifest does not say.
    public let storeGroups: [StoreGroups.Grant]
    /// The contracts (contract.h) this plugin answers for others, and those
    /// it may ask of them: `"contracts": {"provides": [...], "requires": [...]}`.
    public let providedContracts: [String]
    public let requiredContracts: [String]
    /// Whether the host's refresh (`WH_ACTION_REFRESH`, the `r` key) is
    /// meant to change what the widget shows: it fetches fresh data. Without
    /// it, `validate` fails a widget whose screen a refresh changes.
    public let refreshes: Bool
    /// The dashboard card sizes the plugin designs views for (`"sizes"`);
    /// empty when it lists none, and its first screen is cut to its card.
    public let sizes: [CardSize]
    /// The settings a person may give it (`"settings"`, DeclaredSetting);
    /// nil when the manifest declares none, so none can be checked.
    public let settings: [DeclaredSetting]?

    /// The manifest's JSON, as the host shows it in `info --json`.
    public let json: JSONValue

    /// Every field is read from `json`, so equal JSON is an equal manifest.
    public static func == (lhs: Manifest, rhs: Manifest) -> Bool {
        lhs === rhs || lhs.json == rhs.json
    }

    public convenience init(bytes: [UInt8]) throws(ManifestError) {
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch { throw ManifestError("manifest is not valid JSON: \(error)") }
        try self.init(json: json)
    }

    public init(json: JSONValue) throws(ManifestError) {
        guard json.isObject else { throw ManifestError("manifest is not a JSON object") }
        let fields = Fields(json: json)
        let abiText = try fields.string("abi")
        guard let abi = ABIVersion(abiText) else { throw ManifestError("manifest field \"abi\" is \"\(abiText)\", expected MAJOR.MINOR such as \"1.0\"") }
        self.abi = abi
        let idText = try fields.string("id")
        do { id = try PluginID(idText) } catch { throw ManifestError("manifest \(error)") }
        name = try fields.string("name", maxLength: 128)
        version = try fields.string("version", maxLength: 64)
        guard SemanticVersion.isValid(version) else {
            throw ManifestError("manifest field \"version\" is \"\(version)\", expected a semantic version such as \"1.2.0\"")
        }
        vendor = try fields.string("vendor", required: false)
        description = try fields.string("description", required: false, maxLength: 4096)

        guard let screenList = json["screens"]?.array, !screenList.isEmpty else {
            throw ManifestError("manifest field \"screens\" must be a non-empty array")
        }
        var seen = Set<String>(minimumCapacity: screenList.count)
        screens = try screenList.map { (item) throws(ManifestError) -> Screen in
            let screen = Fields(json: item, context: "screen")
            let id = try screen.string("id", maxLength: 64)
            guard ScreenID.isValid(id) else { throw ManifestError("manifest screen id \"\(id)\" must be 1 to 64 of [a-z0-9_-]") }
            guard seen.insert(id).inserted else { throw ManifestError("manifest lists screen \"\(id)\" twice") }
            return Screen(id: id, title: try screen.string("title", required: false).nonEmpty ?? id,
                          actions: try screen.strings("actions"))
        }
        let services = try fields.object("services"), topics = try fields.object("topics")
        requiredServices = try services.strings("required")
        optionalServices = try services.strings("optional")
        publishes = try topics.strings("publish")
        subscribes = try topics.strings("subscribe")
        // A grant outside the pattern grammar (`#.x`) must not reach the bus:
        // refused here, the plugin is never listed as runnable.
        for (field, patterns) in [("publish", publishes), ("subscribe", subscribes)] {
            if let problem = patterns.lazy.compactMap(Topic.patternProblem).first {
                throw ManifestError("manifest topics.\(field): \(problem)")
            }
        }
        let contracts = try fields.object("contracts")
        providedContracts = try contracts.strings("provides")
        requiredContracts = try contracts.strings("requires")
        for (field, ids) in [("provides", providedContracts), ("requires", requiredContracts)] {
            if let problem = ids.lazy.compactMap(ContractID.problem(with:)).first {
                throw ManifestError("manifest contracts.\(field): \(problem)")
            }
        }
        refreshes = try fields.bool("refreshes")
        if let http = json["http"], http != .null {
            guard http.isObject, http["hosts"] != nil else { throw ManifestError("manifest field \"http\" must be an object with \"hosts\"") }
            httpHosts = try Fields(json: http, context: "http").strings("hosts")
            if let problem = httpHosts.lazy.compactMap(HTTPAllowList.problem(with:)).first { throw ManifestError("manifest http.hosts: \(problem)") }
        } else {
            httpHosts = []
        }
        storeGroups = try StoreGroups.grants(from: json["store"])
        sizes = try Self.sizes(fields)
        settings = try DeclaredSetting.all(in: json["settings"])
        self.json = json
    }
}

extension Manifest {
    /// `"sizes"`: each a known size, at most once.
    fileprivate static func sizes(_ fields: Fields) throws(ManifestError) -> [CardSize] {
        var sizes: [CardSize] = []
        for name in try fields.strings("sizes") {
            guard let size = CardSize(rawValue: name) else {
                let known = CardSize.allCases.map(\.rawValue).joined(separator: ", ")
                throw ManifestError("manifest field \"sizes\" has \"\(name)\", which is no card size; sizes are \(known)")
            }
            guard !sizes.contains(size) else { throw ManifestError("manifest field \"sizes\" lists \"\(name)\" twice") }
            sizes.append(size)
        }
        return sizes
    }
}

public struct ManifestError: Error, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Typed reads of a manifest object's fields, with errors that say which field.
private struct Fields {
    let json: JSONValue
    var context = "manifest"

    func string(_ key: String, required: Bool = true, maxLength: Int = 1024) throws(ManifestError) -> String {
        switch json[key] {
        case let .string(value)?:
            guard value.utf8.count <= maxLength else { throw ManifestError("\(context) field \"\(key)\" is longer than \(maxLength) bytes") }
            guard !required || !value.isEmpty else { throw ManifestError("\(context) field \"\(key)\" is empty") }
            return value
        case nil, .null?:
            guard !required else { throw ManifestError("\(context) field \"\(key)\" is missing") }
            return ""
        default:
            throw ManifestError("\(context) field \"\(key)\" must be a string")
        }
    }

    /// A nested object's fields; an absent one is empty.
    func object(_ key: String) throws(ManifestError) -> Fields {
        guard let value = json[key], value != .null else { return Fields(json: .object([]), context: key) }
        guard value.isObject else { throw ManifestError("\(context) field \"\(key)\" must be an object") }
        return Fields(json: value, context: key)
    }

    /// An absent flag is false.
    func bool(_ key: String) throws(ManifestError) -> Bool {
        switch json[key] {
        case nil, .null?: false
        case let .bool(value)?: value
        default: throw ManifestError("\(context) field \"\(key)\" must be true or false")
        }
    }

    func strings(_ key: String) throws(ManifestError) -> [String] {
        guard let value = json[key], value != .null else { return [] }
        guard let items = value.array else { throw ManifestError("\(context) field \"\(key)\" must be an array of strings") }
        return try items.map { (item) throws(ManifestError) -> String in
            guard let text = item.string else { throw ManifestError("\(context) field \"\(key)\" must be an array of strings") }
            return text
        }
    }
}

public struct ABIVersion: Equatable, Sendable, CustomStringConvertible {
    public let major: UInt32
    public let minor: UInt32

    public static let host = ABIVersion(major: WH_ABI_MAJOR, minor: WH_ABI_MINOR)

    public init(major: UInt32, minor: UInt32) {
        self.major = major
        self.minor = minor
    }

    /// MAJOR.MINOR, each of digits only; by bytes, as every listing reads one a plugin.
    init?(_ text: String) {
        var numbers: [UInt32] = [0], digits = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "."), numbers.count == 1, digits > 0 {
                numbers.append(0)
                digits = 0
                continue
            }
            guard (48...57).contains(byte) else { return nil }
            let (times, overflowed) = numbers[numbers.count - 1].multipliedReportingOverflow(by: 10)
            let (sum, carried) = times.addingReportingOverflow(UInt32(byte - 48))
            guard !overflowed, !carried else { return nil }
            numbers[numbers.count - 1] = sum
            digits += 1
        }
        guard numbers.count == 2, digits > 0 else { return nil }
        self.init(major: numbers[0], minor: numbers[1])
    }

    public var description: String { "\(major).\(minor)" }

    /// Why a plugin built for this ABI cannot run on this host, or nil if it can.
    public var incompatibility: String? {
        if major != Self.host.major {
            return "built for ABI \(self), but this host speaks ABI \(Self.host) and major versions must match"
        }
        if minor > Self.host.minor {
            return "built for ABI \(self), newer than this host's ABI \(Self.host)"
        }
        return nil
    }
}

/// A reverse-DNS plugin id, such as `org.widgethost.crypto`.
public struct PluginID: Hashable, Sendable, CustomStringConvertible {
    public let value: String

    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    public init(_ value: String) throws(Invalid) {
        // Every listing checks every plugin's id: one pass over the bytes
        // for a good one; the reason, from the slower check, for a bad one.
        guard Self.isValid(value.utf8) else { throw Self.problem(value) }
        self.value = value
    }

    /// [a-z0-9_-.], 3 to 128 bytes, dot-separated segments (two or more),
    /// each starting with a letter or digit.
    private static func isValid(_ bytes: String.UTF8View) -> Bool {
        guard (3...128).contains(bytes.count) else { return false }
        var segments = 1, atSegmentStart = true
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): atSegmentStart = false
            case UInt8(ascii: "_"), UInt8(ascii: "-"): if atSegmentStart { return false }
            case UInt8(ascii: "."):
                if atSegmentStart { return false }
                segments += 1
                atSegmentStart = true
            default: return false
            }
        }
        return segments >= 2 && !atSegmentStart
    }

    private static func problem(_ value: String) -> Invalid {
        guard (3...128).contains(value.utf8.count) else {
            return Invalid(description: "id \"\(value)\" must be 3 to 128 bytes long")
        }
        if let bad = value.unicodeScalars.first(where: { !Self.allowed($0) }) {
            return Invalid(description: "id \"\(value)\" has an illegal character '\(bad.escaped(asASCII: true))'; ids use [a-z0-9_-] and dots")
        }
        let segments = value.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count >= 2 else {
            return Invalid(description: "id \"\(value)\" must be reverse-DNS with at least two dot-separated segments, such as org.example.widget")
        }
        let bad = segments.first { $0.isEmpty || !($0.first!.isLetter || $0.first!.isNumber) } ?? ""
        return Invalid(description: "id \"\(value)\" has a segment \"\(bad)\" that does not start with a letter or digit")
    }

    private static func allowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "0"..."9", "_", "-", ".": true
        default: false
        }
    }

    /// The last segment, which users may type instead of the whole id. A
    /// valid id has a dot and no empty segment; found by bytes, since every
    /// listing asks it of every plugin.
    public var shortName: String {
        guard let dot = value.utf8.lastIndex(of: UInt8(ascii: ".")) else { return value }
        return String(value[value.utf8.index(after: dot)...])
    }
    public var description: String { value }
}

enum ScreenID {
    static func isValid(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count) && id.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }
}

enum SemanticVersion {
    /// MAJOR.MINOR.PATCH with optional -prerelease and +build, as semver.org
    /// has it. By bytes: every part allowed is ASCII.
    static func isValid(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            let all = bytes[...]
            let build = all.firstIndex(of: UInt8(ascii: "+"))
            let beforeBuild = all[..<(build ?? all.endIndex)]
            let prerelease = beforeBuild.firstIndex(of: UInt8(ascii: "-"))
            return parts(of: beforeBuild[..<(prerelease ?? beforeBuild.endIndex)], where: isNumeric) == 3
                && prerelease.map { parts(of: beforeBuild[($0 + 1)...], where: { identifier($0, numericMayLeadWithZero: false) }) != nil } ?? true
                && build.map { parts(of: all[($0 + 1)...], where: { identifier($0, numericMayLeadWithZero: true) }) != nil } ?? true
        }
    }

    typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

    /// How many dot-separated parts `text` has, or nil if one fails `isValid`.
    private static func parts(of text: Bytes, where isValid: (Bytes) -> Bool) -> Int? {
        var count = 0, start = text.startIndex
        while true {
            let end = text[start...].firstIndex(of: UInt8(ascii: ".")) ?? text.endIndex
            guard isValid(text[start..<end]) else { return nil }
            count += 1
            guard end < text.endIndex else { return count }
            start = end + 1
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }

    /// A number without a leading zero.
    private static func isNumeric(_ part: Bytes) -> Bool {
        !part.isEmpty && part.allSatisfy(isDigit) && (part.count == 1 || part.first != UInt8(ascii: "0"))
    }

    /// A non-empty identifier of [0-9A-Za-z-].
    private static func identifier(_ part: Bytes, numericMayLeadWithZero: Bool) -> Bool {
        guard !part.isEmpty, part.allSatisfy({ byte in isDigit(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 45 })
        else { return false }
        return !part.allSatisfy(isDigit) || numericMayLeadWithZero || isNumeric(part)
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
