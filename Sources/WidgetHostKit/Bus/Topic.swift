/// Topic names and subscription patterns.
///
/// A topic is dot-separated segments of `[A-Za-z0-9_-]`, such as
/// `checkout.changed`. A pattern may use `*` for exactly one segment
/// (`checkout.*`) and, as its last segment, `#` for any number of segments
/// including none (`nav.#`); `#` alone matches everything. A `#` anywhere
/// else is outside the grammar: `patternProblem` refuses it (so does the
/// manifest parser), and `matches` gives it AMQP's meaning rather than
/// "everything from here".
public enum Topic {
    public static let maxLength = 255

    /// Why `topic` is not a valid topic name, or nil if it is.
    public static func problem(with topic: String) -> String? {
        isValidName(topic) ? nil : problem(with: topic, wildcards: false)
    }

    /// The quick check of every publish: one pass over the bytes.
    private static func isValidName(_ topic: String) -> Bool {
        var count = 0, segmentLength = 0
        for byte in topic.utf8 {
            count += 1
            if byte == UInt8(ascii: ".") {
                guard segmentLength > 0 else { return false }
                segmentLength = 0
            } else {
                guard isNameByte(byte) else { return false }
                segmentLength += 1
            }
        }
        return segmentLength > 0 && count <= maxLength
    }

    /// Why `pattern` is not a valid subscription pattern, or nil if it is.
    public static func patternProblem(_ pattern: String) -> String? {
        // A name is a pattern without wildcards: most patterns take the quick path.
        isValidName(pattern) ? nil : problem(with: pattern, wildcards: true)
    }

    private static func problem(with text: String, wildcards: Bool) -> String? {
        let what = wildcards ? "pattern" : "topic"
        guard (1...maxLength).contains(text.utf8.count) else { return "\(what) must be 1 to \(maxLength) bytes" }
        let segments = text.split(separator: ".", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            if wildcards && segment == "*" { continue }
            if wildcards && segment == "#" {
                if index == segments.count - 1 { continue }
                return "'#' may only be the last segment of a pattern"
            }
            guard !segment.isEmpty else { return "\(what) '\(text)' has an empty segment" }
            guard segment.utf8.allSatisfy(isNameByte) else {
                return "\(what) '\(text)' has a segment '\(segment)' with characters outside [A-Za-z0-9_-]"
                    + (wildcards ? "" : " (wildcards are for subscriptions)")
            }
        }
        return nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"): true
        default: false
        }
    }

    /// Whether `pattern` matches the topic `topic`, with AMQP's meaning for
    /// every pattern: `*` is one segment and `#` zero or more, wherever it
    /// stands. Patterns in the grammar end any `#` they have, so they take the
    /// quick path; one with an inner `#` (refused by `patternProblem`, but
    /// callers may not have asked) is still matched correctly, never as
    /// "everything from here".
    public static func matches(_ pattern: String, _ topic: String) -> Bool {
        let patternSegments = pattern.split(separator: ".", omittingEmptySubsequences: false)
        let topicSegments = topic.split(separator: ".", omittingEmptySubsequences: false)
        if patternSegments.dropLast().contains("#") {
            return Containment(patternSegments, topicSegments, topicHasWildcards: false).holds
        }
        return matches(patternSegments[...], topicSegments[...])
    }

    private static func matches(_ pattern: ArraySlice<Substring>, _ topic: ArraySlice<Substring>) -> Bool {
        guard let head = pattern.first else { return topic.isEmpty }
        if head == "#" { return true }
        guard let segment = topic.first, head == "*" || head == segment else { return false }
        return matches(pattern.dropFirst(), topic.dropFirst())
    }

    /// Whether every topic `requested` can match is also matched by
    /// `declared`: a plugin may subscribe to `checkout.ready` or
    /// `checkout.*` under a declared `checkout.*`, but not to `#`.
    public static func covers(_ declared: String, _ requested: String) -> Bool {
        Containment(declared.split(separator: ".", omittingEmptySubsequences: false),
                    requested.split(separator: ".", omittingEmptySubsequences: false),
                    topicHasWildcards: true).holds
    }

    /// Whether the pattern `outer` matches everything `inner` stands for, by
    /// dynamic programming over (outer, inner) positions: linear memory,
    /// quadratic time in segments, so no pattern can make it blow up.
    /// `inner` is a topic (wildcards are literal text) or a pattern.
    private struct Containment {
        let holds: Bool

        init(_ outer: [Substring], _ inner: [Substring], topicHasWildcards: Bool) {
            let isMany: (Substring) -> Bool = { topicHasWildcards && $0 == "#" }
            let isOne: (Substring) -> Bool = { topicHasWildcards && $0 == "*" }
            // next[j]: outer[(i+1)...] covers inner[j...]; built from the end.
            var next = [Bool](repeating: false, count: inner.count + 1)
            next[inner.count] = true
            var current = next
            for i in stride(from: outer.count - 1, through: 0, by: -1) {
                let head = outer[i]
                current[inner.count] = head == "#" && next[inner.count]
                for j in stride(from: inner.count - 1, through: 0, by: -1) {
                    let segment = inner[j]
                    if head == "#" {
                        // Match nothing, or swallow one more inner segment (a
                        // `#` in inner too: `#` produces whatever `#` does).
                        current[j] = next[j] || current[j + 1]
                    } else if isMany(segment) {
                        current[j] = false
                    } else if head == "*" || (head == segment && !isOne(segment)) {
                        current[j] = next[j + 1]
                    } else {
                        current[j] = false
                    }
                }
                swap(&next, &current)
            }
            holds = next[0]
        }
    }

    public static func isPattern(_ text: String) -> Bool {
        text.split(separator: ".").contains { $0 == "*" || $0 == "#" }
    }
}
