import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The dashboard's parts that need no terminal: the manifest's card sizes,
/// the grid's placement at every width, a card's painting, the render
/// parameters a card sends, the configuration.
@Suite("Dashboard model")
struct DashboardModelTests {
    @Test("a manifest lists the card sizes it designs; an unknown or repeated size is refused, none is allowed")
    func manifestSizes() throws {
        let sized = try Manifest(json: ManifestTests.minimal(["sizes": ["small", "medium"]]))
        #expect(sized.sizes == [.small, .medium])
        #expect(try Manifest(json: ManifestTests.minimal()).sizes == [])
        #expect(ManifestTests.refusal(json: ManifestTests.minimal(["sizes": ["huge"]]))?.contains("\"huge\", which is no card size") == true)
        #expect(ManifestTests.refusal(json: ManifestTests.minimal(["sizes": ["small", "small"]]))?.contains("twice") == true)
        #expect(ManifestTests.refusal(json: ManifestTests.minimal(["sizes": "small"]))?.contains("array of strings") == true)
    }

    @Test("a card asks for its size when the widget designs it, the nearest smaller one else, and nothing from a widget with no sizes")
    func renderParameters() {
        #expect(Dashboard.params(for: .medium, offered: [.small, .medium]) == (["widget-host.size": "medium"], false))
        #expect(Dashboard.params(for: .large, offered: [.small, .medium]) == (["widget-host.size": "medium"], false))
        #expect(Dashboard.params(for: .small, offered: [.medium]) == (["widget-host.size": "medium"], false))
        #expect(Dashboard.params(for: .medium, offered: []) == ([:], true))
    }

