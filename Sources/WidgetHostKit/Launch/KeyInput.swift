import Glibc

/// The keys the interactive loop reads from the terminal, decoded.
extension InteractiveLoop {
    /// A key as the terminal sends it: a byte, or an escape sequence decoded.
    enum Key: Equatable {
        case byte(UInt8)
        case up, down, pageUp, pageDown, home, end
        /// Escape alone.
        case escape
        /// A sequence this loop has no use for (F1, a mouse report...).
        case other
    }

    /// Keys read from the terminal and not yet handled.
    final class Input {
        private var pending: [UInt8] = []
        private var head = 0

        var isEmpty: Bool { head >= pending.count }

        /// Reads what the terminal has now (raw mode never blocks).
        func fill() {
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(0, &buffer, buffer.count)
            guard count > 0 else { return }
            if isEmpty {
                pending.removeAll(keepingCapacity: true)
                head = 0
            }
            pending += buffer[0..<count]
        }

        func next() -> UInt8? {
            guard !isEmpty else { return nil }
            defer { head += 1 }
            return pending[head]
        }

        /// The next key: ESC [ or ESC O starts a sequence (up to its final
        /// byte, @ to ~); an ESC with nothing after it in the read is Escape.
        func nextKey() -> Key? {
            guard let byte = next() else { return nil }
            guard byte == 27, !isEmpty, pending[head] == UInt8(ascii: "[") || pending[head] == UInt8(ascii: "O") else {
                return byte == 27 ? .escape : .byte(byte)
            }
            head += 1
            var parameters = ""
            while let byte = next() {
                guard !(0x40...0x7E).contains(byte) else {
                    switch (parameters, UnicodeScalar(byte)) {
                    case ("", "A"): return .up
                    case ("", "B"): return .down
                    case ("", "H"), ("1", "~"), ("7", "~"): return .home
                    case ("", "F"), ("4", "~"), ("8", "~"): return .end
                    case ("5", "~"): return .pageUp
                    case ("6", "~"): return .pageDown
                    default: return .other
                    }
                }
                parameters.append(Character(UnicodeScalar(byte)))
            }
            return .other
        }
    }
}
