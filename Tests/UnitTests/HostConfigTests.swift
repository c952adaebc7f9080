import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

@Suite("Host configuration")
struct HostConfigTests {
    private static let checkout = try! PluginID("org.widgethost.checkout")
    private static let crypto = try! PluginID("org.widgethost.crypto")

    /// Writes `text` to a new config file and returns its path.
    private func file(_ text: String) throws -> String {
        let path = try ServiceTestKit.temporaryDirectory("config") + "/config.json"
        try TestSupport.write(Array(text.utf8), to: path)
        return path
    }

    // MARK: Loading

    @Test("a valid file loads, and each plugin sees only its own section")
    func load() throws {
        let path = try file("""
        {
          "host": {"theme": "dark"},
          "plugins": {
            "checkout": {"currencyCode": "USD", "amount": "1.00", "short": true},
            "org.widgethost.checkout": {"amount": "250.00", "full": 1},
            "org.widgethost.crypto": {"refreshSeconds": 30}
          }
        }
        """)
        let config = try HostConfig.load(path: path, required: true)
        // Short-name and full-id sections merge, and the full id's keys win.
        #expect(config.section(for: Self.checkout) == ["currencyCode": "USD", "amount": "250.00", "short": true, "full": 1])
        #expect(config.section(for: Self.crypto) == ["refreshSeconds": 30])
        #expect(config.section(for: try PluginID("org.example.other")) == .object([]))
        #expect(config.hostSetting("theme") == "dark")
        #expect(config.hostSetting("missing") == nil)
    }

