import Dispatch
import Foundation
import Synchronization
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// Text layout ends for every string and every width, and never draws past
/// the width (issue 25): a plugin's text, or a manifest field of a plugin
/// merely on the search path, once made `launch --once` and the home screen
/// run forever (a cluster wider than the line was "broken" into an empty
/// head, again and again).
@Suite("Layout always ends")
struct LayoutTerminationTests {
    @Test("the watchdog fails a body that stops making progress, and lets a slow one that keeps ticking finish")
    func watchdog() {
        withKnownIssue("a stalled body is reported") {
            Watchdog.ends(within: 1, "a stalled body") { _ in sleep(6) }
        }
        // Three seconds in all, but a tick every tenth of a second: slow, not stuck.
        Watchdog.ends(within: 2, "a ticking body") { tick in
            for _ in 0..<30 {
                usleep(100_000)
                tick()
            }
        }
    }

    @Test("the clusters that made wrapping loop forever now end and fit", arguments: [
        ("a wide character in one column", "中", 1, ["…"]),
        ("a wide character in no column", "中", 0, [""]),
        ("a base with 30 spacing marks in 20 columns", "क" + String(repeating: "\u{93E}", count: 30), 20, ["…"]),
        ("a long cluster between words", "ab " + "क" + String(repeating: "\u{93E}", count: 30) + " cd", 5, ["ab …", "cd"]),
        ("a wide word at width 1", "東京", 1, ["…", "…"]),
        ("zero-width runs stay on the line", String(repeating: "\u{200B}", count: 50) + "ab", 1, [String(repeating: "\u{200B}", count: 50) + "a", "b"]),
        ("a ZWJ family at width 1", "👨‍👩‍👧‍👦👨‍👩‍👧‍👦", 1, ["…", "…"]),
        ("spaces only at width 0", "   ", 0, [""]),
        ("newlines keep their paragraphs at width 0", "a\nb", 0, ["", ""]),
    ])
    func knownHangs(_ name: String, _ text: String, _ columns: Int, _ expected: [String]) {
        Watchdog.ends(name) { _ in
            let lines = DisplayWidth.wrap(text, columns: columns)
            #expect(lines == expected, "\(name)")
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= columns }, "\(name)")
        }
    }

    @Test("a prefix of a cluster wider than the room is empty, and a negative room holds nothing")
    func prefixes() {
        #expect(DisplayWidth.prefix("中文", fitting: 1) == "")
        #expect(DisplayWidth.prefix("abc", fitting: -3) == "")
        #expect(DisplayWidth.prefix("\u{200B}a", fitting: 0) == "\u{200B}")
    }

    @Test("property: random Unicode at every width from 0 to 200 wraps into lines that fit, and renders into a box that fits")
    func property() {
        Watchdog.ends("wrapping and rendering 1,206 random texts") { tick in
            var random = SeededRandom(seed: 0x2025_0025)
            for columns in 0...200 {
                for _ in 0..<6 {
                    let text = random.unicodeText()
                    let lines = DisplayWidth.wrap(text, columns: columns)
                    let paragraphs = text.split(separator: "\n", omittingEmptySubsequences: false).count
                    #expect(lines.count >= paragraphs, "a paragraph was lost: \(text.debugDescription)")
                    for line in lines where DisplayWidth.of(line) > columns {
                        Issue.record("\(DisplayWidth.of(line)) columns in \(columns): \(line.debugDescription) from \(text.debugDescription)")
                    }
                    Self.expectBoxFits(text, width: columns)
                    tick()
                }
            }
        }
    }

    /// One grapheme cluster `marks + 1` columns wide: a consonant and its spacing vowel signs.
    static func wideCluster(marks: Int) -> String { "क" + String(repeating: "\u{93E}", count: marks) }

    /// Every line of `output` fits in `columns` (by the width a terminal gives it).
    static func expectFits(_ output: String, columns: Int, _ what: String) {
        for line in output.split(separator: "\n") where DisplayWidth.of(String(line)) > columns {
            Issue.record("\(what): \(DisplayWidth.of(String(line))) columns in \(columns): \(line)")
        }
    }

    @Test("a plugin merely on the search path whose manifest holds clusters wider than any line: the home screen and list end and fit")
    func hostileManifestOnTheSearchPath() throws {
        let directory = try TestSupport.makeTemporaryDirectory("wide-manifest")
        let json = directory + "/widget.json"
        let manifest: JSONValue = [
            "abi": "1.0", "id": "org.example.hello", "name": .string(Self.wideCluster(marks: 40)), "version": "1.0.0",
            "vendor": .string(Self.wideCluster(marks: 30)),
            "description": .string(Self.wideCluster(marks: 1000) + " 中" + String(repeating: "\u{200B}", count: 200)),
            "screens": [["id": "main", "title": .string(Self.wideCluster(marks: 40))], ["id": "about", "title": "About"]],
            "services": ["required": ["widget-host.log/1"], "optional": []],
            "topics": ["publish": [], "subscribe": ["hello.*"]],
        ]
        try TestSupport.write(manifest.serializedBytes, to: json)
        try TestSupport.compileHello(defines: ["-DMANIFEST_FILE=\"\(json)\""], output: directory + "/hello.so")
        for columns in [1, 2, 24, 80] {
            let environment = ["COLUMNS": String(columns), "WIDGET_HOST_PLUGIN_PATH": directory]
            let home = try TestSupport.runHost([], environment: environment)
            #expect(home.status == 0, "\(home)")
            Self.expectFits(home.stdout, columns: columns, "home screen")
            if columns >= TerminalRenderer.minimumWidth {
                #expect(home.stdout.contains("…") && RenderedBox.contents(home.stdout).contains { $0.contains("[1]") }, "\(home)")
            }
            let list = try TestSupport.runHost(["list"], environment: environment)
            #expect(list.status == 0 && list.stdout.contains("org.example.hello"), "\(list)")
            let launch = try TestSupport.runHost(["launch", "hello", "--once"], environment: environment)
            #expect(launch.status == 0, "\(launch)")
            Self.expectFits(launch.stdout, columns: columns, "launch")
        }
    }

    @Test("a plugin's view text with a cluster wider than the line: launch --once ends and fits")
    func hostileViewText() throws {
        let directory = try TestSupport.makeTemporaryDirectory("wide-view")
        // hello.c keeps a name of at most 63 bytes: 30 Arabic number signs (Prepend, a column each) and a digit are one cluster of 31.
        let cluster = String(repeating: "\u{600}", count: 30) + "1"
        try TestSupport.compileHello(defines: ["-DGREETED=\"\(cluster)\""], output: directory + "/hello.so")
        for columns in ["24", "30"] {
            let run = try TestSupport.runHost(["launch", "hello", "--once"], environment: ["COLUMNS": columns, "WIDGET_HOST_PLUGIN_PATH": directory])
            #expect(run.status == 0, "\(run)")
            #expect(RenderedBox.contents(run.stdout) == ["Hello, …! Waves: 0"], "\(run)")
            Self.expectFits(run.stdout, columns: Int(columns)!, "launch")
        }
    }

    /// Every line the renderer draws for `text` is exactly as wide as the box
    /// (or, on a terminal too narrow for one, no wider than the terminal).
    static func expectBoxFits(_ text: String, width: Int) {
        let renderer = TerminalRenderer(width: width, color: false)
        let view = ViewNode.stack(axis: .vertical, children: [
            .text(text, style: .body, color: .primary),
            .section(header: text, children: [.button(title: text, action: "go", value: nil)]),
            .list(action: "open", rows: [.init(id: "a", title: text, detail: text, badge: text), .init(id: "b", title: "b", detail: nil, badge: nil)]),
            .stack(axis: .horizontal, children: [.badge(text, color: .warning), .link(title: text, target: "x")]),
            .progress(label: text, fraction: 0.5),
            .field(label: text, action: "name", placeholder: text, value: "", input: .text),
        ])
        let output = renderer.render(view, title: text, footer: text) + renderer.errorPanel(plugin: text, screen: text, reason: text)
        for line in output.split(separator: "\n", omittingEmptySubsequences: true) {
            let columns = DisplayWidth.of(String(line))
            let boxed = line.hasPrefix("┌") || line.hasPrefix("│") || line.hasPrefix("└")
            let fits = renderer.tooNarrow || !boxed ? columns <= max(width, 1) : columns == renderer.width
            if !fits { Issue.record("\(columns) columns at width \(width): \(line.debugDescription) from \(text.debugDescription)") }
        }
    }
}

