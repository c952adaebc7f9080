import Glibc

/// The child's report pipe and its standard output and error: read into
/// capped buffers, printed lines logged as the plugin's.
extension IsolatedConnection {
    /// Reads a pipe into a capped buffer; false at its end.
    func drain(_ fd: Int32, into buffer: WritableKeyPath<State, [UInt8]>, limit: Int) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return true }
            guard count > 0 else { return false }
            state.withLock { state in
                let room = max(0, limit - state[keyPath: buffer].count)
                state[keyPath: buffer] += chunk[0..<min(count, room)]
            }
        }
    }

    /// What the plugin prints is logged, attributed to it; the tail is kept
    /// to explain a crash.
    func drainOutput() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(process.output, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return true }
            guard count > 0 else { return false }
            let text = String(decoding: chunk[0..<count], as: UTF8.self)
            for line in text.split(separator: "\n") {
                context.log.info("printed: \(line.prefix(500))")
            }
            state.withLock { state in
                state.outputTail += chunk[0..<count]
                if state.outputTail.count > 8192 { state.outputTail.removeFirst(state.outputTail.count - 8192) }
            }
        }
    }
}
