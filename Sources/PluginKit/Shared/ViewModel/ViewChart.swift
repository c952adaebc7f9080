extension ViewNode {
    /// A small plot for what people would rather look at than read: a series
    /// of values with labels, drawn as a line or as bars (a sparkline). The
    /// terminal draws block characters, the browser an inline SVG, JSON
    /// carries the points as they are.
    public struct Chart: Equatable, Sendable {
        public enum Style: String, Sendable, CaseIterable { case line, bar }

        public struct Point: Equatable, Sendable {
            public let label: String
            public let value: Double

            public init(label: String, value: Double) {
                self.label = label
                self.value = value
            }
        }

        /// More points than a card could show are dropped, oldest first.
        public static let maxPoints = 500

        public let title: String?
        public let style: Style
        public let points: [Point]

        /// Values that are not finite (JSON has no NaN) are left out.
        public init(title: String? = nil, style: Style = .line, points: [Point]) {
            self.title = title
            self.style = style
            self.points = Array(points.filter { $0.value.isFinite }.suffix(Self.maxPoints))
        }

        /// Each value's height from 0 (the lowest) to 1 (the highest); all
        /// one half when they are equal.
        public var heights: [Double] {
            let values = points.map(\.value)
            guard let low = values.min(), let high = values.max(), high > low else { return values.map { _ in 0.5 } }
            return values.map { ($0 - low) / (high - low) }
        }
    }
}
