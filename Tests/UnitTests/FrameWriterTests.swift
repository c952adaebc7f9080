import Testing
@testable import WidgetHostKit

/// The memory frames are encoded into: what it writes, byte for byte, and
/// the memory it keeps and lets go.
@Suite("FrameWriter")
struct FrameWriterTests {
    @Test("bytes, little-endian u32s, raw bytes and text land in order; stores write over what is counted")
    func writesInOrder() {
        let writer = FrameWriter()
        writer.skip(4)
        writer.append(0xAB)
        writer.append(u32: 0x0102_0304)
        writer.append([9, 8])
        writer.append(utf8: "é!")
        writer.store(u32: 0x0A0B_0C0D, at: 0)
        writer.store(byte: 0xCD, at: 4)
        #expect(writer.count == 14)
        #expect(writer.copied() == [0x0D, 0x0C, 0x0B, 0x0A, 0xCD, 4, 3, 2, 1, 9, 8, 0xC3, 0xA9, 0x21])
    }

    @Test("text of every length and kind is copied whole: small, native, and a substring's copy", arguments: [
        "", "a", String(repeating: "x", count: 15), String(repeating: "long ", count: 50), "🚀 émoji",
        String(String(repeating: "ab", count: 40).dropFirst(3)),
    ])
    func textWhole(_ text: String) {
        let writer = FrameWriter()
        writer.append(utf8: text)
        #expect(writer.copied() == Array(text.utf8))
    }

    @Test("a frame larger than the memory kept grows it, keeps every byte, and removeAll lets the large memory go")
    func growsAndLetsGo() {
        let writer = FrameWriter()
        let kept = writer.capacity
        let large = (0..<(3 * Frame.keptBytes)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        writer.append(0)
        for chunk in stride(from: 0, to: large.count, by: 1000) { writer.append(Array(large[chunk..<min(chunk + 1000, large.count)])) }
        #expect(writer.count == large.count + 1)
        #expect(Array(writer.copied().dropFirst()) == large)
        #expect(writer.capacity > Frame.keptBytes)
        writer.removeAll()
        #expect(writer.count == 0 && writer.capacity == kept)
        // A small frame's memory is kept from one frame to the next.
        writer.append([1, 2, 3])
        writer.removeAll()
        #expect(writer.count == 0 && writer.capacity == kept)
    }
}
