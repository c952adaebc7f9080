import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// `widget-host launch` and the home screen without a terminal: one render,
/// scripted actions, navigation, errors, and the JSON renderer's shape.
@Suite("Launch, scripted")
struct LaunchTests {
    /// Every text node of a JSON view, depth first.
    static func texts(_ json: JSONValue) -> [String] {
        func walk(_ node: JSONValue) -> [String] {
            (node["kind"] == "text" ? [node["text"]?.string ?? ""] : []) + (node["children"]?.array ?? []).flatMap(walk)
        }
        return json["view"].map(walk) ?? []
    }

    static func stack(_ json: JSONValue) -> [String] {
        json["stack"]?.array?.map { "\($0["plugin"]?.string ?? "?")/\($0["screen"]?.string ?? "?")" } ?? []
    }

    // MARK: Rendering once

    @Test("without a terminal, launch renders once and exits, with or without --once", arguments: [[], ["--once"]])
    func rendersOnce(_ extra: [String]) throws {
        let run = try ViewsFixture.run(["launch", "hello"] + extra)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.components(separatedBy: "┌").count == 2, "one box: \(run)")
        #expect(RenderedBox.contents(run.stdout) == ["Hello, world! Waves: 0"], "\(run)")
        #expect(run.stdout.hasPrefix("┌─ Hello "))
    }

    @Test("--screen opens another screen of the widget")
    func screenOption() throws {
        let run = try ViewsFixture.run(["launch", "hello", "--screen", "about", "--once"])
        #expect(run.status == 0, "\(run)")
        #expect(RenderedBox.contents(run.stdout) == ["A plugin written in C"], "\(run)")
        #expect(run.stdout.hasPrefix("┌─ About "))
        let (json, parsed) = try ViewsFixture.json(["launch", "org.example.views", "--screen", "links"])
        #expect(json.status == 0 && parsed["screen"] == "links" && parsed["title"] == "Links", "\(json)")
    }

    @Test("--screen with a screen the widget does not have fails, naming it")
    func unknownScreen() throws {
        let run = try ViewsFixture.run(["launch", "hello", "--screen", "nowhere", "--once"])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("nowhere"), "\(run)")
    }

    // MARK: --actions

    @Test("--actions runs a comma-separated list in order, then renders the final screen", arguments: [
        ("wave", "Hello, world! Waves: 1"),
        ("wave,wave,wave", "Hello, world! Waves: 3"),
        ("rename=Ada,wave", "Hello, Ada! Waves: 1"),
        ("rename=Ada,rename=Grace,wave,wave", "Hello, Grace! Waves: 2"),
        ("rename=Grace,rename=Ada", "Hello, Ada! Waves: 0"),
        ("wave,rename=a=b", "Hello, a=b! Waves: 1"),
    ])
    func actionsInOrder(_ actions: String, _ expected: String) throws {
        let run = try ViewsFixture.run(["launch", "hello", "--actions", actions])
        #expect(run.status == 0, "\(run)")
        #expect(RenderedBox.contents(run.stdout) == [expected], "\(run)")
    }

    @Test("an unknown action exits 1 with a message, the others still run, and the screen is still rendered")
    func unknownAction() throws {
        let run = try ViewsFixture.run(["launch", "hello", "--actions", "wave,dance,wave"])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("dance"), "\(run)")
        #expect(RenderedBox.contents(run.stdout) == ["Hello, world! Waves: 2"], "\(run)")
        let (json, parsed) = try ViewsFixture.json(["launch", "hello", "--actions", "rename=Ada,dance"])
        #expect(json.status == 1, "\(json)")
        #expect(Self.texts(parsed) == ["Hello, Ada! Waves: 0"], "\(json)")
    }

    @Test("a refused value exits 1 too, and leaves the state as it was")
    func refusedValue() throws {
        let run = try ViewsFixture.run(["launch", "hello", "--actions", "rename=Ada,rename=" + String(repeating: "x", count: 100)])
        #expect(run.status == 1, "\(run)")
        #expect(RenderedBox.contents(run.stdout) == ["Hello, Ada! Waves: 0"], "\(run)")
    }

    @Test("an empty action in --actions is a usage error")
    func emptyAction() throws {
        let run = try ViewsFixture.run(["launch", "hello", "--actions", "wave,,wave"])
        #expect(run.status == 2, "\(run)")
        #expect(run.stdout.isEmpty)
    }

    @Test("--actions is parsed once into intents: back, a link, or an action with its value")
    func actionsParsedToIntents() throws {
        let intents = try LaunchCommand.parseActions("back,widget://trips/booking?id=B-1,update=250.00,wave,rename=,widget://").map { try? $0.get() }
        #expect(intents == [.back, .link(NavigationTarget(plugin: "trips", screen: "booking", params: [("id", "B-1")])),
                            .action("update", value: "250.00"), .action("wave", value: nil), .action("rename", value: ""), nil])
        #expect(throws: UsageError.self) { try LaunchCommand.parseActions("wave,,back") }
    }

    // MARK: Navigation

    @Test("a widget:// link navigates within the widget, and back pops")
    func linkAndBack() throws {
        let (pushed, json) = try ViewsFixture.json(["launch", "hello", "--actions", "wave,widget://hello/about"])
        #expect(pushed.status == 0, "\(pushed)")
        #expect(json["screen"] == "about")
        #expect(Self.stack(json) == ["org.example.hello/main", "org.example.hello/about"])

        let (popped, back) = try ViewsFixture.json(["launch", "hello", "--actions", "wave,widget://hello/about,back"])
        #expect(popped.status == 0, "\(popped)")
        #expect(back["screen"] == "main")
        #expect(Self.stack(back) == ["org.example.hello/main"])
        // The instance kept its state across the trip.
        #expect(Self.texts(back) == ["Hello, world! Waves: 1"])
    }

    @Test("back on the first screen fails with a message, and the screen still renders")
    func backAtTheRoot() throws {
        let run = try ViewsFixture.run(["launch", "hello", "--actions", "back"])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("already at the first screen"), "\(run)")
        #expect(RenderedBox.contents(run.stdout) == ["Hello, world! Waves: 0"], "\(run)")
    }

    @Test("a link to another plugin's screen opens it: navigation across plugins")
    func crossPlugin() throws {
        // The views widget's "links" screen links to Hello's about screen; its action is the link.
        let (links, linksJSON) = try ViewsFixture.json(["launch", "views", "--screen", "links"])
        #expect(links.status == 0, "\(links)")
        let target = try #require(linksJSON["actions"]?.array?.first?["action"]?.string)
        #expect(target == "widget://org.example.hello/about")

        let (run, json) = try ViewsFixture.json(["launch", "views", "--screen", "links", "--actions", target])
        #expect(run.status == 0, "\(run)")
        #expect(json["plugin"] == .string(ViewsFixture.helloID))
        #expect(json["screen"] == "about")
        #expect(json["title"] == "About")
        #expect(Self.texts(json) == ["A plugin written in C"])
        #expect(Self.stack(json) == ["org.example.views/links", "org.example.hello/about"])

        // And back again, then on to the views widget's own form by its short name.
        let (again, round) = try ViewsFixture.json(["launch", "views", "--screen", "links", "--actions", "\(target),back,widget://views/form,wave"])
        #expect(again.status == 0, "\(again)")
        #expect(Self.stack(round) == ["org.example.views/links", "org.example.views/form"])
        #expect(Self.texts(round).contains("Waves: 1"))
    }

    @Test("a link to a plugin or screen that does not exist fails, and the stack stays as it was", arguments: [
        "widget://nobody/main", "widget://hello/nowhere", "widget://", "widget://hello/a/b",
    ])
    func badLink(_ link: String) throws {
        let (run, json) = try ViewsFixture.json(["launch", "hello", "--actions", "\(link),wave"])
        #expect(run.status == 1, "\(run)")
        #expect(!run.stderr.isEmpty)
        #expect(Self.stack(json) == ["org.example.hello/main"])
        #expect(Self.texts(json) == ["Hello, world! Waves: 1"])
    }

    @Test("an unknown widget name exits 1 and suggests the closest names",
            arguments: [("helo", "hello"), ("vews", "views"), ("org.example.helo", "org.example.hello")])
    func didYouMean(_ name: String, _ suggestion: String) throws {
        let run = try ViewsFixture.run(["launch", name, "--once"])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(run.stderr.contains("Did you mean"), "\(run)")
        #expect(run.stderr.contains(suggestion), "\(run)")
        #expect(run.stderr.contains("'\(name)'"), "\(run)")
    }

    @Test("a name far from every widget exits 1 with no suggestion")
    func noSuggestion() throws {
        let run = try ViewsFixture.run(["launch", "zzzzzzzzzzzz", "--once"])
        #expect(run.status == 1, "\(run)")
        #expect(!run.stderr.contains("Did you mean"), "\(run)")
    }

    // MARK: The JSON renderer

    @Test("--format json has plugin, screen, title, stack, view, actions, error and status")
    func jsonShape() throws {
        let (run, json) = try ViewsFixture.json(["launch", "views", "--actions", "name=Ada"])
        #expect(run.status == 0, "\(run)")
        guard case let .object(members) = json else {
            Issue.record("not an object: \(run)")
            return
        }
        #expect(Set(members.map(\.0)) == ["plugin", "screen", "title", "stack", "view", "actions", "error", "status"])
        #expect(json["status"] == .null, "views.c answers no status query")
        #expect(json["plugin"] == .string(ViewsFixture.viewsID))
        #expect(json["screen"] == "main")
        #expect(json["title"] == "All kinds")
        #expect(json["stack"] == [["plugin": .string(ViewsFixture.viewsID), "screen": "main", "params": .object([])]])
        #expect(json["error"] == .null)
        #expect(json["view"]?["kind"] == "vstack")
        let field = json["view"]?["children"]?.array?.first { $0["kind"] == "field" }
        #expect(field?["value"] == "Ada")
    }

    @Test("--format json numbers the actions 1, 2, 3... in on-screen order, with kind, title, action and value")
    func jsonActions() throws {
        let (run, json) = try ViewsFixture.json(["launch", "views"])
        #expect(run.status == 0, "\(run)")
        let expected: [JSONValue] = [
            ["number": 1, "kind": "button", "title": "Wave", "action": "wave", "value": "hand"],
            ["number": 2, "kind": "field", "title": "Name", "action": "name", "value": nil],
            ["number": 3, "kind": "row", "title": "Alpha", "action": "pick", "value": "a"],
            ["number": 4, "kind": "row", "title": "Beta", "action": "pick", "value": "b"],
            ["number": 5, "kind": "link", "title": "About Hello", "action": "widget://org.example.hello/about", "value": nil],
        ]
        #expect(json["actions"].map(ViewDescriptionTests.canonical) == .array(expected.map(ViewDescriptionTests.canonical)))

        let (_, many) = try ViewsFixture.json(["launch", "views", "--screen", "many_actions"])
        let numbers = many["actions"]?.array?.map { $0["number"] } ?? []
        #expect(numbers == (1...11).map { .number(String($0)) }, "JSON numbers every action, past 9")
        #expect(many["actions"]?.array?.map { $0["title"]?.string } == (1...11).map { "Action \($0)" })
    }

    @Test("the JSON output is one line of JSON and never an ANSI escape")
    func jsonIsPlain() throws {
        for screen in ["main", "wide", "escape", "malformed"] {
            let (run, _) = try ViewsFixture.json(["launch", "views", "--screen", screen], environment: ["TERM": "xterm"])
            #expect(run.stdout.filter { $0 == "\n" }.count == 1 && run.stdout.hasSuffix("\n"), "\(run)")
            #expect(!run.stdout.hasEscape, "\(run)")
        }
    }

    // MARK: The home screen

    @Test("widget-host with no arguments and no terminal prints the list of widgets once")
    func homeOnce() throws {
        let run = try ViewsFixture.run([], environment: ["COLUMNS": "100"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.components(separatedBy: "┌").count == 2, "one box: \(run)")
        #expect(run.stdout.hasPrefix("┌─ Widgets "), "\(run)")
        let rows = RenderedBox.contents(run.stdout)
        let hello = try #require(rows.first { $0.contains("Hello") }, "\(run)")
        let views = try #require(rows.first { $0.contains("Views") }, "\(run)")
        #expect(hello.contains("Says hello, in C."))
        #expect(views.contains("Screens that test the view description."))
        // Numbered like any list of actions, in order.
        let numbers = rows.compactMap { row -> Int? in
            guard row.hasPrefix("["), let end = row.firstIndex(of: "]") else { return nil }
            return Int(row[row.index(after: row.startIndex)..<end])
        }
        #expect(numbers == Array(1...numbers.count) && numbers.count >= 2, "\(run)")
        #expect(run.stdout.contains("widget-host launch NAME"))
    }

    @Test("the home screen with no widget found says so")
    func homeEmpty() throws {
        let empty = try TestSupport.makeTemporaryDirectory("no-plugins")
        // Only an empty directory: the products directory is searched too, so point at a copy of the host.
        let host = empty + "/bin"
        try TestSupport.makeDirectory(host)
        // cp, not a write from this process: a child spawned meanwhile by another test would inherit
        // our descriptor open for writing, and exec would fail with ETXTBSY.
        let copied = try ChildProcess.run(["/bin/cp", TestSupport.widgetHost, host + "/widget-host"], timeout: 60)
        try #require(copied.termination == .exited(0))
        let result = try ChildProcess.run([host + "/widget-host"], timeout: 60,
                                          environment: ["HOME": empty, "XDG_DATA_HOME": empty + "/data", "XDG_CONFIG_HOME": empty + "/config",
                                                        "PATH": "/usr/bin:/bin"])
        let stdout = String(decoding: result.standardOutput, as: UTF8.self)
        #expect(result.termination == .exited(0), "\(stdout)")
        #expect(RenderedBox.contents(stdout).first == "No widgets found", "\(stdout)")
    }
}