    @Test("a section is not shared with a plugin that merely ends with the same words")
    func sectionIsolation() throws {
        let config = HostConfig(root: try ServiceTestKit.json(#"{"plugins": {"checkout": {"a": 1}, "org.other.checkout2": {"b": 2}}}"#))
        #expect(config.section(for: try PluginID("org.other.checkout2")) == ["b": 2])
        #expect(config.section(for: try PluginID("org.other.checkout")) == ["a": 1])   // same short name: by design
        #expect(config.section(for: try PluginID("org.widgethost.check")) == .object([]))
    }

    @Test("a malformed file is an error with the path, line and column")
    func malformed() throws {
        let path = try file("{\n  \"plugins\": {\n    \"a\": 1,,\n  }\n}\n")
        let error = #expect(throws: ConfigError.self) { try HostConfig.load(path: path, required: false) }
        #expect(error?.path == path)
        #expect(error?.message.contains("line 3, column 12") == true, "message: \(error?.message ?? "")")
        #expect(error?.description.hasPrefix("configuration \(path):") == true)
    }

    @Test("errors on later lines and after multi-byte characters count characters, not bytes")
    func malformedColumn() throws {
        let path = try file("{\"plugins\": {\"caf\u{E9}\": {\"k\": tru}}}")
        let error = #expect(throws: ConfigError.self) { try HostConfig.load(path: path, required: true) }
        #expect(error?.message.hasPrefix("line 1, column ") == true, "message: \(error?.message ?? "")")
        // `tru` starts at character 28 (byte 29: the é is one character, two bytes).
        #expect(error?.message.contains("column 28") == true, "message: \(error?.message ?? "")")
    }

    @Test("a missing default file is an empty configuration")
    func missingDefault() throws {
        let directory = try ServiceTestKit.temporaryDirectory("config")
        let config = try HostConfig.load(path: directory + "/absent/config.json", required: false)
        #expect(config == .empty)
        #expect(config.section(for: Self.checkout) == .object([]))
    }

    @Test("a missing --config file is an error")
    func missingRequired() throws {
        let path = try ServiceTestKit.temporaryDirectory("config") + "/absent.json"
        let error = #expect(throws: ConfigError.self) { try HostConfig.load(path: path, required: true) }
        #expect(error?.path == path)
        #expect(error?.message.isEmpty == false)
    }

    @Test("a default path that exists but cannot be read as a file is still an error")
    func unreadableDefault() throws {
        let directory = try ServiceTestKit.temporaryDirectory("config")
        #expect(throws: ConfigError.self) { try HostConfig.load(path: directory, required: false) }
    }

    @Test("structural errors name what is wrong",
          arguments: [
              ("[1, 2]", "the configuration must be a JSON object"),
              ("\"text\"", "the configuration must be a JSON object"),
              ("{\"plugins\": []}", "\"plugins\" must be an object with a section per plugin"),
              ("{\"plugins\": \"checkout\"}", "\"plugins\" must be an object"),
              ("{\"plugins\": {\"checkout\": {\"a\": 1}, \"crypto\": 5}}", "the section for \"crypto\" must be a JSON object"),
              ("{\"plugins\": {\"checkout\": [\"a\"]}}", "the section for \"checkout\" must be a JSON object"),
              ("{\"plugins\": {\"checkout\": null}}", "the section for \"checkout\" must be a JSON object"),
              ("{\"host\": 5}", "\"host\" must be an object of the host's settings"),
              ("{\"host\": {\"isolation\": \"sometimes\"}}", "host.isolation must be \"never\" or \"always\", not \"sometimes\""),
              ("{\"host\": {\"deadlines\": {\"load\": 0}}}", "host.deadlines.load must be a number from"),
              ("{\"host\": {\"limits\": {\"disk\": 1}}}", "host.limits has no limit \"disk\""),
              ("", "line 1, column 1"),
              ("{\"plugins\": {}} trailing", "line 1, column 17"),
          ])
    func structuralErrors(text: String, message: String) throws {
        let path = try file(text)
        let error = #expect(throws: ConfigError.self) { try HostConfig.load(path: path, required: false) }
        #expect(error?.message.contains(message) == true, "message: \(error?.message ?? "")")
    }

    @Test("a bad host section is the same error at every command that reads the configuration, from --config or the default file",
          arguments: [["list"], ["list", "--json"], ["timeline", "trips"], ["launch", "crypto", "--once"], ["dashboard", "--once"],
                      ["serve", "--port", "0"], ["config", "list"], ["--list"]])
    func badHostAtEveryCommand(words: [String]) throws {
        let directory = try ServiceTestKit.temporaryDirectory("config")
        let path = directory + "/widget-host/config.json"
        try TestSupport.makeDirectory(directory + "/widget-host")
        try TestSupport.write(Array(#"{"host": {"isolation": "sometimes", "deadlines": {"load": 0}}}"#.utf8), to: path)
        // config adds that it left the file as it is; nothing else is said before or after.
        let error = "widget-host: configuration \(path): host.isolation must be \"never\" or \"always\", not \"sometimes\""
        let ending = words.first == "config" ? "; the file was left as it is\n" : "\n"
        let named = try InProcessCLI.run(words + ["--config", path])
        #expect(named.status == ExitStatus.failure)
        #expect(named.err == error + ending)
        let byDefault = try InProcessCLI.run(words, extraEnvironment: ["XDG_CONFIG_HOME": directory])
        #expect(byDefault.status == ExitStatus.failure)
        #expect(byDefault.err == error + ending)
    }

    @Test("a file without a plugins object is valid and gives empty sections")
    func noPlugins() throws {
        let config = try HostConfig.load(path: try file(#"{"host": {"x": 1}}"#), required: true)
        #expect(config.section(for: Self.checkout) == .object([]))
        #expect(config.hostSetting("x") == 1)
    }

    // MARK: --set

    @Test("--set PLUGIN.KEY=VALUE: VALUE is JSON if it parses, else a string",
          arguments: [
              ("checkout.amount=250.00", "amount", JSONValue.number("250.00")),
              ("checkout.label=hello world", "label", .string("hello world")),
              ("checkout.quoted=\"250\"", "quoted", .string("250")),
              ("checkout.flag=true", "flag", .bool(true)),
              ("checkout.nothing=null", "nothing", .null),
              ("checkout.list=[1,\"a\"]", "list", .array([.number("1"), .string("a")])),
              ("checkout.obj={\"a\":{\"b\":1}}", "obj", ["a": ["b": 1]] as JSONValue),
              ("checkout.empty=", "empty", .string("")),
              ("checkout.eq=a=b", "eq", .string("a=b")),
              ("checkout.url=http://x.y/z?a=1", "url", .string("http://x.y/z?a=1")),
              ("checkout.broken={\"a\":", "broken", .string("{\"a\":")),
              ("org.widgethost.checkout.amount=5", "amount", .number("5")),
          ])
    func set(assignment: String, key: String, value: JSONValue) throws {
        var config = HostConfig.empty
        try config.set(assignment)
        #expect(config.section(for: Self.checkout) == .object([(key, value)]))
        #expect(config.section(for: Self.crypto) == .object([]))
    }

    @Test("org.widgethost.checkout.amount splits at the last dot before '='")
    func setSplitsAtLastDot() throws {
        var config = HostConfig.empty
        try config.set("org.widgethost.checkout.amount=1")
        try config.set("org.widgethost.amount=2")   // plugin "org.widgethost", not checkout
        #expect(config.section(for: Self.checkout) == ["amount": 1])
        #expect(config.section(for: try PluginID("org.widgethost")) == ["amount": 2])
        // "org.widgethost" is neither the full id nor the short name ("widgethost") of this one.
        #expect(config.section(for: try PluginID("org.example.widgethost")) == .object([]))
    }

    @Test("overrides win over the file, apply by short name or full id, and the last one wins")
    func overridePrecedence() throws {
        var config = HostConfig(root: try ServiceTestKit.json(#"{"plugins": {"org.widgethost.checkout": {"a": 1, "b": 2}}}"#))
        try config.set("checkout.a=10")
        try config.set("org.widgethost.checkout.c=3")
        try config.set("checkout.c=30")
        #expect(config.section(for: Self.checkout) == ["a": 10, "b": 2, "c": 30])
        #expect(config.section(for: Self.crypto) == .object([]))
        #expect(config != HostConfig(root: config.root))
    }

    @Test("malformed assignments are refused",
          arguments: ["", "checkout", "checkout.amount", "amount=1", "=1", ".amount=1", "checkout.=1",
                      "checkout=1.5", ".=x", "checkout.a.=1"])
    func setMalformed(assignment: String) throws {
        var config = HostConfig.empty
        let error = #expect(throws: UsageError.self) { try config.set(assignment) }
        #expect(error?.description.contains("PLUGIN.KEY=VALUE") == true)
        #expect(config == .empty)
    }

    // MARK: Writing

    @Test("a writer waits a bounded time for the lock another holds, then fails clearly and leaves the file; released, it writes")
    func heldLock() throws {
        let path = try file(#"{"plugins": {"crypto": {"refreshSeconds": 45}}}"#)
        let before = try TestSupport.readBytes(path)
        // A descriptor of its own conflicts with update's, as another process's would.
        let holder = open(FileSystem.directory(of: path), O_RDONLY | O_DIRECTORY)
        #expect(holder >= 0 && flock(holder, LOCK_EX) == 0)
        let start = Clock.now
        let error = #expect(throws: ConfigError.self) {
            try ConfigFile.update(path, wait: 0.3) { file in
                file.set("refreshSeconds", to: 60, section: "crypto")
                return true
            }
        }
        #expect(Clock.now - start >= 0.3)
        #expect(error?.description.contains("another process is changing it") == true, "\(String(describing: error))")
        #expect(error?.description.contains("within 0.3 seconds; the file was left as it is") == true, "\(String(describing: error))")
        #expect(try TestSupport.readBytes(path) == before)

        close(holder)
        #expect(try ConfigFile.update(path, wait: 0.3) { file in
            file.set("refreshSeconds", to: 60, section: "crypto")
            return true
        })
        #expect(try ConfigFile.open(path).root["plugins"]?["crypto"]?["refreshSeconds"] == 60)
    }
}
