import Glibc
import HostShim

/// The interactive mode of `launch` and the home screen: draws the current
/// screen, reads keys, and redraws when the widget's state changes (a render
/// request, a bus event, a timeline date, a warning it logs), a plugin
/// directory changes or the terminal is resized, not only on a key. With
/// none of those it sleeps: no tick, so a screen left open costs nothing. Keys: a number chooses that
/// action (one that more digits could extend waits for them or Enter), the
/// arrows, PgUp/PgDn, Home/End, j and k scroll a screen taller than the
/// terminal, b goes back, r asks the widget for fresh data, q (or Ctrl-C)
/// quits. The terminal is restored on exit, on Ctrl-C and on a crash
/// (HostShim).
struct InteractiveLoop {
    let session: WidgetSession
    let environment: [String: String]
    /// Whether the home screen is the bottom of the stack.
    let home: Bool
    private let input = Input()
    /// Runs on the main thread after every wake-up, before the redraw
    /// (a plugin directory changed: rescan).
    var tick: () -> Void = {}
    /// A screen of the host's own shown in place of the widget's while it
    /// returns one (dev's build progress and errors), and a footer line.
    var cover: () -> (title: String, view: ViewNode)? = { nil }
    var status: () -> String? = { nil }
    /// In how many milliseconds the screen must be drawn again though
    /// nothing woke it (dev's "building… 12 s"), or nil for no such time.
    var redrawAfter: () -> Int32? = { nil }

    /// The keys, as `widget-host --help` tells them.
    static let keysHelp = """
          1-9, 10...  choose the numbered action; a number more digits could extend
                      (1 among 12 actions) waits for them or Enter; Esc drops it
          ↑ ↓ j k     scroll a screen taller than the terminal by a line
          PgUp PgDn   scroll by a window (Space too); Home, End: top, bottom
          r           ask the widget for fresh data (a widget with none is redrawn)
          b           back        q, Ctrl-C  quit
        """

    func run() -> Int32 {
        guard wh_shim_terminal_enter_raw(0) == 0 else { return ExitStatus.failure }
        defer { wh_shim_terminal_restore() }
        let log = session.runtime.resolve(HostLog.self)
        log.screenOwned = true
        defer { log.screenOwned = false }
        _ = wh_shim_terminal_notify_resize(session.wakeup.writeEnd)
        return loop(leavesOnBack: false).status
    }

    /// Inside a dashboard, whose terminal is already raw: `b` on the first
    /// screen, or Escape, comes back (`back` true) instead of doing nothing.
    func runInDashboard() -> (status: Int32, back: Bool) {
        loop(leavesOnBack: true)
    }

