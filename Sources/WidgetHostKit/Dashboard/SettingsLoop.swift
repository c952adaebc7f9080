import Glibc

/// The settings screen of the focused card (the dashboard's `e` key), on the
/// dashboard's raw terminal: a setting's number asks for its new value at
/// the bottom (Enter saves it, Esc cancels), the footer says what was saved
/// or why it was refused, and b or Esc goes back to the cards, which the
/// dashboard then reloads with the new settings.
struct SettingsLoop {
    let screen: SettingsScreen
    let environment: [String: String]
    private let input = InteractiveLoop.Input()

    init(screen: SettingsScreen, environment: [String: String]) {
        self.screen = screen
        self.environment = environment
    }

    /// Until back (`changed`: whether the file was written) or quit (`quit`: the exit status).
    func run() -> (changed: Bool, quit: Int32?) {
        var message: String?, changed = false
        var actions = draw(message: message)
        while true {
            var fd = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, -1) >= 0 || errno == EINTR else { return (changed, ExitStatus.failure) }
            if fd.revents & Int16(POLLHUP | POLLERR) != 0 { return (changed, ExitStatus.success) }
            guard fd.revents != 0 else { continue }
            input.fill()
            while let key = input.nextKey() {
                switch key {
                case .byte(UInt8(ascii: "b")), .escape: return (changed, nil)
                case .byte(UInt8(ascii: "q")), .byte(4): return (changed, ExitStatus.success)
                case .byte(3): return (changed, ExitStatus.interrupted)
                case let .byte(byte) where (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(byte):
                    let number = Int(byte - UInt8(ascii: "0"))
                    guard number <= actions.count else {
                        message = "There is no setting \(number) here."
                        break
                    }
                    let key = actions[number - 1].action
                    guard let typed = LinePrompt(input: input, environment: environment).read("New value of \(key)", secret: false) else {
                        message = nil
                        break
                    }
                    do {
                        message = try screen.set(key, text: typed)
                        changed = true
                    } catch {
                        message = "Not saved: \(error)"
                    }
                default: message = nil
                }
                actions = draw(message: message)
            }
        }
    }

    /// Draws the screen; returns its actions (the settings, in order).
    private func draw(message: String?) -> [ScreenAction] {
        let renderer = TerminalRenderer(environment: environment)
        let view = screen.view()
        let actions = view.actions
        let keys = (actions.isEmpty ? "" : "1-\(min(actions.count, 9)) edit · ") + "b back · q quit"
        let footer = renderer.footerLines([message, keys].compactMap { $0 }.joined(separator: "\n"))
        let rows = max(Terminal.height(environment: environment, fd: 1) - 3 - footer.count, 1)
        let frame = renderer.layout(view, title: screen.title).window(rows: rows, offset: 0) + footer.map { $0 + "\n" }.joined()
        // Raw mode does no output processing: lines need their carriage returns.
        FileDescriptor.standardOutput.write("\u{1B}[H\u{1B}[2J" + frame.replacing("\n", with: "\r\n"))
        return actions
    }
}
