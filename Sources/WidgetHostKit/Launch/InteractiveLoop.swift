import Glibc
import HostShim

/// The interactive mode of `launch` and the home screen: draws the current
/// screen, reads keys, and redraws when the widget's state changes (a render
/// request or a bus event), not only on a key. Keys: 1-9 run the numbered
/// action, b goes back, r refreshes, q (or Ctrl-C) quits. The terminal is
/// restored on exit, on Ctrl-C and on a crash (HostShim).
struct InteractiveLoop {
    let session: WidgetSession
    let environment: [String: String]
    /// Whether the home screen is the bottom of the stack.
    let home: Bool
    private let input = Input()
    /// Runs on the main thread after every wake-up, before the redraw
    /// (a plugin directory changed: rescan).
    var tick: () -> Void = {}

    private static let refreshSeconds = 1.0

    func run() -> Int32 {
        guard wh_shim_terminal_enter_raw(0) == 0 else { return 1 }
        defer { wh_shim_terminal_restore() }
        var state = State(atHome: home)
        draw(&state)
        while !state.quit {
            var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: session.wakeup.readEnd, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, Int32(Self.refreshSeconds * 1000))
            if ready < 0 && errno != EINTR { break }
            if fds[1].revents != 0 { session.wakeup.drain() }
            tick()
            if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 { break }
            if fds[0].revents != 0 {
                input.fill()
                // One key at a time: a key may open a text prompt, which
                // then takes the keys typed after it from the same read.
                while !state.quit, let key = input.next() { handle(key, &state) }
            }
            session.settleEvents()
            if !state.quit { draw(&state) }
        }
        return state.interrupted ? 128 + SIGINT : 0
    }

    private struct State {
        var atHome: Bool
        var message: String?
        var quit = false
        var interrupted = false
        var actions: [ScreenAction] = []
        var lastFrame = ""
    }

    private func handle(_ key: UInt8, _ state: inout State) {
        state.message = nil
        switch key {
        case UInt8(ascii: "q"), 4:   // q, Ctrl-D
            state.quit = true
        case 3:   // Ctrl-C: quit, and say so in the exit status as an interrupted program does
            state.quit = true
            state.interrupted = true
        case UInt8(ascii: "r"):
            // Refresh; a widget that stopped is started again.
            if !state.atHome, let current = session.current { session.restartIfStopped(current.plugin) }
            state.lastFrame = ""
        case UInt8(ascii: "b"):
            if state.atHome { return }
            if session.navigator.stack.count > 1 {
                attempt(&state) { try session.perform("back") }
            } else if home {
                state.atHome = true
            }
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            let index = Int(key - UInt8(ascii: "1"))
            guard index < state.actions.count else {
                state.message = "There is no action \(index + 1) here."
                return
            }
            run(state.actions[index], &state)
        default:
            break
        }
    }

    private func run(_ action: ScreenAction, _ state: inout State) {
        if state.atHome {
            guard let value = action.value else { return }
            attempt(&state) { try session.open(NavigationTarget(plugin: value, screen: nil)) }
            if state.message == nil { state.atHome = false }
            return
        }
        switch action.kind {
        case .field:
            // The prompt drew over the screen: draw it again whatever happens.
            state.lastFrame = ""
            guard let text = prompt(action.title) else { return }
            attempt(&state) { try session.perform(action.action, value: text) }
        case .link:
            attempt(&state) { try session.perform(action.action) }
        case .button, .row:
            attempt(&state) { try session.perform(action.action, value: action.value) }
        }
    }

    private func attempt(_ state: inout State, _ body: () throws -> Void) {
        do { try body() } catch { state.message = "\(error)" }
    }

    private func draw(_ state: inout State) {
        let renderer = TerminalRenderer(width: Terminal.width(environment: environment, fd: 1), color: Terminal.color(environment: environment))
        let keys = "1-9 choose · b back · r refresh · q quit"
        let footer = state.message.map { "\($0)\n\(keys)" } ?? keys
        let frame: String
        if state.atHome {
            let view = HomeScreen.view(session.manifests)
            state.actions = view.actions
            frame = renderer.render(view, title: HomeScreen.title, footer: footer)
        } else if let screen = session.render() {
            state.actions = screen.actions
            frame = ScreenFormat.text.present(screen, stack: session.navigator.stack, renderer: renderer, footer: footer)
        } else {
            state.actions = []
            frame = footer + "\n"
        }
        guard frame != state.lastFrame else { return }
        state.lastFrame = frame
        // Raw mode does no output processing: lines need their carriage returns.
        FileDescriptor.standardOutput.write("\u{1B}[H\u{1B}[2J" + frame.replacing("\n", with: "\r\n"))
    }

    /// Reads a line for a text field at the bottom of the screen. Enter
    /// submits, Escape cancels, Backspace deletes.
    private func prompt(_ label: String) -> String? {
        var text = ""
        func show() {
            FileDescriptor.standardOutput.write("\r\u{1B}[2K\(label): \(text)\u{1B}[?25h")
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

    /// Keys read from the terminal and not yet handled.
    private final class Input {
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
    }
}
