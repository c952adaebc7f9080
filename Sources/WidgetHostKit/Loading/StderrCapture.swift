import Glibc

/// While a full-screen view owns the terminal, raw writes to file
/// descriptor 2 (an in-process plugin's `fprintf(stderr, …)`, a library's
/// warning, a child that inherits it) would draw over the screen. The host's
/// own lines already skip stderr then (`HostLog.screenOwned`); this points
/// fd 2 itself at a pipe for that time, and a thread hands what comes out of
/// it to the log line by line (as source "stderr": rate-limited, kept in the
/// log file, the latest shown in the footer). `restore` puts the terminal
/// back on fd 2; a child that still holds the pipe keeps being logged until
/// it closes it.
final class StderrCapture: Sendable {
    /// The descriptor fd 2 was before, kept close-on-exec so no child inherits the terminal through it.
    private let saved: Int32
    /// A line longer than this is logged in pieces.
    static let maxLine = 1000

    /// Nil when fd 2 cannot be moved (no descriptors left, no thread): it then stays as it was.
    init?(log: HostLog) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let saved = fcntl(2, F_DUPFD_CLOEXEC, 3)
        let readEnd = ends[0]
        guard saved >= 0, Threads.start(name: "stderr-capture", { Self.drain(readEnd, into: log) }) else {
            if saved >= 0 { close(saved) }
            close(ends[0])
            close(ends[1])
            return nil
        }
        self.saved = saved
        // Everything on stderr from here goes down the pipe.
        _ = dup2(ends[1], 2)
        close(ends[1])
    }

    /// fd 2 is the terminal again; the thread ends once no one holds the pipe.
    func restore() {
        _ = dup2(saved, 2)
        close(saved)
    }

    /// Reads the pipe to its end, logging each line.
    private static func drain(_ fd: Int32, into log: HostLog) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        func emit(_ bytes: ArraySlice<UInt8>) {
            let text = String(decoding: bytes, as: UTF8.self).trimmingTrailingCarriageReturn
            if !text.isEmpty { log.log(.warning, "stderr", text) }
        }
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            pending += buffer[..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                emit(pending[..<newline])
                pending.removeSubrange(...newline)
            }
            while pending.count > maxLine {
                emit(pending[..<maxLine])
                pending.removeFirst(maxLine)
            }
        }
        emit(pending[...])
        close(fd)
    }
}

private extension String {
    var trimmingTrailingCarriageReturn: String { hasSuffix("\r") ? String(dropLast()) : self }
}
