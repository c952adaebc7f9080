/// The view description as semantic HTML. The host writes every byte and
/// escapes every string a plugin gave; a plugin's words never become
/// markup, style or script. Actions are forms that POST to the screen's
/// address with the secret.
struct HTMLWriter {
    /// Where this view's forms post: the address of its screen.
    let actionURL: String
    let secret: String
    /// The plugin whose view this is: its manifest says which pictures the host may fetch for it.
    var manifest: Manifest?

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    func html(_ node: ViewNode) -> String {
        switch node {
        case let .stack(axis, children):
            return "<div class=\"\(axis == .horizontal ? "h" : "v")\">" + children.map(html).joined() + "</div>"
        case let .section(header, children):
            return "<section><h3>\(Self.escape(header))</h3>" + children.map(html).joined() + "</section>"
        case let .text(text, style, color):
            return "<p class=\"s-\(style.rawValue) c-\(color.rawValue)\">\(Self.escape(text))</p>"
        case let .button(title, action, value, prominence):
            return form(action: action, value: value) + "<button class=\"p-\(prominence.rawValue)\">\(Self.escape(title))</button></form>"
        case let .field(label, action, placeholder, value, input):
            // A secure field's value is never written back into the page.
            let mode = input == .amount ? " inputmode=\"decimal\"" : input == .secure ? " type=\"password\" autocomplete=\"off\"" : ""
            let shown = input == .secure ? "" : value
            return form(action: action, value: nil) + "<label>\(Self.escape(label ?? placeholder))"
                + " <input name=\"value\" value=\"\(Self.escape(shown))\" placeholder=\"\(Self.escape(placeholder))\"\(mode)></label>"
                + " <button>OK</button></form>"
        case let .list(action, rows):
            return "<ul>" + rows.map { row in
                let cells = row.cells.isEmpty
                    ? row.detail.map { " <span class=\"detail\">\(Self.escape($0))</span>" } ?? ""
                    : row.cells.map { " <span class=\"cell\">" + html($0) + "</span>" }.joined()
                let content = "<span class=\"title\">\(Self.escape(row.title))</span>" + cells
                    + (row.badge.map { " <span class=\"badge\">\(Self.escape($0))</span>" } ?? "")
                    + (row.disclosure ? " <span class=\"more\" aria-hidden=\"true\">›</span>" : "")
                guard let action else { return "<li>\(content)</li>" }
                return "<li>" + form(action: action, value: row.id) + "<button class=\"row\">\(content)</button></form></li>"
            }.joined() + "</ul>"
        case .divider:
            return "<hr>"
        case .spacer:
            return "<div class=\"spacer\"></div>"
        case let .badge(text, color):
            return "<span class=\"badge c-\(color.rawValue)\">\(Self.escape(text))</span>"
        case let .image(alt, url):
            // A picture the host may fetch comes from our own /image; any other is its alt text, with no request.
            guard let url, let manifest, ImageProxy.grants(url, to: manifest) else { return Self.imagePlaceholder(alt) }
            return "<img src=\"\(Self.escape(ImageProxy.address(url, plugin: manifest.id.value)))\" alt=\"\(Self.escape(alt))\">"
        case let .progress(label, fraction):
            let value = fraction.map { " value=\"\(min(max($0, 0), 1))\"" } ?? ""
            return "<label class=\"progress\">\(Self.escape(label ?? ""))<progress max=\"1\"\(value)></progress></label>"
        case let .link(title, target):
            guard let address = Self.address(ofLink: target) else { return "<span>\(Self.escape(title))</span>" }
            return "<a href=\"\(Self.escape(address))\">\(Self.escape(title))</a>"
        case let .chart(chart):
            let summary = Sparkline.summary(chart), label = Self.escape((chart.title.map { $0 + ": " } ?? "") + summary)
            let title = chart.title.map { "<figcaption>\(Self.escape($0))</figcaption>" } ?? ""
            return "<figure class=\"chart\">\(title)" + Sparkline.svg(chart, label: label)
                + "<p class=\"s-caption c-secondary\">\(Self.escape(summary))</p></figure>"
        case let .overlay(alignment, children):
            return "<div class=\"overlay o-\(alignment.rawValue)\">" + children.map(html).joined() + "</div>"
        case let .modified(node, modifiers) where modifiers.keepsLayout:
            return html(node)
        case let .modified(node, modifiers):
            var classes = ["m"]
            if let alignment = modifiers.alignment { classes.append("a-\(alignment.rawValue)") }
            if modifiers.padding > 0 { classes.append("pad-\(min(modifiers.padding, 8))") }
            if let spacing = modifiers.spacing { classes.append("sp-\(spacing)") }
            return "<div class=\"\(classes.joined(separator: " "))\">" + html(node) + "</div>"
        case .unknown:
            return ""
        }
    }

    static func imagePlaceholder(_ alt: String) -> String {
        "<span class=\"image\" role=\"img\" aria-label=\"\(escape(alt))\">\(escape(alt))</span>"
    }

    private func form(action: String, value: String?) -> String {
        "<form method=\"post\" action=\"\(Self.escape(actionURL))\">"
            + "<input type=\"hidden\" name=\"\(WebGate.parameter)\" value=\"\(Self.escape(secret))\">"
            + "<input type=\"hidden\" name=\"action\" value=\"\(Self.escape(action))\">"
            + (value.map { "<input type=\"hidden\" name=\"value\" value=\"\(Self.escape($0))\">" } ?? "")
    }

    /// `widget://crypto/exchange?id=kraken` is at `/w/crypto/exchange?id=kraken`.
    static func address(ofLink link: String) -> String? {
        guard let target = try? NavigationTarget(link: link) else { return nil }
        return address(of: target)
    }

    static func address(of target: NavigationTarget) -> String {
        var text = "/w/" + WebURL.escape(target.plugin)
        if let screen = target.screen { text += "/" + WebURL.escape(screen) }
        if !target.params.isEmpty { text += "?" + target.params.map { "\(WebURL.escape($0.0))=\(WebURL.escape($0.1))" }.joined(separator: "&") }
        return text
    }

    /// The target an address under /w/ names; nil for any other path.
    static func target(path: String, query: String?) -> NavigationTarget? {
        guard path.hasPrefix("/w/") else { return nil }
        return try? NavigationTarget(link: "widget://" + path.dropFirst(3) + (query.map { "?" + $0 } ?? ""))
    }
}
