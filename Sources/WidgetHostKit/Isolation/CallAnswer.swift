import PluginABI

/// The child's answer to a `ChildCall`, the head of a result frame; a
/// render's or a query's output is the frame's body.
///
/// On the wire: a byte for the case (`Code`), then the plugin's status as a
/// u32 little-endian (the bits of its int32_t), or the reason as a text (a
/// u32 little-endian length and UTF-8), or nothing.
enum CallAnswer: Equatable, Sendable {
    /// What the plugin returned (plugin.h's `wh_status`).
    case status(Int32)
    /// The plugin wrote more than `PluginInstance.maxRenderBytes`; nothing of it is sent.
    case overflowed
    /// The child could not load the plugin: its cage was refused, or the
    /// manifest or the image did not pass the load handshake.
    case loadFailed(String)
    /// The plugin's `create` made no instance, or it was made already.
    case createFailed(String)

    static let ok = CallAnswer.status(Int32(WH_OK.rawValue))

    /// A result's first byte. Append-only: a code once given keeps its meaning.
    private enum Code: UInt8 {
        case status = 1, overflowed, loadFailed, createFailed
    }

    func write(to out: FrameWriter) {
        switch self {
        case let .status(status):
            out.append(Code.status.rawValue)
            out.append(u32: UInt32(bitPattern: status))
        case .overflowed: out.append(Code.overflowed.rawValue)
        case let .loadFailed(reason):
            out.append(Code.loadFailed.rawValue)
            FrameFields.writeText(reason, to: out)
        case let .createFailed(reason):
            out.append(Code.createFailed.rawValue)
            FrameFields.writeText(reason, to: out)
        }
    }

    init(reading reader: inout FrameFields.Reader) throws(FrameError) {
        let byte = try reader.byte()
        switch Code(rawValue: byte) {
        case .status: self = .status(Int32(bitPattern: UInt32(try reader.u32())))
        case .overflowed: self = .overflowed
        case .loadFailed: self = .loadFailed(try reader.text())
        case .createFailed: self = .createFailed(try reader.text())
        case nil: throw .malformed("its head holds an unknown answer \(byte)")
        }
    }
}
