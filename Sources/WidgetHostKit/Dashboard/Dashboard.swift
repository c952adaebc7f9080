/// The cards of a dashboard and what each shows, kept fresh by rendering a
/// card only when its widget asks (a render request, a store key, a fetch
/// landing, a contract's provider changing) or its time comes (a restart
/// after a crash, a configured refresh). Drive it from the main thread.
public final class Dashboard {
    public struct Card {
        public let spec: DashboardSpec.Card
        /// nil: no usable plugin answers to the name (the card says so).
        public let manifest: Manifest?
        public var content: CardContent
        /// Crashes in a row, for the back-off; and when to start it again.
        var crashes = 0
        public var restartAt: Int64?
        /// Stopped too often (the crash-loop breaker): not restarted until asked again.
        public var quarantined = false
        var refreshedAt: Int64?
        /// The widget said it is still loading, so the stale view from the
        /// last run stands in; a script waits for the fresh one.
        var awaitingFresh = false

        /// What the card shows, across a reload that rebuilds it: the widget
        /// it resolved to, or the name the configuration gave it if none.
        var identity: String { manifest?.id.value ?? spec.widget }
    }

    public let session: WidgetSession
    public private(set) var cards: [Card]
    private let cache: CardCache?
    private let clock: HostClock

    /// Widgets whose shipped copy another copy replaces
    /// (DiscoveryReport.shadowedIDs): their cards say so in their title.
    public let replacingShipped: Set<PluginID>

    public init(session: WidgetSession, spec: DashboardSpec, cache: CardCache?, clock: HostClock, replacingShipped: Set<PluginID> = []) {
        self.session = session
        self.cache = cache
        self.clock = clock
        self.replacingShipped = replacingShipped
        let title = { (manifest: Manifest) in manifest.name + (replacingShipped.contains(manifest.id) ? " · not the shipped copy" : "") }
        let manifests = session.manifests
        let now = clock.nowMilliseconds
        cards = spec.cards.map { card in
            guard case let .found(id) = PluginNames.resolve(card.widget, among: manifests), let manifest = manifests.first(where: { $0.id == id }) else {
                let reason = PluginNames.failure(card.widget, PluginNames.resolve(card.widget, among: manifests), among: manifests)
                var content = CardContent(title: card.widget, error: "not installed: \(reason)")
                content.notice = "Not installed"
                return Card(spec: card, manifest: nil, content: content)
            }
            var content = CardContent.placeholder(title: title(manifest))
            if let cached = cache?.load(id, card.size) {
                content = CardContent(title: title(manifest), view: cached.view.root, error: cached.view.error, renderedAt: cached.at)
                content.stale = true
            }
            return Card(spec: card, manifest: manifest, content: content, refreshedAt: now)
        }
    }

    /// The seconds between a crash and the restart: 1, 2, 4 ... up to a minute.
    static func backoff(crashes: Int) -> Int64 { min(Int64(1) << Int64(min(max(crashes - 1, 0), 6)), 60) }

    /// The render parameters of a card: its size when the widget designs
    /// one (the largest it offers that fits, else its smallest), none when
    /// it designs none and its first screen is cut to the card.
    static func params(for size: CardSize, offered: [CardSize]) -> (params: JSONValue, cut: Bool) {
        guard !offered.isEmpty else { return ([:], true) }
        let chosen = offered.filter { $0 <= size }.max() ?? offered.min()!
        return (.object([(CardSize.parameter, .string(chosen.rawValue))]), false)
    }

