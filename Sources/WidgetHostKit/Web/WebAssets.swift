/// The page's one stylesheet and one script, served from our own origin
/// (the Content-Security-Policy allows nothing else, and no inline script).
enum WebAssets {
    static let policy = "default-src 'none'; style-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self'; "
        + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    static let css = """
        :root { color-scheme: light dark; --bg: #f6f6f4; --card: #fff; --fg: #1b1b1b; --muted: #666; --pos: #1a7f37; --neg: #c62828; --warn: #9a6700;
          --line: #ddd; --focus: #0b5fff; font: 16px/1.4 system-ui, sans-serif; }
        @media (prefers-color-scheme: dark) { :root { --bg: #121212; --card: #1e1e1e; --fg: #eee; --muted: #aaa; --pos: #4cc26a; --neg: #ff6b6b;
          --warn: #e3b341; --line: #333; --focus: #7aa7ff; } }
        body { margin: 0; background: var(--bg); color: var(--fg); }
        header, nav, main { max-width: 70rem; margin: 0 auto; padding: 1rem; } nav { padding-block: 0; }
        header h1 { font-size: 1.3rem; margin: 0; }
        .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: 1rem; }
        .card { background: var(--card); border: 1px solid var(--line); border-radius: .6rem; padding: .8rem; overflow: hidden; }
        .size-medium, .size-large { grid-column: span 2; } .size-large { grid-row: span 2; }
        @media (max-width: 32rem) { .size-medium, .size-large { grid-column: auto; } }
        .card h2 { font-size: 1rem; margin: 0 0 .5rem; } .stale, .notice { color: var(--warn); font-size: .85rem; }
        .v > * + * { margin-top: .4rem; } .h { display: flex; gap: .6rem; flex-wrap: wrap; align-items: baseline; }
        p { margin: 0; } .s-title { font-size: 1.4rem; font-weight: 600; } .s-headline { font-weight: 600; } .s-caption { font-size: .85rem; }
        .s-monospaced { font-family: ui-monospace, monospace; } .s-emphasis { font-style: italic; }
        .c-secondary { color: var(--muted); } .c-positive { color: var(--pos); } .c-negative { color: var(--neg); } .c-warning { color: var(--warn); }
        .badge { border: 1px solid currentColor; border-radius: 1rem; padding: 0 .4rem; font-size: .8rem; }
        ul { list-style: none; padding: 0; margin: 0; } li + li { border-top: 1px solid var(--line); }
        button { font: inherit; padding: .3rem .7rem; } button.row { all: unset; display: block; width: 100%; padding: .3rem 0; cursor: pointer; }
        a:focus-visible, button:focus-visible, input:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
        figure.chart { margin: 0; } svg.chart { display: block; width: 100%; height: 3rem; color: var(--pos); }
        img { max-width: 100%; height: auto; border-radius: .3rem; display: block; }
        .detail { color: var(--muted); } .image { font-style: italic; color: var(--muted); } .spacer { flex: 1; }
        button.p-primary { font-weight: 600; background: var(--focus); color: #fff; border: 0; border-radius: .3rem; }
        button.p-destructive { color: var(--neg); border: 1px solid var(--neg); } .more { float: right; color: var(--muted); }
        .row .cell + .cell { margin-left: .6rem; } .row .cell { font-variant-numeric: tabular-nums; }
        .overlay { display: grid; } .overlay > * { grid-area: 1 / 1; } .o-topTrailing, .o-trailing, .o-bottomTrailing { justify-items: end; }
        .o-top, .o-center, .o-bottom { justify-items: center; } .o-topLeading > *, .o-top > *, .o-topTrailing > * { align-self: start; }
        .o-bottomLeading > *, .o-bottom > *, .o-bottomTrailing > * { align-self: end; } .overlay > :first-child { justify-self: stretch; }
        .a-center { text-align: center; } .a-trailing { text-align: right; } .pad-1, .pad-2 { padding-left: .5rem; }
        .pad-3, .pad-4, .pad-5, .pad-6, .pad-7, .pad-8 { padding-left: 1.5rem; } .sp-0 > * + * { margin-top: 0; } .sp-1 > .v > * + *, .sp-1 > .h { gap: 1rem; }
        .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
        """

    /// The stylesheet for a grid of at most `columns` columns; nil lets as many fit as the window allows.
    static func css(columns: Int?) -> String {
        guard let columns else { return css }
        // A column is at least a card's 14rem and at least an Nth of the row less the 1rem gaps, so no more than N fit, and fewer
        // when the window is narrow, as on a terminal.
        var rule = "\n.grid { grid-template-columns: repeat(auto-fill, minmax(max(14rem, (100% - \(columns - 1)rem) / \(columns)), 1fr)); }"
        // A card two columns wide in a one-column grid would add the second column back.
        if columns == 1 { rule += "\n.size-medium, .size-large { grid-column: auto; }" }
        return css + rule
    }

    /// Swaps in a card's (or the open screen's) new HTML when the server says its widget changed:
    /// no polling, no reload; the live region tells screen readers. A picture
    /// the host refused to fetch becomes its alt text.
    static let javascript = """
        "use strict";
        (function () {
          function placeholder(image) {
            var span = document.createElement("span");
            span.className = "image";
            span.setAttribute("role", "img");
            span.setAttribute("aria-label", image.alt);
            span.textContent = image.alt;
            image.replaceWith(span);
          }
          document.addEventListener("error", function (event) {
            if (event.target instanceof HTMLImageElement) placeholder(event.target);
          }, true);
          Array.prototype.forEach.call(document.images, function (image) {
            if (image.complete && image.naturalWidth === 0) placeholder(image);
          });
          if (!window.EventSource) return;
          var live = document.getElementById("live");
          var screen = document.getElementById("screen");
          var source = new EventSource("/events" + (screen ? "?screen=" + encodeURIComponent(screen.dataset.screen) : ""));
          function swap(event) {
            var data = JSON.parse(event.data);
            var old = document.getElementById(data.id);
            if (!old) return;
            var template = document.createElement("template");
            template.innerHTML = data.html;
            var fresh = template.content.firstElementChild;
            if (!fresh) return;
            old.replaceWith(fresh);
            if (live) live.textContent = data.title + " updated";
          }
          source.addEventListener("ready", function () { document.body.setAttribute("data-live", "ready"); });
          source.addEventListener("card", swap);
          source.addEventListener("screen", swap);
        })();
        """
}
