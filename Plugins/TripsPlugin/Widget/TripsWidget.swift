import PluginABI

@_cdecl("widget_host_entry")
public func widgetHostEntry() -> UnsafePointer<wh_plugin_descriptor>? {
    exportWidget(manifest: wh_manifest_json()) { TripsWidget(host: $0) }
}

/// The "My Trips" widget: the traveller's upcoming trip, step by step.
///
/// The app writes the bookings into the shared container; the widget builds
/// a timeline from them once (reload policy "never") and shows the entry
/// current by the host's clock. It rebuilds only when the store says the
/// bookings changed, and asks the clock to wake it when the next entry is
/// due, so the screen moves on by itself.
final class TripsWidget: Widget {
    private let host: Host
    /// Nil until the first load completes.
    private var state: Result<TripsTimeline, BookingsError>?
    /// Bumped by each load, so a slower, older load never overwrites a newer one.
    private var generation = 0
    private var loading = false
    /// When the clock has been asked to wake the widget, so it is asked once.
    private var wakeRequested: Int64?

    /// Skipped bookings logged one by one; past this, only a count.
    private static let loggedSkips = 20

    init(host: Host) {
        self.host = host
        do { try host.subscribe("store.changed") } catch {
            host.log(.warning, "\(error): the widget will not reload when the app writes new bookings")
        }
    }

    /// The bookings' named error, which the trip and timeline screens show,
    /// declared as the screen's error state for scripts.
    private static func error(_ state: Result<TripsTimeline, BookingsError>) -> String? {
        guard case let .failure(error) = state else { return nil }
        return error.description
    }

    func render(screen: String, params: JSONValue) throws(WidgetError) -> String {
        let now = host.nowMilliseconds ?? 0
        switch screen {
        case "trip":
            guard let state = loaded(now: now) else { return TripViews.loading().screen }
            if case let .success(timeline) = state { wake(at: timeline.nextChange(after: now), now: now) }
            return TripViews.current(state, now: now).screen(error: Self.error(state))
        case "timeline":
            guard let state = loaded(now: now) else { return TripViews.loading().screen }
            return TripViews.timeline(state, now: now) { host.timeZone(atMilliseconds: $0) }.screen(error: Self.error(state))
        case "booking":
            guard let state = loaded(now: now) else { return TripViews.loading().screen }
            let id = params["id"]?.string
            let booking = id.flatMap { id in (try? state.get())?.booking(id: id) }
            return TripViews.booking(booking, id: id, state: state)
        case "search":
            return TripViews.search(params["kind"]?.string.flatMap(TripViews.SearchKind.init(rawValue:))).screen
        default:
            throw .unknownScreen(screen)
        }
    }

    /// The card wakes for the next entry and for its countdown's next change.
    func card(size: CardSize) throws(WidgetError) -> String? {
        let now = host.nowMilliseconds ?? 0
        let state = loaded(now: now)
        if case let .success(timeline)? = state {
            let countdown = TripsCard.upcoming(timeline, now: now).flatMap { TripsCard.countdownChange(to: $0.date.milliseconds, now: now) }
            wake(at: [timeline.nextChange(after: now), countdown].compactMap { $0 }.min(), now: now)
        }
        return TripsCard.view(state, now: now, size: size)
    }

    /// `timeline`: the entries as data (TimelineQuery), once the bookings are
    /// loaded; while they load, the failure says so and the host waits.
    func query(_ id: String) throws(WidgetError) -> String {
        guard id == "timeline" else { throw .unknownQuery(id) }
        let now = host.nowMilliseconds ?? 0
        guard let state = loaded(now: now) else { throw .failed("the bookings are still loading") }
        return TimelineQuery.json(state, now: now).serialized
    }

    func receive(topic: String, payload: String) {
        guard topic == "store.changed", let event = try? JSONParser.parse(payload),
              event["key"]?.string == BookingsSource.key else { return }
        host.log(.info, "\(BookingsSource.key) changed (\(event["change"]?.string ?? "?")): rebuilding the timeline")
        load(now: host.nowMilliseconds ?? 0)
        host.requestRender()
    }

    /// The timeline, or nil while the first load runs (which this starts).
    private func loaded(now: Int64) -> Result<TripsTimeline, BookingsError>? {
        if state == nil && !loading { load(now: now) }
        return state
    }

    /// Reads the bookings off the host's thread; the current state stays on
    /// screen until the new one is ready.
    private func load(now: Int64) {
        generation += 1
        let generation = generation
        loading = true
        let host = host
        host.background({ BookingsSource.load(host, now: now) }) { [self] result in
            guard generation == self.generation else { return }
            loading = false
            state = result
            wakeRequested = nil
            report(result)
        }
    }

    private func report(_ result: Result<TripsTimeline, BookingsError>) {
        switch result {
        case let .failure(error):
            host.log(.warning, "no booking to show: \(error)")
        case let .success(timeline):
            for skip in timeline.skipped.prefix(Self.loggedSkips) { host.log(.warning, skip.description) }
            if timeline.skipped.count > Self.loggedSkips {
                host.log(.warning, "\(timeline.skipped.count - Self.loggedSkips) more bookings skipped")
            }
            host.log(.info, "timeline: \(timeline.entries.count) entries from \(timeline.bookings.count) bookings")
        }
    }

    /// Asks the clock to wake the widget for the next entry. A timer far
    /// ahead is asked for a day at a time (the host caps a timer's delay at
    /// about 24 days); each wake-up renders, and the render asks again.
    private func wake(at next: Int64?, now: Int64) {
        guard let next else { return }
        if let requested = wakeRequested, requested > now, requested <= next { return }
        let target = min(next, now + Self.day)
        wakeRequested = target
        host.wake(atMilliseconds: target)
    }

    private static let day: Int64 = 86_400_000
}
