/// A chart as the terminal and the page draw it. The terminal has one row
/// of eighth-block characters (the latest points that fit); the page an
/// inline SVG the host writes whole, so a plugin's labels only ever reach
/// it as escaped text.
enum Sparkline {
    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// One block per point, at most `width` of them.
    static func row(_ chart: ViewNode.Chart, width: Int) -> String {
        String(chart.heights.suffix(max(width, 1)).map { blocks[min(Int($0 * Double(blocks.count)), blocks.count - 1)] })
    }

    /// "low 41,000 · high 43,210.55 · last 43,210.55 (14:00)", what a sparkline alone cannot say.
    static func summary(_ chart: ViewNode.Chart) -> String {
        guard let last = chart.points.last else { return "no data" }
        let values = chart.points.map(\.value)
        let tail = "last \(number(last.value))" + (last.label.isEmpty ? "" : " (\(last.label))")
        guard values.count > 1 else { return tail }
        return "low \(number(values.min()!)) · high \(number(values.max()!)) · " + tail
    }

    /// At most two decimals, no trailing zeros, thousands grouped.
    static func number(_ value: Double) -> String {
        let hundredths = Int64((abs(value) * 100).rounded())
        var whole = String(hundredths / 100), grouped = ""
        while whole.count > 3 {
            grouped = "," + whole.suffix(3) + grouped
            whole = String(whole.dropLast(3))
        }
        let cents = hundredths % 100
        let fraction = cents == 0 ? "" : "." + (cents % 10 == 0 ? String(cents / 10) : (cents < 10 ? "0" : "") + String(cents))
        return (value < 0 && hundredths > 0 ? "-" : "") + whole + grouped + fraction
    }

    /// The chart as SVG: a 100×30 box scaled to the card's width; a
    /// polyline or one bar per point, in the text's colour.
    static func svg(_ chart: ViewNode.Chart, label: String) -> String {
        let heights = chart.heights, count = max(heights.count, 1)
        func y(_ height: Double) -> String { format(28 - height * 26) }
        var shapes = ""
        switch chart.style {
        case .line:
            let step = count > 1 ? 100 / Double(count - 1) : 0
            let points = heights.enumerated().map { "\(format(Double($0.offset) * step)),\(y($0.element))" }
            shapes = "<polyline fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.5\" vector-effect=\"non-scaling-stroke\" points=\""
                + (points.count == 1 ? "0,\(y(heights[0])) 100,\(y(heights[0]))" : points.joined(separator: " ")) + "\"/>"
        case .bar:
            let slot = 100 / Double(count)
            shapes = heights.enumerated().map { index, height in
                "<rect x=\"\(format(Double(index) * slot + slot * 0.1))\" y=\"\(y(height))\" width=\"\(format(slot * 0.8))\" "
                    + "height=\"\(format(30 - (28 - height * 26)))\" fill=\"currentColor\"/>"
            }.joined()
        }
        return "<svg class=\"chart\" viewBox=\"0 0 100 30\" preserveAspectRatio=\"none\" role=\"img\" aria-label=\"\(label)\">\(shapes)</svg>"
    }

    private static func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
