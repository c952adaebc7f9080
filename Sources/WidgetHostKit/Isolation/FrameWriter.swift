/// The memory a socket encodes its frames into, kept from one frame to the
/// next. Each write is a bounds check and a store: appending to an `Array`
/// also asks, on every write, whether the array owns its storage, and a
/// call's frame is some twenty writes (a third of the host's side of an
/// isolated call went to them).
final class FrameWriter {
    @exclusivity(unchecked) private var base: UnsafeMutableRawPointer
    @exclusivity(unchecked) private(set) var capacity: Int
    @exclusivity(unchecked) private(set) var count = 0

    private static let initialCapacity = 256

    init() {
        capacity = Self.initialCapacity
        base = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { base.deallocate() }

    /// What is written so far; valid until the next write, and only while
    /// the writer is kept alive (`copied` for a copy that outlives it).
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// A copy of what is written so far.
    func copied() -> [UInt8] { Array(bytes) }

    /// Starts over, keeping the memory unless a large frame grew it past `Frame.keptBytes`.
    func removeAll() {
        count = 0
        if capacity > Frame.keptBytes {
            base.deallocate()
            capacity = Self.initialCapacity
            base = .allocate(byteCount: capacity, alignment: 16)
        }
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// A u32, little-endian.
    @inline(__always)
    func append(u32 value: UInt32) {
        reserve(4)
        base.storeBytes(of: value.littleEndian, toByteOffset: count, as: UInt32.self)
        count += 4
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// A text's UTF-8, copied whole (a small string is copied off the stack).
    func append(utf8 text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ append(UnsafeRawBufferPointer($0)) }) == nil {
            append(Array(text.utf8))
        }
    }

    /// Room for `count` bytes written later with `store`.
    func skip(_ count: Int) {
        reserve(count)
        self.count += count
    }

    /// Writes a u32, little-endian, over bytes already counted.
    func store(u32 value: UInt32, at offset: Int) {
        precondition(offset >= 0 && offset + 4 <= count, "a store past what is written")
        base.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt32.self)
    }

    func store(byte: UInt8, at offset: Int) {
        precondition(offset >= 0 && offset < count, "a store past what is written")
        base.storeBytes(of: byte, toByteOffset: offset, as: UInt8.self)
    }

    @inline(__always)
    private func reserve(_ extra: Int) {
        if count + extra > capacity { grow(toHold: extra) }
    }

    @inline(never)
    private func grow(toHold extra: Int) {
        let grown = max(2 * capacity, count + extra)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 16)
        memory.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = memory
        capacity = grown
    }
}
