import PluginABI

/// The host's end of a `wh_output`: collects what a plugin writes during one
/// call, up to a limit, so a runaway render cannot exhaust the host's memory.
///
/// One call at a time uses it, on one thread: the dynamic exclusivity checks
/// a class's `var` pays on each access (on every write a plugin makes) are
/// left out.
final class OutputBuffer {
    @exclusivity(unchecked) private(set) var bytes: [UInt8] = []
    @exclusivity(unchecked) private(set) var overflowed = false
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Empties the buffer for another call, keeping the memory it grew.
    func reset() {
        bytes.removeAll(keepingCapacity: true)
        overflowed = false
    }

    /// Runs `body` with a `wh_output` that appends here; valid only inside it.
    func withOutput<R>(_ body: (UnsafePointer<wh_output>) throws -> R) rethrows -> R {
        var output = wh_output(host_data: Unmanaged.passUnretained(self).toOpaque(), write: { output, data, length in
            guard let output, let host = output.pointee.host_data else { return -1 }
            let buffer = Unmanaged<OutputBuffer>.fromOpaque(host).takeUnretainedValue()
            return buffer.append(data, count: length) ? 0 : -1
        })
        return try withUnsafePointer(to: &output) { try body($0) }
    }

    private func append(_ data: UnsafePointer<CChar>?, count: UInt64) -> Bool {
        guard !overflowed, count <= UInt64(limit - bytes.count) else {
            overflowed = true
            return false
        }
        guard let data, count > 0 else { return true }
        bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: Int(count)))
        return true
    }
}
