/// What `widget-host serve` answers: the dashboard page, each widget's
/// screens at their own addresses, actions as POSTs, and `/events`, the
/// stream of cards whose content changed. The dashboard and the session are
/// used under one lock, from the request threads and the main loop alike.
final class WebApp: @unchecked Sendable {
    let dashboard: Dashboard
    let gate: WebGate
    let events = EventHub()
    let images: ImageProxy
    private let lock = Condition()

    init(dashboard: Dashboard, gate: WebGate, images: ImageProxy = ImageProxy()) {
        self.dashboard = dashboard
        self.gate = gate
        self.images = images
    }

    func withDashboard<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        if case let .refuse(response) = gate.check(request) { return response }
        switch (request.method, request.path) {
        case ("GET", "/"), ("HEAD", "/"): return page(title: "Widgets", body: withDashboard { dashboardHTML() })
        case ("GET", "/app.css"), ("HEAD", "/app.css"): return asset(WebAssets.css, type: "text/css")
        case ("GET", "/app.js"), ("HEAD", "/app.js"): return asset(WebAssets.javascript, type: "text/javascript")
        case ("GET", "/events"): return .events(headers: [], stream: events.stream)
        case ("GET", "/image"): return image(request)
        default: break
        }
        guard let target = HTMLWriter.target(path: request.path, query: request.query) else { return .text(404, "no such page") }
        if request.method == "POST" { return perform(request, on: target) }
        return withDashboard { () -> HTTPResponse in
            do { try dashboard.session.open(target) } catch { return .text(404, "\(error)") }
            guard let rendered = dashboard.session.render() else { return .text(404, "no screen") }
            let writer = HTMLWriter(actionURL: HTMLWriter.address(of: target), secret: gate.secret,
                                    manifest: dashboard.session.manifest(named: target.plugin))
            let view = (try? rendered.view.get()).map(writer.html) ?? ""
            let error = rendered.error.map { "<p class=\"c-negative\" role=\"alert\">\(HTMLWriter.escape($0))</p>" } ?? ""
            return page(title: rendered.title, body: "<nav><a href=\"/\">All widgets</a></nav><h2>\(HTMLWriter.escape(rendered.title))</h2>\(error)\(view)")
        }
    }

    /// An action on a screen, then the screen it leaves open (post, redirect, get).
    private func perform(_ request: HTTPRequest, on target: NavigationTarget) -> HTTPResponse {
        let form = HTTPRequest.form(String(decoding: request.body, as: UTF8.self))
        guard let action = form.first(where: { $0.0 == "action" })?.1, !action.isEmpty else { return .text(400, "the form names no action") }
        let value = form.first { $0.0 == "value" }?.1
        return withDashboard { () -> HTTPResponse in
            let session = dashboard.session
            do {
                try session.open(target)
                try session.perform(Intent(parsing: action, value: value))
            } catch {
                return .text(422, "\(error)")
            }
            guard let entry = session.current else { return .redirect(to: "/") }
            var params: [(String, String)] = []
            if case let .object(pairs) = entry.params { params = pairs.map { ($0.0, $0.1.string ?? $0.1.serialized) } }
            return .redirect(to: HTMLWriter.address(of: NavigationTarget(plugin: entry.plugin.value, screen: entry.screen, params: params)))
        }
    }

    func dashboardHTML() -> String {
        "<main class=\"grid\">" + dashboard.cards.indices.map(cardHTML).joined() + "</main>"
    }

    /// One card as an `article`, the unit `/events` replaces.
    func cardHTML(_ index: Int) -> String {
        let card = dashboard.cards[index], content = card.content
        let id = card.manifest?.id.value ?? card.spec.widget
        let screen = card.manifest?.screens.first?.id
        let address = HTMLWriter.address(of: NavigationTarget(plugin: id, screen: screen))
        let writer = HTMLWriter(actionURL: address, secret: gate.secret, manifest: card.manifest)
        var html = "<article class=\"card size-\(card.spec.size.rawValue)\" id=\"card-\(index + 1)\" aria-labelledby=\"card-\(index + 1)-title\">"
        html += "<h2 id=\"card-\(index + 1)-title\">" + (card.manifest == nil ? HTMLWriter.escape(content.title)
            : "<a href=\"\(HTMLWriter.escape(address))\">\(HTMLWriter.escape(content.title))</a>") + "</h2>"
        if let notice = content.notice { html += "<p class=\"notice\">\(HTMLWriter.escape(notice))</p>" }
        if content.stale { html += "<p class=\"stale\">stale</p>" }
        if let error = content.error { html += "<p class=\"c-negative\">\(HTMLWriter.escape(error))</p>" }
        if let view = content.view { html += writer.html(view) }
        if content.cut { html += "<p><a href=\"\(HTMLWriter.escape(address))\">more</a></p>" }
        return html + "</article>"
    }

    /// A plugin's picture, fetched outside the dashboard's lock (a slow
    /// server holds up only this request). What the host will not show is
    /// refused with its reason; the page then shows the alt text.
    private func image(_ request: HTTPRequest) -> HTTPResponse {
        let query = request.query.map(HTTPRequest.form) ?? []
        guard let plugin = query.first(where: { $0.0 == "w" })?.1, let url = query.first(where: { $0.0 == "u" })?.1,
              let manifest = dashboard.session.manifest(named: plugin) else { return .text(404, "no such widget or picture") }
        switch images.image(url, for: manifest) {
        case let .image(type, bytes):
            return .full(status: 200, headers: [("Content-Type", type), ("X-Content-Type-Options", "nosniff"),
                                                ("Cache-Control", "private, max-age=3600")], body: bytes)
        case let .denied(reason): return .text(403, reason)
        case let .failed(reason): return .text(502, reason)
        }
    }

    private func page(title: String, body: String) -> HTTPResponse {
        let html = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            + "<title>\(HTMLWriter.escape(title))</title><link rel=\"stylesheet\" href=\"/app.css\"><script src=\"/app.js\" defer></script></head>"
            + "<body><header><h1>WidgetHost</h1></header><div id=\"live\" class=\"sr\" aria-live=\"polite\"></div>\(body)</body></html>"
        return .full(status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Content-Security-Policy", WebAssets.policy),
                                            ("Cache-Control", "no-store")], body: Array(html.utf8))
    }

    private func asset(_ text: String, type: String) -> HTTPResponse {
        .full(status: 200, headers: [("Content-Type", "\(type); charset=utf-8"), ("Cache-Control", "no-cache")], body: Array(text.utf8))
    }

    /// Renders the cards whose widgets changed or whose time came, and
    /// tells every open page.
    func update(_ indices: [Int]) {
        let fragments: [JSONValue] = withDashboard {
            dashboard.session.settleEvents()
            let changed = Set(indices + dashboard.wokenCards() + dashboard.dueCards()).sorted()
            return changed.compactMap { index in
                let before = dashboard.cards[index].content
                dashboard.render(index)
                guard dashboard.cards[index].content != before || indices.contains(index) else { return nil }
                return ["id": .string("card-\(index + 1)"), "title": .string(dashboard.cards[index].content.title), "html": .string(cardHTML(index))]
            }
        }
        for fragment in fragments { events.publish("event: card\ndata: \(fragment.serialized)\n\n") }
    }
}

