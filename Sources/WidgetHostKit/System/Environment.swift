import Glibc

/// The process's environment as a dictionary, read from `environ`, without
/// Foundation's `ProcessInfo`. A name given twice keeps its first value, as
/// `getenv` does.
public enum Environment {
    /// Every start-up pays this, so each entry is split at its `=` by bytes
    /// (strchr) and each half made in one copy: splitting a String by
    /// Characters cost about 0.65 M instructions for a usual environment.
    public static var current: [String: String] { read(environ) }

    /// The `NAME=value` entries of a NULL-ended array such as `environ`; one without `=` is skipped.
    static func read(_ entries: UnsafePointer<UnsafeMutablePointer<CChar>?>) -> [String: String] {
        var count = 0
        while entries[count] != nil { count += 1 }
        // Sized once: growing it rehashes every entry at each doubling.
        var values = [String: String](minimumCapacity: count)
        var entry = entries
        while let pointer = entry.pointee {
            entry += 1
            guard let equals = strchr(pointer, Int32(UInt8(ascii: "="))) else { continue }
            let name = String(decoding: UnsafeRawBufferPointer(start: pointer, count: equals - pointer), as: UTF8.self)
            if values[name] == nil { values[name] = String(cString: equals + 1) }
        }
        return values
    }
}
