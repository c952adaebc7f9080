/// The dashboard on the terminal: a header line, the grid (scrolled so the
/// focused card shows), the footer. Keeps the lines it last drew for each
/// card, so an update rewrites only the lines that changed, and renders
/// only the cards in view (one woken out of view renders when it shows).
struct DashboardScreen {
    enum Action: Equatable { case stay, quit(Int32), open(Int), list, settings(Int) }

    let dashboard: Dashboard
    /// Read again on every wake-up, for `COLUMNS` and `LINES`; a test resizes through it.
    var environment: [String: String]
    let columns: Int?
    let footer: String
    var focus = 0
    var message: String?
    private(set) var frame: DashboardFrame
    private var width: Int
    private var height: Int
    /// The first grid line in view.
    private var scroll = 0
    private var painted: [Int: [String]] = [:]
    /// Cards woken while out of view: rendered when they come into it.
    private var waiting: Set<Int> = []
    /// The log's latest warning, once the footer has said it.
    private var shownWarning: String?
    /// Where the output goes; the bench counts what an update costs.
    var write: (String) -> Void = { FileDescriptor.standardOutput.write($0) }

    init(dashboard: Dashboard, environment: [String: String], columns: Int?, footer: String) {
        self.dashboard = dashboard
        self.environment = environment
        self.columns = columns
        self.footer = footer
        width = Terminal.width(environment: environment)
        height = Terminal.height(environment: environment)
        frame = DashboardFrame(dashboard: dashboard, width: width, columns: columns, color: Terminal.color(environment: environment),
                                   ascii: Terminal.ascii(environment: environment))
        waiting = Set(dashboard.cards.indices)
    }

    private var now: Int64 { DashboardLoop.now(dashboard) }
    /// The message (a reload's outcome), then the keys, wrapped to the width.
    private var footerLines: [String] {
        ([message].compactMap { $0 } + [footer]).flatMap { DisplayWidth.wrap(TerminalText.safe($0, lines: false), columns: width) }
            .map { DisplayWidth.prefix($0, fitting: width) }
    }
    /// Lines of the grid in view, between the header line and the footer.
    private var gridRows: Int { max(height - 1 - footerLines.count, 1) }

    private func visible(_ index: Int) -> Bool {
        // Too narrow, no card shows: those woken meanwhile render when the terminal widens.
        guard !frame.tooNarrow else { return false }
        let place = frame.placements[index]
        return place.y < scroll + gridRows && place.y + place.height > scroll
    }

    /// Renders the cards in view that are waiting for it.
    mutating func renderVisible() {
        for index in waiting.sorted() where visible(index) {
            dashboard.render(index)
            waiting.remove(index)
        }
    }

    /// Back from a widget full screen (or the list): any card's widget may
    /// have changed there without asking to be drawn (an action changes its
    /// state, and the full-screen view draws after every key), so every card
    /// renders again as it shows, as one woken out of view does.
    mutating func shownAgain() {
        waiting = Set(dashboard.cards.indices)
        renderVisible()
        drawAll()
    }

    /// Clears the terminal and draws everything.
    mutating func drawAll() {
        painted = [:]
        guard !frame.tooNarrow else {
            // The message as `launch` shows it, and below it what the footer had to say (a reload, a failed
            // open, a warning), wrapped: the header and the key help, cut to the width, would read as garbage.
            let said = message.map { DisplayWidth.wrap(TerminalText.safe($0, lines: false), columns: width) } ?? []
            write("\u{1B}[H\u{1B}[2J" + (frame.narrowMessage + said).enumerated().map { line($0.offset + 1) + $0.element }.joined())
            return
        }
        var out = "\u{1B}[H\u{1B}[2J" + line(1) + header
        for index in dashboard.cards.indices where visible(index) { out += paint(index) }
        for (offset, text) in footerLines.enumerated() { out += line(height - footerLines.count + 1 + offset) + text }
        write(out)
    }

    private var header: String {
        DisplayWidth.prefix("WidgetHost · \(dashboard.cards.count) cards", fitting: width) + "\u{1B}[K"
    }

    private func line(_ number: Int) -> String { "\u{1B}[\(number);1H" }

    /// The escape sequences that bring card `index` on screen up to date:
    /// only its lines that differ from what was drawn before.
    private mutating func paint(_ index: Int) -> String {
        guard !frame.tooNarrow else { return "" }
        let place = frame.placements[index]
        let lines = frame.lines(of: dashboard, card: index, focused: index == focus, now: now)
        let before = painted[index] ?? []
        painted[index] = lines
        var out = ""
        for (offset, text) in lines.enumerated() where offset >= before.count || before[offset] != text {
            let row = place.y + offset - scroll
            guard row >= 0, row < gridRows else { continue }
            out += "\u{1B}[\(row + 2);\(place.x + 1)H" + text
        }
        return out
    }

