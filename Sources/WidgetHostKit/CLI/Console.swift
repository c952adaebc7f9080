import Glibc

/// Where a command's output goes: standard output and error in the real
/// program, strings in tests.
public struct Console: Sendable {
    public let out: @Sendable (String) -> Void
    public let err: @Sendable (String) -> Void

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
        self.out = out
        self.err = err
    }

    public static let standard = Console(
        out: { FileDescriptor.standardOutput.write($0) },
        err: { FileDescriptor.standardError.write($0) }
    )

    public func line(_ text: String = "") { out(text + "\n") }
    public func error(_ text: String) { err("widget-host: " + text + "\n") }
}

/// Unbuffered writes to a descriptor we do not own, retried until complete.
struct FileDescriptor: Sendable {
    let raw: Int32

    static let standardOutput = FileDescriptor(raw: 1)
    static let standardError = FileDescriptor(raw: 2)

    func write(_ text: String) {
        write(bytes: Array(text.utf8))
    }

    func write(bytes: [UInt8]) {
        bytes.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let count = Glibc.write(raw, bytes.baseAddress! + done, bytes.count - done)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                done += count
            }
        }
    }
}
