import Glibc

/// A key or click on the dashboard, decoded from what the terminal sends.
enum DashboardKey: Equatable {
    case byte(UInt8)
    case tab, backTab, up, down, left, right, enter, escape
    /// A press of the left button at a 1-based column and line (SGR 1006).
    case click(column: Int, line: Int)
    /// A sequence the dashboard has no use for (F1, a release...).
    case other
}

/// Keys read from the terminal (raw mode, never blocking) and not yet handled.
final class KeyReader {
    private var pending: [UInt8] = []
    private var head = 0

    func fill() {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(0, &buffer, buffer.count)
        guard count > 0 else { return }
        if head >= pending.count {
            pending.removeAll(keepingCapacity: true)
            head = 0
        }
        pending += buffer[0..<count]
    }

    private func next() -> UInt8? {
        guard head < pending.count else { return nil }
        defer { head += 1 }
        return pending[head]
    }

    func nextKey() -> DashboardKey? {
        guard let byte = next() else { return nil }
        switch byte {
        case 9: return .tab
        case 13, 10: return .enter
        case 27: break
        default: return .byte(byte)
        }
        guard head < pending.count, pending[head] == UInt8(ascii: "[") || pending[head] == UInt8(ascii: "O") else { return .escape }
        head += 1
        var parameters = ""
        while let byte = next() {
            guard (0x40...0x7E).contains(byte) else {
                parameters.append(Character(UnicodeScalar(byte)))
                continue
            }
            return Self.decode(parameters, final: UnicodeScalar(byte))
        }
        return .other
    }

    /// CSI sequences: arrows, Shift-Tab (`ESC [ Z`), an SGR mouse press
    /// (`ESC [ < 0 ; X ; Y M`).
    static func decode(_ parameters: String, final: UnicodeScalar) -> DashboardKey {
        switch (parameters, final) {
        case ("", "A"): return .up
        case ("", "B"): return .down
        case ("", "C"): return .right
        case ("", "D"): return .left
        case ("", "Z"): return .backTab
        default: break
        }
        guard parameters.hasPrefix("<"), final == "M" else { return .other }
        let numbers = parameters.dropFirst().split(separator: ";").compactMap { Int($0) }
        guard numbers.count == 3, numbers[0] == 0 else { return .other }
        return .click(column: numbers[1], line: numbers[2])
    }
}
