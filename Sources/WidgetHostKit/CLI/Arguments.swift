/// A command line taken apart: flags, options with values, and positionals.
/// Hand-written because the product depends on the toolchain alone.
public struct Arguments: Equatable {
    public var flags: Set<String> = []
    public var options: [String: [String]] = [:]
    public var positionals: [String] = []

    public func has(_ flag: String) -> Bool { flags.contains(flag) }
    public func values(_ option: String) -> [String] { options[option] ?? [] }
    public func value(_ option: String) -> String? { options[option]?.last }
}

/// Which words a command accepts.
public struct ArgumentSpec: Sendable {
    /// Options without a value, such as "--json".
    public var flags: Set<String>
    /// Options with a value, such as "--plugin-dir"; repeating one collects
    /// every value, and the last wins where only one makes sense.
    public var options: Set<String>
    public var maxPositionals: Int

    public init(flags: Set<String> = [], options: Set<String> = [], maxPositionals: Int = 0) {
        self.flags = flags
        self.options = options
        self.maxPositionals = maxPositionals
    }

    public func parse(_ words: [String]) throws(UsageError) -> Arguments {
        var result = Arguments()
        var index = 0
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("-") || word == "-" {
                result.positionals.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            let (name, inline) = Self.split(word)
            if flags.contains(name) {
                guard inline == nil else { throw UsageError("\(name) takes no value") }
                result.flags.insert(name)
            } else if options.contains(name) {
                let value: String
                if let inline {
                    value = inline
                } else {
                    // "--actions --once" forgot the value; it did not mean an action named --once.
                    guard index < words.count, !flags.contains(words[index]), !options.contains(words[index]) else {
                        throw UsageError("\(name) needs a value")
                    }
                    value = words[index]
                    index += 1
                }
                result.options[name, default: []].append(value)
            } else {
                throw UsageError("unknown option \(name)")
            }
        }
        if result.positionals.count > maxPositionals {
            let extra = result.positionals[maxPositionals]
            throw UsageError(maxPositionals == 0 ? "unexpected argument '\(extra)'" : "too many arguments, starting at '\(extra)'")
        }
        return result
    }

    private static func split(_ word: String) -> (String, String?) {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }
}

/// A mistake in how a command was called: exit status 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