/// SplitMix64: the same strings on every run, so a failure can be replayed.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A text of up to a few hundred pieces: letters and spaces, scalars
    /// from every plane, combining and spacing marks, viramas, ZWJ emoji
    /// sequences, flags, variation selectors, zero-width runs, newlines,
    /// and now and then one grapheme cluster hundreds of marks long.
    mutating func unicodeText() -> String {
        var text = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...120, using: &self) {
            for value in piece() {
                if let scalar = Unicode.Scalar(value) { text.append(scalar) }
            }
        }
        return String(text)
    }

    private mutating func piece() -> [UInt32] {
        func any(_ values: [UInt32]) -> UInt32 { values.randomElement(using: &self)! }
        func inRange(_ range: ClosedRange<UInt32>) -> UInt32 { UInt32.random(in: range, using: &self) }
        switch Int.random(in: 0..<14, using: &self) {
        case 0: return [inRange(0x61...0x7A)]
        case 1: return [0x20]
        case 2: return [inRange(0...0x10FFFF)]                          // any plane, reserved and private use too
        case 3: return [inRange(0x300...0x36F)]                         // combining marks
        case 4: return [inRange(0x915...0x939), any([0x94D, 0x93E, 0x93F, 0x940])]  // Devanagari, virama, spacing signs
        case 5: return [0x1F468, 0x200D, 0x1F469, 0x200D, 0x1F467]     // a ZWJ family
        case 6: return [0x1F1E6 + inRange(0...25), 0x1F1E6 + inRange(0...25)]  // a flag
        case 7: return [inRange(0x4E00...0x9FFF)]                       // CJK
        case 8: return Array(repeating: any([0x200B, 0x200D, 0xFE0F, 0x301]), count: Int.random(in: 1...40, using: &self))
        case 9: return [0x0A]
        case 10: return [0x915] + (0..<Int.random(in: 1...400, using: &self)).map { _ in any([0x93E, 0x940, 0x94D, 0x200D]) }
        case 11: return [0x1F600 + inRange(0...0x4F), any([0xFE0F, 0xFE0E, 0x1F3FB, 0x200D])]
        case 12: return [inRange(0x0E01...0x0E4E)]                      // Thai
        default: return [inRange(0x1000...0x109F)]                     // Myanmar
        }
    }
}
