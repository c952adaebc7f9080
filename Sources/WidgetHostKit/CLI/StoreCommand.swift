import Glibc

/// `widget-host store`: the shared container from the command line, as an
/// app would use it.
enum StoreCommand {
    static let command = Command(
        name: "store",
        summary: "read and write the shared container that apps and widgets share",
        operands: [Operand(name: "ACTION", help: "what to do:", choices: [
                       ("put KEY [-]", "write KEY's value from --file, or from standard input with - (the default when it is piped)"),
                       ("get KEY", "print KEY's value"), ("rm KEY", "remove KEY"), ("list", "print every key")]),
                   Operand(name: "KEY", help: "a key, GROUP.NAME, such as trips.bookings in the group trips", optional: true),
                   Operand(name: "-", help: "with put: read the value from standard input", optional: true)],
        options: [.value("--file", "FILE", "with put: the file holding the value", completion: .file),
                  .flag("--lines", "with put: write each line of standard input as the value in turn, as it arrives (a feed; blank lines are skipped)"),
                  .json,
                  .value("--shift-dates", "ISO8601", "with put: move every ISO 8601 time in the JSON value by the same whole number "
                          + "of days, so that this time falls within half a day of now"),
                  .now("with --shift-dates: the time taken as now (default: the clock)")],
        notes: """
        A key's group is its part before the first dot. A plugin reads or writes only the groups its manifest
        declares ("store": {"groups": {"trips": "read"}}); see docs/grants.md.

        Sample bookings for My Trips, moved so that now is the second day of the Paris trip:
          widget-host store put trips.bookings --file Plugins/TripsPlugin/sample-bookings.json --shift-dates 2026-06-11T12:00:00+02:00

        A program that updates a value often keeps one writer instead of starting one per value:
          my-feed | widget-host store put home.temperature --lines
        """,
        run: { cli, arguments in
            let store = SharedStore(directory: SharedStore.defaultDirectory(cli.environment))
            let words = arguments.positionals
            guard let action = words.first else { throw UsageError("store needs an action: put, get, rm or list") }
            func key() throws(UsageError) -> String {
                guard words.count >= 2 else { throw UsageError("store \(action) needs a KEY") }
                if let problem = SharedStore.problem(withKey: words[1]) { throw UsageError(problem) }
                return words[1]
            }
            let allowed: Int = action == "put" ? 3 : action == "list" ? 1 : 2
            guard words.count <= allowed else { throw UsageError("unexpected argument '\(words[allowed])'") }
            // An option that would change nothing is refused, not ignored: the user meant something by it.
            let given = { (option: String) in arguments.has(option) || arguments.value(option) != nil }
            if action != "put", let option = ["--file", "--lines", "--shift-dates", "--now"].first(where: given) {
                throw UsageError("\(option) goes with store put, not store \(action)")
            }
            // get prints the value as stored, JSON as written, so --json holds there too; put and rm print nothing to shape.
            if (action == "put" || action == "rm") && given("--json") { throw UsageError("--json goes with store list or get, not store \(action)") }
            if given("--now") && !given("--shift-dates") { throw UsageError("--now goes with --shift-dates: the time the dates are moved toward") }
            do {
                switch action {
                case "put":
                    let key = try key()
                    // Plugins reach a key only through its group, so the app writes into one.
                    guard StoreGroups.group(of: key) != nil else {
                        throw UsageError("store put writes into a group: give KEY as GROUP.NAME, such as trips.bookings ('\(key)' has no group)")
                    }
                    let shift = { (bytes: [UInt8]) throws -> [UInt8] in
                        guard let anchor = arguments.value("--shift-dates") else { return bytes }
                        return try shiftDates(bytes, anchor: anchor, now: arguments.value("--now"))
                    }
                    if arguments.has("--lines") {
                        guard arguments.value("--file") == nil else { throw UsageError("--lines reads standard input; give it without --file") }
                        if words.count == 3 && words[2] != "-" { throw UsageError("unexpected argument '\(words[2])'") }
                        try eachStandardInputLine { try store.put(key, try shift($0)) }
                    } else {
                        try store.put(key, try shift(try value(arguments, stdinWord: words.count == 3 ? words[2] : nil)))
                    }
                case "get":
                    guard let value = try store.get(try key()) else {
                        cli.console.error("no value for '\(words[1])' in \(store.directory)")
                        return ExitStatus.failure
                    }
                    Console.writeStandardOutput(bytes: value)
                case "rm":
                    guard try store.remove(try key()) else {
                        cli.console.error("no value for '\(words[1])' in \(store.directory)")
                        return ExitStatus.failure
                    }
                case "list":
                    let keys = try store.keys()
                    if arguments.has("--json") {
                        cli.console.line(JSONValue.array(keys.map(JSONValue.string)).serialized)
                    } else {
                        keys.forEach { cli.console.line($0) }
                    }
                default:
                    throw UsageError("unknown store action '\(action)'; use put, get, rm or list")
                }
            } catch let error as StoreError {
                cli.console.error("store: \(error)")
                return ExitStatus.failure
            }
            return ExitStatus.success
        }
    )

