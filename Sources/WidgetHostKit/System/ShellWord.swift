/// Text as one word of a POSIX shell command, for a command line the host
/// prints for a person to copy (`cd DIR`, `chmod o-w DIR`): left as it is
/// when it holds only characters a shell takes literally, else in single
/// quotes, with each quote of its own spelt '\''.
enum ShellWord {
    static func quoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || "0123456789/._-+,:@".unicodeScalars.contains(scalar))
        }
        return plain ? text : "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
