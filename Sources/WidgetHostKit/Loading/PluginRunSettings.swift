/// How every plugin runs, in process or isolated: whether isolated at all,
/// how long each call may take, how fast it may publish and call services,
/// and the limits of an isolated one's process. From the configuration's
/// "host" object, overridden by `--isolate`; `configJSON` writes them back in that
/// form, so `widget-host help config` shows the defaults this file sets.
public struct PluginRunSettings: Sendable, Equatable {
    public enum Mode: String, Sendable, CaseIterable {
        /// Plugins load into the host's own process (fast, unprotected).
        case never
        /// Each plugin runs in a sandboxed child process of its own.
        case always
    }

    /// The calls into a plugin that have a deadline.
    public enum Call: String, Sendable, CaseIterable {
        /// `load` is the handshake alone (the validator's first check); `create` makes it too if need be.
        case load, create, render, query, action, event, destroy
    }

    /// Seconds per call. Read on every isolated call, so kept in a slot per
    /// call rather than hashed by the call's name as a dictionary would.
    public struct Deadlines: Equatable, Sendable, ExpressibleByDictionaryLiteral {
        private var seconds = [Double?](repeating: nil, count: Call.allCases.count)

        public init(dictionaryLiteral elements: (Call, Double)...) {
            for (call, value) in elements { self[call] = value }
        }

        public subscript(call: Call) -> Double? {
            get { seconds[Self.slot(call)] }
            set { seconds[Self.slot(call)] = newValue }
        }

        private static func slot(_ call: Call) -> Int {
            switch call {
            case .load: 0
            case .create: 1
            case .render: 2
            case .query: 3
            case .action: 4
            case .event: 5
            case .destroy: 6
            }
        }
    }

    public var mode: Mode = .never
    /// Seconds each call may take before the plugin is killed.
    public var deadlines: Deadlines = [.load: 10, .create: 10, .render: 5, .query: 5, .action: 5, .event: 5, .destroy: 2]
    /// The child's address space (RLIMIT_AS), in MiB. The Swift runtime
    /// alone maps about 100 MiB, so the default of 1024 refuses any single
    /// allocation of 1 GiB.
    public var memoryMiB = 1024
    /// The child's CPU time over its life (RLIMIT_CPU), in seconds; a
    /// restart starts it afresh.
    public var cpuSeconds = 120
    /// The most bus events a plugin may publish in one second before it is
    /// stopped for flooding; no widget needs anywhere near this many.
    public var maxEventsPerSecond = 1000
    /// The most service calls of any kind per second.
    public var maxServiceCallsPerSecond = 20_000
    /// Run isolated plugins even where the kernel lacks part of the sandbox
    /// (`--allow-weak-sandbox`); otherwise they are refused.
    public var allowWeakSandbox = false

    public init() {}

    public func deadline(_ call: Call) -> Double { deadlines[call] ?? 5 }

    /// The most a call may take in all, time spent waiting on the host (a
    /// contract ask of another plugin) included: twice its deadline.
    static func ceiling(deadline: Double) -> Double { 2 * deadline }

    /// The settings the configuration gives; a bad value is an error that
    /// names its key.
    public init(config: HostConfig) throws(PluginRunSettingsError) {
        self.init()
        if let value = config.hostSetting("isolation") {
            guard let text = value.string, let mode = Mode(rawValue: text) else {
                throw PluginRunSettingsError("host.isolation must be \"never\" or \"always\", not \(value.serialized)")
            }
            self.mode = mode
        }
        if let value = config.hostSetting("deadlines") {
            guard case let .object(members) = value else { throw PluginRunSettingsError("host.deadlines must be an object of seconds per call") }
            for (key, seconds) in members {
                guard let call = Call(rawValue: key) else {
                    throw PluginRunSettingsError("host.deadlines has no call \"\(key)\"; use \(Call.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                deadlines[call] = try Self.number(seconds, "host.deadlines.\(key)", range: 0.05...3600)
            }
        }
        if let value = config.hostSetting("limits") {
            guard case let .object(members) = value else { throw PluginRunSettingsError("host.limits must be an object") }
            for (key, limit) in members {
                switch key {
                case "memoryMiB": memoryMiB = Int(try Self.number(limit, "host.limits.memoryMiB", range: 64...1_048_576))
                case "cpuSeconds": cpuSeconds = Int(try Self.number(limit, "host.limits.cpuSeconds", range: 1...1_000_000))
                case "eventsPerSecond": maxEventsPerSecond = Int(try Self.number(limit, "host.limits.eventsPerSecond", range: 1...1_000_000))
                default: throw PluginRunSettingsError("host.limits has no limit \"\(key)\"; use memoryMiB, cpuSeconds, eventsPerSecond")
                }
            }
        }
    }

    /// The "host" object of a configuration that sets exactly these settings.
    public var configJSON: JSONValue {
        func number(_ value: Double) -> JSONValue { .number(value == value.rounded() ? String(Int(value)) : String(value)) }
        return .object([
            ("isolation", .string(mode.rawValue)),
            ("deadlines", .object(Call.allCases.map { ($0.rawValue, number(deadline($0))) })),
            ("limits", .object([("memoryMiB", number(Double(memoryMiB))), ("cpuSeconds", number(Double(cpuSeconds))),
                                ("eventsPerSecond", number(Double(maxEventsPerSecond)))])),
        ])
    }

    /// The "host" object with every setting at its default.
    public static var defaultsConfig: JSONValue { PluginRunSettings().configJSON }

    private static func number(_ value: JSONValue, _ key: String, range: ClosedRange<Double>) throws(PluginRunSettingsError) -> Double {
        guard case let .number(text) = value, let number = Double(text), range.contains(number) else {
            let bounds = "from \(range.lowerBound.formatted1) to \(range.upperBound.formatted1)"
            throw PluginRunSettingsError("\(key) must be a number \(bounds), not \(value.serialized)")
        }
        return number
    }
}

public struct PluginRunSettingsError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, naming the key: a file's ConfigError puts its path before it.
    public let message: String
    public var description: String { "configuration: " + message }
    init(_ message: String) { self.message = message }
}