    /// `--shift-dates ANCHOR`: every ISO 8601 time in the JSON value moved by
    /// (now - ANCHOR) rounded to whole days, each kept in its own offset, so
    /// dated sample data stays current whenever it is loaded and its times of
    /// day (a 15:00 check-in) stay as written.
    static func shiftDates(_ bytes: [UInt8], anchor: String, now: String?) throws -> [UInt8] {
        guard let from = ISO8601.milliseconds(from: anchor) else {
            throw UsageError("--shift-dates takes an ISO 8601 time with an offset, such as 2026-06-11T12:00:00+02:00; got '\(anchor)'")
        }
        let to: Int64
        if let now {
            guard let given = ISO8601.milliseconds(from: now) else { throw UsageError("--now takes an ISO 8601 time with an offset; got '\(now)'") }
            to = given
        } else {
            to = HostClock().nowMilliseconds
        }
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch {
            throw StoreError.io(key: nil, message: "--shift-dates needs a JSON value: \(error)")
        }
        let day: Int64 = 86_400_000
        let days = CivilCalendar.floorDivide(to - from + day / 2, day)
        return Array(shift(value, by: days * day).serialized.utf8)
    }

    private static func shift(_ value: JSONValue, by amount: Int64) -> JSONValue {
        switch value {
        case let .string(text):
            guard let instant = ISO8601.parse(text) else { return value }
            return .string(ISO8601.format(ISO8601.Instant(milliseconds: instant.milliseconds + amount, offsetMinutes: instant.offsetMinutes)))
        case let .array(items): return .array(items.map { shift($0, by: amount) })
        case let .object(members): return .object(members.map { ($0.0, shift($0.1, by: amount)) })
        default: return value
        }
    }

    /// The value to put: from --file, or from standard input.
    private static func value(_ arguments: Arguments, stdinWord: String?) throws -> [UInt8] {
        if let stdinWord, stdinWord != "-" { throw UsageError("unexpected argument '\(stdinWord)'; use --file FILE or -") }
        if let path = arguments.value("--file") {
            guard stdinWord == nil else { throw UsageError("give either --file FILE or -, not both") }
            do {
                let file = try ReadOnlyFile(path: path)
                guard file.size <= UInt64(SharedStore.maxValueBytes) else { throw StoreError.tooLarge(path) }
                return try file.read(offset: 0, count: Int(file.size))
            } catch let error as FileError {
                throw StoreError.io(key: nil, message: "cannot read \(path): \(error)")
            }
        }
        if stdinWord == nil && isatty(0) != 0 {
            throw UsageError("store put needs a value: --file FILE, or pipe it in with -")
        }
        return try readStandardInput()
    }

    /// Calls `body` with each line of standard input (without its newline) as
    /// soon as the line is complete, and with a last line that has none.
    /// Blank lines are skipped. A line over the value limit is an error.
    private static func eachStandardInputLine(_ body: ([UInt8]) throws -> Void) throws {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw StoreError.io(key: nil, message: "cannot read standard input: \(SystemError(code: errno))") }
            if count == 0 { break }
            pending.append(contentsOf: chunk[0..<count])
            var start = 0
            while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                if newline > start { try body(Array(pending[start..<newline])) }
                start = newline + 1
            }
            pending.removeFirst(start)
            guard pending.count <= SharedStore.maxValueBytes else { throw StoreError.tooLarge("a line of standard input") }
        }
        if !pending.isEmpty { try body(pending) }
    }

    private static func readStandardInput() throws(StoreError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .io(key: nil, message: "cannot read standard input: \(SystemError(code: errno))") }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= SharedStore.maxValueBytes else { throw .tooLarge("standard input") }
        }
    }
}
