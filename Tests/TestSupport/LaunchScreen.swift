@testable import WidgetHostKit

/// One screen of a widget from `launch --format json`, taken apart: the
/// parts every widget has, so that a kit's screen adds only its widget's.
protocol LaunchScreen: CustomStringConvertible {
    var run: TestSupport.HostRun { get }
    var json: JSONValue { get }
    init(run: TestSupport.HostRun, json: JSONValue)
}

extension LaunchScreen {
    init(_ run: TestSupport.HostRun) throws { self.init(run: run, json: try run.json()) }

    var description: String { run.description }
    var screen: String? { json["screen"]?.string }
    var nodes: [JSONValue] { json["view"].map(ViewTree.nodes) ?? [] }
    var texts: [String] { nodes.filter { $0["kind"]?.string == "text" }.compactMap { $0["text"]?.string } }
    var badges: [String] { nodes.filter { $0["kind"]?.string == "badge" }.compactMap { $0["text"]?.string } }
}

enum ViewTree {
    /// Every node of a view, depth first, in reading order.
    static func nodes(_ node: JSONValue) -> [JSONValue] {
        [node] + (node["children"]?.array ?? []).flatMap(nodes)
    }
}
