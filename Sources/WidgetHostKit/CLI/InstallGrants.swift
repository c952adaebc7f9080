import Glibc

/// What a plugin is granted, as `install` shows it before installing: each
/// kind of grant on a line of its own, and, for an upgrade, what the new
/// version asks for that the installed one did not.
struct InstallGrants {
    /// Each kind of grant and what the manifest names for it.
    let kinds: [(name: String, items: [String])]

    init(_ manifest: Manifest) {
        kinds = [
            ("services", manifest.requiredServices + manifest.optionalServices.map { $0 + " (optional)" }),
            ("http hosts", manifest.httpHosts.map { $0 == HTTPAllowList.anyHost ? "\($0) (ANY HOST)" : $0 }),
            ("publishes", manifest.publishes),
            ("subscribes", manifest.subscribes),
            ("provides contracts", manifest.providedContracts),
            ("asks contracts", manifest.requiredContracts),
            ("store groups", manifest.storeGroups.map { "\($0.group) (\($0.access.rawValue))" }),
        ]
    }

    /// The grants in words, one line per kind that has any.
    var lines: [String] {
        let granted = kinds.filter { !$0.items.isEmpty }
        guard !granted.isEmpty else { return ["  nothing: no services, topics or contracts"] }
        return granted.map { "  \($0.name): \($0.items.joined(separator: ", "))" }
    }

    /// What these grants hold that `older` did not, in words.
    func added(since older: InstallGrants) -> [String] {
        zip(kinds, older.kinds).compactMap { new, old in
            let more = new.items.filter { !old.items.contains($0) }
            return more.isEmpty ? nil : "  \(new.name): \(more.joined(separator: ", "))"
        }
    }

    /// Asks on the terminal; true only for an answer that starts with y.
    static func confirm(_ console: Console, _ question: String) -> Bool {
        console.out(question + " [y/N] ")
        var answer: [UInt8] = []
        var byte: UInt8 = 0
        while answer.count < 256, read(0, &byte, 1) == 1, byte != UInt8(ascii: "\n") { answer.append(byte) }
        return answer.first == UInt8(ascii: "y") || answer.first == UInt8(ascii: "Y")
    }
}
