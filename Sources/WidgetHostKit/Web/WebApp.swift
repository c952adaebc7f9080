/// What `widget-host serve` answers: the dashboard page, each widget's
/// screens at their own addresses, actions as POSTs, and `/events`, the
/// stream of cards whose content changed. The dashboard and the session are
/// used under one lock, from the request threads and the main loop alike.
/// Cards and open screens are pushed again when their widget's content changes.
final class WebApp: @unchecked Sendable {
    let dashboard: Dashboard
    let gate: WebGate
    let events = EventHub()
    let images: ImageProxy
    /// The stylesheet, which holds the grid to the dashboard's column count.
    let css: String
    private let lock = Condition()
    /// The HTML last sent for each screen an open page shows (under `lock`).
    private var shownScreens: [String: String] = [:]

    init(dashboard: Dashboard, gate: WebGate, columns: Int? = nil, images: ImageProxy = ImageProxy()) {
        self.dashboard = dashboard
        self.gate = gate
        self.images = images
        css = WebAssets.css(columns: columns)
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
        case ("GET", "/app.css"), ("HEAD", "/app.css"): return asset(css, type: "text/css")
        case ("GET", "/app.js"), ("HEAD", "/app.js"): return asset(WebAssets.javascript, type: "text/javascript")
        case ("GET", "/events"):
            let screen = request.query.map(HTTPRequest.form)?.first { $0.0 == "screen" }?.1
            return .events(headers: []) { [events] in events.stream(watching: screen, $0) }
        case ("GET", "/image"): return image(request)
        default: break
        }
        guard let target = HTMLWriter.target(path: request.path, query: request.query) else { return .text(404, "no such page") }
        if request.method == "POST" { return perform(request, on: target) }
        return withDashboard { () -> HTTPResponse in
            do { try dashboard.session.open(target) } catch { return .text(404, "\(error)") }
            guard let rendered = dashboard.session.render() else { return .text(404, "no screen") }
            let html = screenHTML(rendered, target: target)
            shownScreens[HTMLWriter.address(of: target)] = html
            return page(title: rendered.title, body: "<nav><a href=\"/\">All widgets</a></nav>" + html)
        }
    }

    /// A full screen as a `main` that names its address: the unit a
    /// `screen` event replaces on the pages that show it.
    private func screenHTML(_ rendered: RenderedScreen, target: NavigationTarget) -> String {
        let address = HTMLWriter.address(of: target)
        let writer = HTMLWriter(actionURL: address, secret: gate.secret, manifest: dashboard.session.manifest(named: target.plugin))
        let view = (try? rendered.view.get()).map(writer.html) ?? ""
        let error = rendered.error.map { "<p class=\"c-negative\" role=\"alert\">\(HTMLWriter.escape($0))</p>" } ?? ""
        return "<main id=\"screen\" data-screen=\"\(HTMLWriter.escape(address))\"><h2>\(HTMLWriter.escape(rendered.title))</h2>\(error)\(view)</main>"
    }

    /// The open pages' screens of the widgets in `plugins`, rendered again
    /// (beside the navigator's stack, which a person's next request sets),
    /// each with the HTML it now has when that differs from what was sent.
    private func changedScreens(of plugins: Set<String>) -> [(address: String, title: String, html: String)] {
        let watched = events.watchedScreens
        // Only what an open page shows is remembered: a long-running server does not keep every screen ever visited.
        shownScreens = shownScreens.filter { watched.contains($0.key) }
        return watched.sorted().compactMap { address in
            // Whatever a client named: an address that is no screen is skipped, never trusted.
            let parts = address.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let target = HTMLWriter.target(path: parts[0], query: parts.count > 1 ? parts[1] : nil),
                  let id = dashboard.session.manifest(named: target.plugin)?.id.value, plugins.contains(id),
                  let entry = try? dashboard.session.navigator.resolve(target) else { return nil }
            let rendered = dashboard.session.render(entry.plugin, screen: entry.screen, params: entry.params)
            let html = screenHTML(rendered, target: target)
            guard shownScreens[address] != html else { return nil }
            shownScreens[address] = html
            return (address, rendered.title, html)
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
        let (cards, screens) = withDashboard {
            dashboard.session.settleEvents()
            let changed = Set(indices + dashboard.wokenCards() + dashboard.dueCards()).sorted()
            let cards: [JSONValue] = changed.compactMap { index in
                let before = dashboard.cards[index].content
                dashboard.render(index)
                guard dashboard.cards[index].content != before || indices.contains(index) else { return nil }
                return ["id": .string("card-\(index + 1)"), "title": .string(dashboard.cards[index].content.title), "html": .string(cardHTML(index))]
            }
            return (cards, changedScreens(of: Set(changed.compactMap { dashboard.cards[$0].manifest?.id.value })))
        }
        for card in cards { events.publish("event: card\ndata: \(card.serialized)\n\n") }
        for screen in screens {
            let data: JSONValue = ["id": .string("screen"), "title": .string(screen.title), "html": .string(screen.html)]
            events.publish("event: screen\ndata: \(data.serialized)\n\n", screen: screen.address)
        }
    }
}
