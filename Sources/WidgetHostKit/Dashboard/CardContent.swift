import Glibc

/// What one card shows: the widget's view (fresh, or the last good one
/// marked stale with its age), a notice above it ("crashed, restarting in
/// 4 s"), and the error the card is in, if any.
public struct CardContent: Equatable, Sendable {
    public var title: String
    public var view: ViewNode?
    /// The error the widget declared, or why there is no fresh view.
    public var error: String?
    /// When `view` was rendered, by the host's clock.
    public var renderedAt: Int64?
    /// The view is not the widget's latest word: cached from an earlier
    /// run, or kept past a failure.
    public var stale = false
    public var notice: String?
    /// The view is the widget's first screen, not one designed for a card
    /// (a plugin that lists no sizes): the card is its top, with "more".
    public var cut = false

    public init(title: String, view: ViewNode? = nil, error: String? = nil, renderedAt: Int64? = nil) {
        self.title = title
        self.view = view
        self.error = error
        self.renderedAt = renderedAt
    }

    /// A neutral card of its size while the widget has never drawn one.
    public static func placeholder(title: String) -> CardContent {
        CardContent(title: title, view: .text("…", style: .caption, color: .secondary))
    }

    /// `5 s`, `3 min`, `2 h`, `4 d`: how old a stale view is.
    public static func age(_ milliseconds: Int64) -> String {
        let seconds = max(milliseconds, 0) / 1000
        switch seconds {
        case ..<60: return "\(seconds) s"
        case ..<3600: return "\(seconds / 60) min"
        case ..<86_400: return "\(seconds / 3600) h"
        default: return "\(seconds / 86_400) d"
        }
    }
}

/// The last good view of each card, kept across runs in
/// `$XDG_STATE_HOME/widget-host/dashboard/`, so a dashboard shows something
/// at once: one small file per widget and size, replaced whole (temporary
/// file and rename) so a crash never leaves a torn one.
public struct CardCache: Sendable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    public init(environment: [String: String]) {
        self.init(directory: QuarantineStore.stateDirectory(environment) + "/widget-host/dashboard")
    }

    private func path(_ id: PluginID, _ size: CardSize) -> String { "\(directory)/\(id.value).\(size.rawValue).json" }

    /// The cached view and when it was rendered; nil when there is none or
    /// it cannot be read (a cache is never worth an error).
    public func load(_ id: PluginID, _ size: CardSize) -> (view: ViewScreen, at: Int64)? {
        guard let bytes = try? FileSystem.contents(of: path(id, size)), let json = try? JSONParser.parse(bytes),
              let at = json["at"]?.int64, let document = json["document"],
              let screen = try? ViewDescription.parse(document.serializedBytes) else { return nil }
        return (screen, at)
    }

    public func save(_ id: PluginID, _ size: CardSize, _ screen: ViewScreen, at: Int64) {
        let json: JSONValue = ["at": .number(String(at)), "document": screen.document]
        let target = path(id, size), temporary = target + ".\(getpid()).tmp"
        do {
            try FileSystem.makeDirectories(directory, mode: 0o700)
            try FileSystem.write(json.serializedBytes, to: temporary, mode: 0o600)
            guard rename(temporary, target) == 0 else { throw SystemError(code: errno) }
        } catch {
            unlink(temporary)
        }
    }
}