    /// Renders card `index` now (unless it waits for a restart).
    public func render(_ index: Int) {
        guard let manifest = cards[index].manifest, let screen = manifest.screens.first else { return }
        let now = clock.nowMilliseconds
        var card = cards[index]
        defer { cards[index] = card }
        if let restartAt = card.restartAt {
            guard now >= restartAt else {
                card.content.notice = "crashed, restarting in \((restartAt - now + 999) / 1000) s"
                return
            }
            card.restartAt = nil
            session.restartIfStopped(manifest.id)
        }
        let (params, cut) = Self.params(for: card.spec.size, offered: manifest.sizes)
        let rendered = session.render(manifest.id, screen: screen.id, params: params)
        card.awaitingFresh = false
        switch rendered.view {
        case .success where rendered.isLoading && card.content.view != nil && card.content.stale:
            // Still loading: the last good view stays, marked stale, until the fresh one is in.
            card.awaitingFresh = true
        case let .success(view):
            card.quarantined = false
            card.content = CardContent(title: card.content.title, view: view, error: rendered.declaredError, renderedAt: now)
            card.content.cut = cut
            card.crashes = 0
            if !rendered.isLoading { cache?.save(manifest.id, card.spec.size, ViewScreen(root: view, error: rendered.declaredError), at: now) }
        case let .failure(failure) where failure.busySeconds != nil:
            // Its answer wakes the card; meanwhile it keeps what it shows.
            card.content.notice = failure.busySeconds! >= 1 ? failure.description : nil
        case let .failure(failure):
            card.content.stale = card.content.view != nil
            card.content.error = failure.description
            if failure.description.contains(QuarantineStore.refusal) {
                // A crash loop: no more restarts until the file changes, the quarantine is lifted, or `r` asks again.
                card.restartAt = nil
                card.quarantined = true
                card.content.notice = "quarantined (crash loop)"
            } else if session.failure(of: manifest.id) != nil {
                card.crashes += 1
                let seconds = Self.backoff(crashes: card.crashes)
                card.restartAt = now + seconds * 1000
                card.content.notice = "crashed, restarting in \(seconds) s"
            } else {
                card.content.notice = nil
            }
        }
    }

    /// The cards whose widgets asked to be drawn again, with the cards that
    /// ask those widgets' contracts (Ticker draws Crypto's price).
    public func wokenCards() -> [Int] {
        let woken = session.takeWoken()
        guard !woken.isEmpty else { return [] }
        let provided = Set(cards.compactMap(\.manifest).filter { woken.contains($0.id) }.flatMap(\.providedContracts))
        return cards.indices.filter { index in
            guard let manifest = cards[index].manifest else { return false }
            return woken.contains(manifest.id) || !provided.isDisjoint(with: manifest.requiredContracts)
        }
    }

    /// When the next card is due by time (a restart, a configured refresh),
    /// by the host's clock; nil when none is: the dashboard then sleeps
    /// until a widget or a person wakes it.
    public func nextDue() -> Int64? {
        cards.compactMap { card -> Int64? in
            let refresh = card.spec.refreshSeconds.map { Int64(max($0, DashboardSpec.minimumRefreshSeconds) * 1000) }
            let refreshDue = refresh.map { (card.refreshedAt ?? 0) + $0 }
            return [card.restartAt, card.manifest == nil ? nil : refreshDue].compactMap { $0 }.min()
        }.min()
    }

    /// The cards due by `now`: restarts are tried, refreshes asked for.
    public func dueCards() -> [Int] {
        let now = clock.nowMilliseconds
        var due: [Int] = []
        for index in cards.indices {
            if let restartAt = cards[index].restartAt, restartAt <= now { due.append(index) }
            if let seconds = cards[index].spec.refreshSeconds, let manifest = cards[index].manifest,
               (cards[index].refreshedAt ?? 0) + Int64(max(seconds, DashboardSpec.minimumRefreshSeconds) * 1000) <= now {
                cards[index].refreshedAt = now
                refresh(index, manifest: manifest)
                due.append(index)
            }
        }
        return due
    }

    /// Asks the card's widget for fresh data (the `r` key, a refresh interval).
    public func refresh(_ index: Int) {
        guard let manifest = cards[index].manifest else { return }
        cards[index].refreshedAt = clock.nowMilliseconds
        refresh(index, manifest: manifest)
    }

    private func refresh(_ index: Int, manifest: Manifest) {
        cards[index].restartAt = nil
        cards[index].crashes = 0
        _ = try? session.refresh(manifest.id, screen: manifest.screens.first?.id ?? "")
    }

    /// A card that never rendered, or a stale one: a script waits for these.
    public func isLoading(_ index: Int) -> Bool {
        guard cards[index].manifest != nil, cards[index].restartAt == nil, !cards[index].quarantined else { return false }
        if case let .stack(_, children)? = cards[index].content.view, children.isEmpty { return true }
        return cards[index].awaitingFresh || cards[index].content.view?.containsIndeterminateProgress == true
            || cards[index].content.renderedAt == nil
    }
}