    /// After a wake-up: a new terminal size redraws all; otherwise the
    /// cards that woke or fell due render (those in view) and repaint.
    mutating func update(woken: [Int], due: [Int]) {
        let size = (Terminal.width(environment: environment), Terminal.height(environment: environment))
        // A warning logged meanwhile shows in the footer, as stderr cannot while the grid shows.
        let warning = dashboard.session.runtime.resolve(HostLog.self).latestWarning.map { "⚠ " + $0 }
        if let warning, warning != shownWarning {
            shownWarning = warning
            message = warning
            if size == (width, height) { drawAll() }
        }
        for index in Set(woken + due) { waiting.insert(index) }
        if size != (width, height) {
            (width, height) = size
            frame = DashboardFrame(dashboard: dashboard, width: width, columns: columns, color: Terminal.color(environment: environment),
                                   ascii: Terminal.ascii(environment: environment))
            reveal(focus)
            renderVisible()
            drawAll()
            return
        }
        let shown = waiting.filter(visible)
        renderVisible()
        let out = shown.sorted().map { paint($0) }.joined()
        if !out.isEmpty { write(out) }
    }

    /// Scrolls so the card is in view whole (its top, if it is taller than the view).
    private mutating func reveal(_ index: Int) {
        guard frame.placements.indices.contains(index) else { return }
        // A scroll kept from another layout (a narrow one, taller) would leave the view short of cards this one has room for.
        scroll = min(scroll, max((frame.placements.map { $0.y + $0.height }.max() ?? 0) - gridRows, 0))
        let place = frame.placements[index]
        if place.y + place.height > scroll + gridRows { scroll = place.y + place.height - gridRows }
        if place.y < scroll { scroll = place.y }
    }

    /// Focuses the card that had the focus on `previous`, the screen of the
    /// layout this one replaces: a reload builds every card anew, and the
    /// person who saved a card's settings is still at that card.
    mutating func keepFocus(of previous: DashboardScreen) {
        focus = Self.sameCard(previous.focus, of: previous.dashboard.cards.map(\.identity), in: dashboard.cards.map(\.identity))
        reveal(focus)
    }

    /// Where card `index` of `old` is in `new`, both as card identities: the
    /// same widget, at the same occurrence when it has several cards (its
    /// last one if fewer remain). A card gone leaves the focus where it was,
    /// on the last card if the grid shrank past it.
    static func sameCard(_ index: Int, of old: [String], in new: [String]) -> Int {
        let kept = min(index, max(new.count - 1, 0))
        guard old.indices.contains(index) else { return kept }
        let occurrence = old[..<index].filter { $0 == old[index] }.count
        let matches = new.indices.filter { new[$0] == old[index] }
        return matches.isEmpty ? kept : matches[min(occurrence, matches.count - 1)]
    }

    mutating func handle(_ key: DashboardKey) -> Action {
        let count = dashboard.cards.count
        guard count > 0 else {
            return key == .byte(UInt8(ascii: "q")) || key == .byte(3) ? .quit(key == .byte(3) ? ExitStatus.interrupted : ExitStatus.success) : .stay
        }
        switch key {
        case .tab, .right: move(to: (focus + 1) % count)
        case .backTab, .left: move(to: (focus + count - 1) % count)
        case .down: move(to: neighbour(below: true) ?? focus)
        case .up: move(to: neighbour(below: false) ?? focus)
        case .enter: return .open(focus)
        case let .click(column, line):
            let y = line - 2 + scroll, x = column - 1
            guard !frame.tooNarrow, line >= 2, line - 2 < gridRows,
                  let index = frame.placements.firstIndex(where: { x >= $0.x && x < $0.x + $0.width && y >= $0.y && y < $0.y + $0.height })
            else { return .stay }
            move(to: index)
            return .open(index)
        case let .byte(byte) where (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(byte):
            let index = Int(byte - UInt8(ascii: "1"))
            if index < count { move(to: index) }
        case .byte(UInt8(ascii: "r")):
            dashboard.refresh(focus)
            dashboard.render(focus)
            write(paint(focus))
        case .byte(UInt8(ascii: "l")): return .list
        case .byte(UInt8(ascii: "e")): return .settings(focus)
        case .byte(UInt8(ascii: "q")), .byte(4): return .quit(ExitStatus.success)
        case .byte(3): return .quit(ExitStatus.interrupted)
        default: break
        }
        return .stay
    }

    private mutating func move(to index: Int) {
        let old = focus, oldScroll = scroll
        focus = index
        reveal(index)
        if scroll != oldScroll {
            renderVisible()
            drawAll()
            return
        }
        write(paint(old) + paint(index))
    }

    /// The nearest card in the rows below (or above) the focused one.
    private func neighbour(below: Bool) -> Int? {
        let current = frame.placements[focus]
        return frame.placements.indices.filter { index in
            let place = frame.placements[index]
            return below ? place.y >= current.y + current.height : place.y + place.height <= current.y
        }.min { a, b in
            let pa = frame.placements[a], pb = frame.placements[b]
            let da = (abs(pa.y - current.y), abs(pa.x - current.x)), db = (abs(pb.y - current.y), abs(pb.x - current.x))
            return da < db
        }
    }
}
