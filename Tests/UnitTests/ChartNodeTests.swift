import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The `chart` node: parsed and written back as data, drawn with block
/// characters in the terminal and as an SVG the host writes whole.
@Suite
struct ChartNodeTests {
    static let description = """
        {"view":1,"root":{"kind":"chart","title":"BTC <b>","style":"bar","points":[
          {"label":"09:00","value":40000},{"label":"10:00","value":42000.5},{"label":"x","value":"high"},{"value":44000}]}}
        """

    @Test("JSON: points with a number are kept, as they are; the rest skipped; the encoder writes every key")
    func parsesAndEncodes() throws {
        let screen = try ViewDescription.parse(Array(Self.description.utf8))
        guard case let .chart(chart) = screen.root else { Issue.record("not a chart: \(screen.root)"); return }
        #expect(chart.title == "BTC <b>" && chart.style == .bar)
        #expect(chart.points == [.init(label: "09:00", value: 40000), .init(label: "10:00", value: 42000.5), .init(label: "", value: 44000)])
        #expect(try ViewDescription.parse(Array(screen.document.serialized.utf8)) == screen, "the encoder's output parses to the same")
        let bare = try ViewDescription.parse(Array(#"{"view":1,"root":{"kind":"chart"}}"#.utf8))
        #expect(bare.root == .chart(ViewNode.Chart(title: nil, style: .line, points: [])))
    }

    @Test("the SDK drops values JSON cannot carry and keeps the latest 500")
    func limits() {
        let chart = ViewNode.Chart(points: (0..<600).map { .init(label: "\($0)", value: Double($0)) } + [.init(label: "nan", value: .nan)])
        #expect(chart.points.count == ViewNode.Chart.maxPoints && chart.points.first?.label == "100" && chart.points.last?.label == "599")
        #expect(ViewNode.Chart(points: [.init(label: "a", value: 5), .init(label: "b", value: 5)]).heights == [0.5, 0.5])
    }

    @Test("terminal: one block per point from ▁ to █, the latest that fit, and low, high and last in words")
    func terminal() throws {
        let chart = ViewNode.Chart(title: "Recent", points: [0, 1, 2, 3, 4, 5, 6, 7].map { .init(label: "t\(Int($0))", value: 1000 + $0 * 10) })
        #expect(Sparkline.row(chart, width: 40) == "▁▂▃▄▅▆▇█")
        #expect(Sparkline.row(chart, width: 3) == "▆▇█")
        #expect(Sparkline.summary(chart) == "low 1,000 · high 1,070 · last 1,070 (t7)")
        #expect(Sparkline.number(43210.5) == "43,210.5" && Sparkline.number(-0.004) == "0" && Sparkline.number(1234567.891) == "1,234,567.89")
        let text = TerminalRenderer(width: 30, color: false).render(.chart(chart), title: "C")
        #expect(text.contains("Recent") && text.contains("▁▂▃▄▅▆▇█") && text.contains("low 1,000"), "\(text)")
    }

    @Test("browser: an SVG polyline or bars, labelled for screen readers; a plugin's words escaped")
    func svg() throws {
        let screen = try ViewDescription.parse(Array(Self.description.utf8))
        let html = HTMLWriter(actionURL: "/", secret: "s").html(screen.root)
        #expect(html.contains("<figcaption>BTC &lt;b&gt;</figcaption>") && !html.contains("<b>"))
        #expect(html.components(separatedBy: "<rect ").count - 1 == 3, "\(html)")
        #expect(html.contains("role=\"img\" aria-label=\"BTC &lt;b&gt;: low 40,000 · high 44,000 · last 44,000\""), "\(html)")
        let line = HTMLWriter(actionURL: "/", secret: "s").html(.chart(ViewNode.Chart(points: [.init(label: "a", value: 1), .init(label: "b", value: 3)])))
        #expect(line.contains("points=\"0,28 100,2\""), "\(line)")
    }
}