    @Test("the grid: four columns at 120, fewer when narrower, one under 40; cards fill row by row and never pass the edge")
    func grid() {
        #expect(CardGrid(width: 120).columns == 4)
        #expect(CardGrid(width: 80).columns == 2)
        #expect(CardGrid(width: 50).columns == 1)
        #expect(CardGrid(width: 30).columns == 1)
        #expect(CardGrid(width: 120, columns: 2).columns == 2)
        #expect(CardGrid(width: 50, columns: 3).columns == 1)
        let sizes: [CardSize] = [.medium, .small, .large, .small, .small, .medium]
        for width in [20, 30, 39, 40, 50, 79, 80, 99, 120, 121, 200] {
            let grid = CardGrid(width: width)
            let placements = grid.place(sizes)
            #expect(placements.allSatisfy { $0.x >= 0 && $0.x + $0.width <= width }, "width \(width): \(placements)")
            // No two cards share a cell.
            var cells: Set<[Int]> = []
            for place in placements {
                for row in place.row..<(place.row + place.rows) {
                    for column in place.column..<(place.column + place.columns) { #expect(cells.insert([column, row]).inserted, "width \(width)") }
                }
            }
        }
        let wide = CardGrid(width: 120).place(sizes)
        #expect(wide.map { [$0.column, $0.row] } == [[0, 0], [2, 0], [0, 1], [3, 0], [2, 1], [2, 2]])
        #expect(wide[0].width == 60 && wide[1].width == 30 && wide[2].height == 2 * CardGrid.cellHeight)
        #expect(CardGrid(width: 30).place(sizes).map(\.row) == [0, 1, 2, 4, 5, 6])
    }

    @Test("a card is painted exactly its width and height, cut with a 'more' mark, marked stale with its age, with its notice")
    func painting() {
        let long = ViewNode.stack(axis: .vertical, children: (1...12).map { .text("line \($0)", style: .body, color: .primary) })
        var content = CardContent(title: "Hello", view: long, renderedAt: 0)
        content.stale = true
        content.notice = "crashed, restarting in 2 s"
        let lines = CardPainter(color: false).lines(content, width: 40, height: 7, number: 3, focused: true, now: 300_000)
        #expect(lines.count == 7)
        #expect(lines.allSatisfy { CardPainter.columns($0) == 40 }, "\(lines)")
        #expect(lines[0].contains("▶ 3 Hello · stale 5 min"), "\(lines[0])")
        #expect(lines[1].contains("crashed, restarting in 2 s"))
        #expect(lines[6].contains("more"), "\(lines[6])")
        let short = CardPainter(color: true).lines(CardContent(title: "A", view: .text("hi", style: .body, color: .primary)),
                                                   width: 30, height: 7, number: 1, focused: false, now: 0)
        #expect(short.count == 7 && short.allSatisfy { CardPainter.columns($0) == 30 } && short[6].hasPrefix("└"), "\(short)")
    }

    @Test("the configuration's dashboard: names or objects; a wrong key, size or number is refused with the closest known word")
    func configuration() throws {
        let manifests = [try Manifest(json: ManifestTests.minimal(["id": "org.example.alpha", "name": "Alpha"])),
                         try Manifest(json: ManifestTests.minimal(["id": "org.example.beta", "name": "Beta"]))]
        #expect(try DashboardConfig.spec(.empty, manifests: manifests).cards.map(\.widget) == ["org.example.alpha", "org.example.beta"])
        let config = HostConfig(root: ["dashboard": ["columns": 2, "cards": ["beta", ["widget": "alpha", "size": "small", "isolated": true,
                                                                                       "refreshSeconds": 60]]]])
        let spec = try DashboardConfig.spec(config, manifests: manifests)
        #expect(spec.columns == 2)
        #expect(spec.cards == [.init(widget: "beta"), .init(widget: "alpha", size: .small, isolated: true, refreshSeconds: 60)])
        func refusal(_ dashboard: JSONValue) -> String? {
            do { _ = try DashboardConfig.spec(HostConfig(root: ["dashboard": dashboard]), manifests: manifests) } catch { return error.description }
            return nil
        }
        #expect(refusal(["cards": [["widget": "alpha", "sise": "small"]]])?.contains("unknown key 'sise' (did you mean 'size'?)") == true)
        #expect(refusal(["colums": 2])?.contains("did you mean 'columns'?") == true)
        #expect(refusal(["cards": [["widget": "alpha", "size": "smal"]]])?.contains("did you mean 'small'?") == true)
        #expect(refusal(["cards": [["widget": "alpha", "refreshSeconds": 1]]])?.contains("from 10 to 86400") == true)
        #expect(refusal(["columns": 0])?.contains("from 1 to 12") == true)
    }

    @Test("the one scheduler fires every timer once, earliest first, a later-added earlier one included, and then holds none")
    func scheduler() throws {
        let scheduler = WakeScheduler()
        let fired = Locked<[Int]>([])
        scheduler.after(milliseconds: 300) { fired.withLock { $0.append(3) } }
        scheduler.after(milliseconds: 200) { fired.withLock { $0.append(2) } }
        scheduler.after(milliseconds: 0) { fired.withLock { $0.append(1) } }
        for _ in 0..<3000 where fired.withLock({ $0.count }) < 3 { usleep(20_000) }   // up to 60 s on a loaded machine
        #expect(fired.withLock { $0 } == [1, 2, 3])
        #expect(scheduler.pending == 0)
    }

    @Test("an owner's timer replaces the one it set before: 100 asks hold one timer, which fires once; unkeyed timers all stay")
    func schedulerReplacesAnOwnersTimer() throws {
        let scheduler = WakeScheduler()
        final class Owner {}
        let owner = Owner(), fired = Locked(0)
        for ask in 0..<100 { scheduler.after(milliseconds: 86_400_000 - Int64(ask), replacingFor: owner) {} }
        #expect(scheduler.pending == 1)
        scheduler.after(milliseconds: 0, replacingFor: owner) { fired.withLock { $0 += 1 } }
        // The scheduler takes a timer off its list before it fires it: wait for both.
        for _ in 0..<250 where scheduler.pending > 0 || fired.withLock({ $0 }) == 0 { usleep(20_000) }
        #expect(scheduler.pending == 0)
        #expect(fired.withLock { $0 } == 1)
        for _ in 0..<10 { scheduler.after(milliseconds: 86_400_000) {} }
        #expect(scheduler.pending == 10)
    }
}
