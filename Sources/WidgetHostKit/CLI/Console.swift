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
        out: { writeStandardOutput(bytes: Array($0.utf8)) },
        err: { _ = FileDescriptor.standardError.write($0) }
    )

    /// The errno of the first write to standard output that failed, if any:
    /// a script must not take a short output for a complete one.
    private static let standardOutputError = Locked<Int32?>(nil)

    /// Raw bytes to standard output, a failure remembered for `finish`.
    static func writeStandardOutput(bytes: [UInt8]) {
        if let code = FileDescriptor.standardOutput.write(bytes: bytes) { standardOutputError.withLock { $0 = $0 ?? code } }
    }

    /// The exit status once output is done: `status` if every write to
    /// standard output succeeded, else 1 with a message (quietly on a closed
    /// pipe, as `ls` does).
    public static func finish(_ status: Int32) -> Int32 {
        guard let code = standardOutputError.withLock({ $0 }) else { return status }
        if code != EPIPE {
            _ = FileDescriptor.standardError.write("widget-host: error writing to standard output: \(String(cString: strerror(code)))\n")
        }
        return ExitStatus.failure
    }

    public func line(_ text: String = "") { out(text + "\n") }
    /// An error names things a plugin chose: they are shown, never obeyed by the terminal.
    public func error(_ text: String) { err("widget-host: " + TerminalText.safe(text) + "\n") }
}

/// Unbuffered writes to a descriptor we do not own, retried until complete.
struct FileDescriptor: Sendable {
    let raw: Int32

    static let standardOutput = FileDescriptor(raw: 1)
    static let standardError = FileDescriptor(raw: 2)

    /// nil once every byte is written, else the errno of the failure.
    @discardableResult
    func write(_ text: String) -> Int32? {
        write(bytes: Array(text.utf8))
    }

    @discardableResult
    func write(bytes: [UInt8]) -> Int32? {
        bytes.withUnsafeBytes { bytes -> Int32? in
            var done = 0
            while done < bytes.count {
                let count = Glibc.write(raw, bytes.baseAddress! + done, bytes.count - done)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return count < 0 ? errno : EIO }
                done += count
            }
            return nil
        }
    }
}
