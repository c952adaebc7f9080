import Glibc

/// The process's environment as a dictionary, read from `environ`, without
/// Foundation's `ProcessInfo`. A name given twice keeps its first value, as
/// `getenv` does.
public enum Environment {
    public static var current: [String: String] {
        var values: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if values[name] == nil { values[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return values
    }
}
