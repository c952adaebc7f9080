import Glibc

/// A line typed at the bottom of a screen the host draws in raw mode: a
/// text field's value (InteractiveLoop), a setting's (SettingsLoop).
struct LinePrompt {
    let input: InteractiveLoop.Input
    let environment: [String: String]

    /// Reads a line for a text field at the bottom of the screen. Enter
    /// submits, Escape (or Ctrl-C) cancels, Backspace deletes. The terminal is
    /// raw (no echo) while the loop runs, so the only copy of what is typed on
    /// screen is the one drawn here: for a secure field, a mask of one mark a
    /// character.
    func read(_ label: String, secret: Bool) -> String? {
        var text = ""
        let mark = TerminalRenderer(environment: environment).symbols.secret
        func show() {
            let shown = secret ? String(repeating: mark, count: text.count) : text
            FileDescriptor.standardOutput.write("\r\u{1B}[2K\(label): \(shown)\u{1B}[?25h")
        }
        show()
        defer { FileDescriptor.standardOutput.write("\u{1B}[?25l") }
        var pending: [UInt8] = []
        while true {
            if input.isEmpty {
                var fd = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
                guard poll(&fd, 1, -1) >= 0 else { if errno == EINTR { continue }; return nil }
                if fd.revents & Int16(POLLHUP | POLLERR) != 0 { return nil }
                input.fill()
            }
            while let byte = input.next() {
                switch byte {
                case 13, 10: return text
                case 27, 3: return nil
                case 127, 8:
                    if !text.isEmpty { text.removeLast() }
                default:
                    guard byte >= 32 else { continue }
                    pending.append(byte)
                    if let decoded = String(validating: pending, as: UTF8.self) {
                        text += decoded
                        pending.removeAll()
                    } else if pending.count >= 4 {
                        pending.removeAll()
                    }
                }
            }
            show()
        }
    }
}