/// The open `/events` streams: each has its queue and a pipe to wake its
/// thread; a stream whose client left is dropped at its next write.
final class EventHub: Sendable {
    private let queues = Locked<[Int: (wakeup: Wakeup, pending: [String])]>([:])
    private let nextID = Locked(0)

    func publish(_ event: String) {
        let wakeups = queues.withLock { queues in
            for key in queues.keys { queues[key]!.pending.append(event) }
            return queues.values.map(\.wakeup)
        }
        wakeups.forEach { $0.signal() }
    }

    var streams: Int { queues.withLock { $0.count } }

    func stream(_ out: EventStream) {
        let id = nextID.withLock { value in
            value += 1
            return value
        }
        let wakeup = Wakeup()
        queues.withLock { $0[id] = (wakeup, []) }
        defer { queues.withLock { $0[id] = nil } }
        guard out.send(Array(": connected\n\n".utf8)) else { return }
        while true {
            // A comment every 15 s finds a client that went away without a word.
            wakeup.wait(seconds: 15)
            let pending = queues.withLock { queues in
                defer { queues[id]?.pending = [] }
                return queues[id]?.pending ?? []
            }
            let text = pending.isEmpty ? ": still here\n\n" : pending.joined()
            guard out.send(Array(text.utf8)) else { return }
        }
    }
}