    private func loop(leavesOnBack: Bool) -> (status: Int32, back: Bool) {
        var state = State(atHome: home)
        state.leavesOnBack = leavesOnBack
        // The footer shows a plugin's latest warning: one logged from its own thread wakes the screen.
        let log = session.runtime.resolve(HostLog.self), wakeup = session.wakeup
        let outer = log.onNotice { wakeup.signal() }
        defer { _ = log.onNotice(outer) }
        draw(&state)
        while !state.quit {
            var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: session.wakeup.readEnd, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, redrawAfter() ?? -1)
            if ready < 0 && errno != EINTR { break }
            if fds[1].revents != 0 { session.wakeup.drain() }
            tick()
            if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 { break }
            if fds[0].revents != 0 {
                input.fill()
                // One key at a time: a key may open a text prompt, which
                // then takes the keys typed after it from the same read.
                while !state.quit, let key = input.nextKey() { handle(key, &state) }
            }
            session.settleEvents()
            if !state.quit { draw(&state) }
        }
        return (state.interrupted ? ExitStatus.interrupted : ExitStatus.success, state.back)
    }

    private struct State {
        var atHome: Bool
        var message: String?
        var quit = false
        var interrupted = false
        /// Back from the first screen leaves the loop (`back`): a dashboard's.
        var leavesOnBack = false
        var back = false
        var actions: [ScreenAction] = []
        var lastFrame = ""
        /// Digits typed that could still grow into a larger action number.
        var number = ""
        /// The first body line shown, for a screen taller than the terminal.
        var offset = 0
        /// How far PgUp and PgDn move: a window's height less one line of overlap.
        var page = 1
        /// Which screen `offset` belongs to: another one starts at its top.
        var shown = ""
    }

    private func handle(_ key: Key, _ state: inout State) {
        if case let .byte(byte) = key, let digit = Self.digit(byte) {
            state.message = nil
            choose(digit, &state)
            return
        }
        // Any other key ends a number being typed: Enter chooses it, the rest drop it.
        let number = state.number
        state.number = ""
        if !number.isEmpty {
            switch key {
            case .byte(13), .byte(10): choose(nil, number: number, &state); return
            case .escape: return
            case .byte(127), .byte(8):
                state.number = String(number.dropLast())
                return
            default: break
            }
        }
        state.message = nil
        switch key {
        case .up, .byte(UInt8(ascii: "k")): state.offset -= 1
        case .down, .byte(UInt8(ascii: "j")): state.offset += 1
        case .pageUp: state.offset -= state.page
        case .pageDown, .byte(UInt8(ascii: " ")): state.offset += state.page
        case .home: state.offset = 0
        case .end: state.offset = .max / 2
        case .byte(UInt8(ascii: "q")), .byte(4):   // q, Ctrl-D
            state.quit = true
        case .byte(3):   // Ctrl-C: quit, and say so in the exit status as an interrupted program does
            state.quit = true
            state.interrupted = true
        case .byte(UInt8(ascii: "r")):
            // Fresh data from the widget (a stopped one is started again), and a full redraw.
            state.lastFrame = ""
            guard !state.atHome, session.current != nil else { return }
            // A widget whose new build this process cannot load: the footer says so, and what to do, instead.
            if let current = session.current, session.outdatedNotice(current.plugin) != nil { return }
            do {
                if try !session.perform(.refresh) { state.message = "Nothing to refresh here: the screen was redrawn." }
            } catch {
                state.message = "\(error)"
            }
        case .byte(UInt8(ascii: "b")):
            if state.leavesOnBack && (state.atHome || session.navigator.stack.count <= 1) {
                state.back = true
                state.quit = true
                return
            }
            if state.atHome { return }
            if session.navigator.stack.count > 1 {
                attempt(&state) { try session.perform(.back) }
            } else if home {
                state.atHome = true
            }
        case .escape where state.leavesOnBack:
            state.back = true
            state.quit = true
        default:
            break
        }
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    /// Adds a typed digit to the action number (or, with `nil`, takes the
    /// number as it is: Enter). A number no further digit could turn into
    /// another action's runs at once, so up to nine actions need one key.
    private func choose(_ digit: Int?, number typed: String? = nil, _ state: inout State) {
        let text = (typed ?? state.number) + (digit.map(String.init) ?? "")
        state.number = ""
        let number = Int(text) ?? 0
        if digit != nil, number > 0, number * 10 <= state.actions.count {
            state.number = text
            return
        }
        guard number >= 1, number <= state.actions.count else {
            state.message = "There is no action \(text) here."
            return
        }
        run(state.actions[number - 1], &state)
    }

    private func run(_ action: ScreenAction, _ state: inout State) {
        if state.atHome {
            guard let value = action.value else { return }
            attempt(&state) { try session.open(NavigationTarget(plugin: value, screen: nil)) }
            if state.message == nil { state.atHome = false }
            return
        }
        var typed: String?
        if action.kind == .field {
            // The prompt drew over the screen: draw it again whatever happens.
            state.lastFrame = ""
            guard let text = LinePrompt(input: input, environment: environment).read(action.title, secret: action.secret) else { return }
            typed = text
        }
        attempt(&state) { try session.perform(action.intent(typed: typed)) }
    }

    private func attempt(_ state: inout State, _ body: () throws -> Void) {
        do { try body() } catch { state.message = "\(error)" }
    }

    /// The keys line: how to choose (one key up to nine actions, more digits
    /// and Enter beyond), or the number being typed.
    private static func keys(actions: Int, number: String, scrolls: Bool) -> String {
        let choose = switch (number.isEmpty, actions) {
        case (false, _): "choosing \(number)_: more digits or Enter, Esc cancels · "
        case (true, 0): ""
        case (true, 1): "1 choose · "
        case (true, 2...9): "1-\(actions) choose · "
        default: "1-\(actions) + Enter choose · "
        }
        return choose + "b back · r refresh · q quit" + (scrolls ? " · ↑↓ PgUp PgDn j k scroll" : "")
    }

    private func draw(_ state: inout State) {
        let renderer = TerminalRenderer(environment: environment)
        let layout: TerminalRenderer.Layout?
        let shown: String
        // The numbers a person can choose are those the layout drew.
        if let cover = cover() {
            layout = renderer.layout(cover.view, title: cover.title)
            state.actions = []
            shown = "cover " + cover.title
        } else if state.atHome {
            layout = renderer.layout(HomeScreen.view(session.manifests), title: HomeScreen.title)
            state.actions = layout?.actions ?? []
            shown = "home"
        } else if let screen = session.render() {
            layout = switch screen.view {
            case let .success(view): renderer.layout(view, title: screen.title)
            case let .failure(failure): renderer.errorLayout(plugin: screen.plugin.value, screen: screen.screen, reason: failure.description)
            }
            state.actions = layout?.actions ?? []
            shown = session.navigator.stack.map { "\($0.plugin.value)/\($0.screen)?\($0.params.serialized)" }.joined(separator: " ")
        } else {
            state.actions = []
            layout = nil
            shown = ""
        }
        if shown != state.shown {
            state.shown = shown
            state.offset = 0
        }
        // The footer always shows: the box's body gets the rows left over,
        // less one for the cursor (where a field's prompt appears).
        let rows = Terminal.height(environment: environment, fd: 1)
        // The plugin's latest warning or denial, which stderr alone would hide behind the screen.
        let notice = state.atHome ? nil : session.current.flatMap { entry in
            session.runtime.resolve(HostLog.self).latestNotice(from: entry.plugin.value).map { "! \(entry.plugin.shortName): \($0)" }
        }
        let outdated = state.atHome ? nil : session.current.flatMap { session.outdatedNotice($0.plugin) }
        func footer(scrolls: Bool) -> [String] {
            let keys = Self.keys(actions: state.actions.count, number: state.number, scrolls: scrolls)
            return renderer.footerLines([state.message, outdated, notice, status(), keys].compactMap { $0 }.joined(separator: "\n"))
        }
        let count = layout?.bodyCount ?? 0
        var lines = footer(scrolls: false)
        if count > rows - 3 - lines.count { lines = footer(scrolls: true) }
        let bodyRows = max(rows - 3 - lines.count, 1)
        state.offset = TerminalRenderer.Layout.clamp(state.offset, count: count, rows: bodyRows)
        state.page = max(bodyRows - 1, 1)
        let frame = (layout?.window(rows: bodyRows, offset: state.offset) ?? "") + lines.map { $0 + "\n" }.joined()
        guard frame != state.lastFrame else { return }
        state.lastFrame = frame
        // Raw mode does no output processing: lines need their carriage returns.
        FileDescriptor.standardOutput.write("\u{1B}[H\u{1B}[2J" + frame.replacing("\n", with: "\r\n"))
    }
}
