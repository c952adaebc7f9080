import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// `widget-host config`: settings changed without editing JSON, checked
/// against what each widget declares, the file rewritten atomically and
/// left as it was whenever a change is refused.
@Suite("config command")
struct ConfigCommandTests {
    /// A configuration directory of its own, and `widget-host config …` run against it.
    struct Home {
        let directory: String
        var path: String { directory + "/widget-host/config.json" }

        init() throws { directory = try TestSupport.makeTemporaryDirectory("config-command") }

        func config(_ words: [String], pluginDir: String? = nil) throws -> TestSupport.HostRun {
            try TestSupport.runHost(["config"] + words + (pluginDir.map { ["--plugin-dir", $0] } ?? []),
                                    environment: ["XDG_CONFIG_HOME": directory])
        }

        func write(_ text: String) throws {
            try FileManager.default.createDirectory(atPath: directory + "/widget-host", withIntermediateDirectories: true)
            try TestSupport.write(Array(text.utf8), to: path)
        }

        var text: String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        var json: JSONValue { get throws { try JSONParser.parse(text) } }
    }

    @Test("set writes each value as its setting's type, get reads it back, list shows it, and the rest of the file is kept in order")
    func roundTrip() throws {
        let home = try Home()
        try home.write(#"{"host": {"isolation": "never"}, "plugins": {"org.example.gone": {"x": [1, 2]}, "checkout": {"currencyCode": "CAD"}}}"#)
        for words in [["checkout", "locale", "fr_CA"], ["crypto", "refreshSeconds", "60"], ["Crypto", "timeoutSeconds", "0.5"],
                      ["org.widgethost.checkout", "minimumAmount", "50.00"], ["checkout", "logo", "false"]] {
            let run = try home.config(["set"] + words)
            #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        }
        #expect(try home.json == [
            "host": ["isolation": "never"],
            "plugins": ["org.example.gone": ["x": [1, 2]],
                        "checkout": ["currencyCode": "CAD", "locale": "fr_CA", "minimumAmount": "50.00", "logo": false],
                        "crypto": ["refreshSeconds": 60, "timeoutSeconds": .number("0.5")]],
        ])
        // One stable layout: setting a value to what it is changes no byte.
        let before = home.text
        #expect(try home.config(["set", "crypto", "refreshSeconds", "60"]).status == 0)
        #expect(home.text == before)
        #expect(before.contains("\n    \"checkout\": {\n      \"currencyCode\": \"CAD\",\n"), "\(before)")

        #expect(try home.config(["get", "crypto", "refreshSeconds"]).stdout == "60\n")
        #expect(try home.config(["get", "checkout", "locale"]).stdout == "\"fr_CA\"\n")
        #expect(try home.config(["get", "crypto", "priceFormat"]).stdout == "\"auto\"\n", "an unset key reads as its default")
        let missing = try home.config(["get", "checkout", "amount"])
        #expect(missing.status == 1 && missing.stderr.contains("amount is not set and has no default"), "\(missing)")

        let list = try home.config(["list", "crypto", "--json"])
        let crypto = try #require(try JSONParser.parse(list.stdout)["org.widgethost.crypto"], "\(list)")
        #expect(crypto["refreshSeconds"]?["value"] == 60 && crypto["refreshSeconds"]?["default"] == 30)
        #expect(crypto["priceFormat"]?["value"] == .null && crypto["priceFormat"]?["type"] == "string")
        let text = try home.config(["list", "checkout"]).stdout
        #expect(text.contains("locale") && text.contains("\"fr_CA\"") && text.contains("(en_AU, en_CA, fr_CA, en_GB, en_NZ, en_US)"), "\(text)")

        // What set wrote is what the widget reads.
        let launch = try TestSupport.runHost(["launch", "checkout", "--format", "json", "--set", "checkout.maximumAmount=2000", "--set",
                                              "checkout.amount=1234.50"], environment: ["XDG_CONFIG_HOME": home.directory])
        #expect(try CheckoutLaunchTests.screen(launch).allText.contains("Total de la commande\u{00A0}: 1\u{00A0}234,50\u{00A0}$"), "\(launch)")
    }

    @Test("unset removes the key from every section that addresses the widget, and a section left empty")
    func unset() throws {
        let home = try Home()
        try home.write(#"{"plugins": {"crypto": {"refreshSeconds": 10}, "org.widgethost.crypto": {"refreshSeconds": 20, "priceFormat": "kraken"}}}"#)
        #expect(try home.config(["get", "crypto", "refreshSeconds"]).stdout == "20\n", "the full id's section wins")
        #expect(try home.config(["set", "crypto", "refreshSeconds", "40"]).status == 0)
        #expect(try home.json["plugins"]?["org.widgethost.crypto"]?["refreshSeconds"] == 40, "set edits the section that wins")
        #expect(try home.config(["unset", "crypto", "refreshSeconds"]).status == 0)
        #expect(try home.json == ["plugins": ["org.widgethost.crypto": ["priceFormat": "kraken"]]])
        #expect(try home.config(["get", "crypto", "refreshSeconds"]).stdout == "30\n")
        let again = try home.config(["unset", "crypto", "refreshSeconds"])
        #expect(again.status == 0 && again.stderr.contains("refreshSeconds was not set"), "\(again)")
    }

    @Test("refusals: unknown widget, undeclared key, wrong type, out of range, malformed file; the file is left byte for byte", arguments: [
        (["set", "nosuch", "a", "1"], 1, "no plugin named 'nosuch'"),
        (["set", "cripto", "refreshSeconds", "1"], 1, "Did you mean: crypto"),
        (["set", "crypto", "refreshSecs", "5"], 2, "Crypto (org.widgethost.crypto) has no setting 'refreshSecs' (did you mean 'refreshSeconds'?)"),
        (["set", "crypto", "refreshSeconds", "fast"], 2, "the setting refreshSeconds of Crypto (org.widgethost.crypto) must be an integer from 1 to 86400"),
        (["set", "crypto", "refreshSeconds", "0"], 2, "must be an integer from 1 to 86400, not 0"),
        (["set", "checkout", "locale", "de_DE"], 2, "the setting locale of Checkout (org.widgethost.checkout) must be one of"),
        (["set", "checkout", "minimumAmount", "12,50"], 2, "must be a decimal of at least 0.01, written like 50.00, not \"12,50\""),
        (["set", "checkout", "logo", "yes"], 2, "must be true or false, not \"yes\""),
        (["set", "trips", "group", "x"], 2, "My Trips (org.widgethost.trips) has no setting 'group'; it declares none"),
        (["set", "crypto", "refreshSeconds"], 2, "config set takes set WIDGET KEY VALUE"),
        (["frobnicate"], 2, "unknown config action 'frobnicate'"),
    ])
    func refusal(_ words: [String], _ status: Int32, _ message: String) throws {
        let home = try Home()
        let original = "{\"plugins\": {\"crypto\": {\"refreshSeconds\": 45}},\n \"host\": {}}\n"
        try home.write(original)
        let run = try home.config(words)
        #expect(run.status == status, "\(run)")
        #expect(run.stderr.contains(message), "\(run)")
        #expect(home.text == original)
    }

    @Test("a malformed file is refused with its line and column, and left as it was")
    func malformedFile() throws {
        let home = try Home()
        let broken = "{\"plugins\": {\"crypto\": {\"refreshSeconds\": 45,}}}"
        try home.write(broken)
        let run = try home.config(["set", "crypto", "refreshSeconds", "60"])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("line 1") && run.stderr.contains("left as it is"), "\(run)")
        #expect(home.text == broken)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.directory + "/widget-host") == ["config.json"], "no temporary file left")
    }

    @Test("no file yet: set creates it (0600); a linked file stays linked, and keeps its permissions")
    func fileKinds() throws {
        let home = try Home()
        // No file and no directory: an unset has nothing to remove, and makes nothing.
        let unset = try home.config(["unset", "crypto", "refreshSeconds"])
        #expect(unset.status == 0 && unset.stderr.contains("refreshSeconds was not set"), "\(unset)")
        #expect(!FileManager.default.fileExists(atPath: home.directory + "/widget-host"))
        #expect(try home.config(["set", "crypto", "refreshSeconds", "60"]).status == 0)
        #expect(try home.json == ["plugins": ["crypto": ["refreshSeconds": 60]]])
        let attributes = try FileManager.default.attributesOfItem(atPath: home.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        let dotfiles = try TestSupport.makeTemporaryDirectory("dotfiles")
        try TestSupport.write(Array("{}".utf8), to: dotfiles + "/config.json")
        chmod(dotfiles + "/config.json", 0o640)
        try FileManager.default.removeItem(atPath: home.path)
        try FileManager.default.createSymbolicLink(atPath: home.path, withDestinationPath: dotfiles + "/config.json")
        #expect(try home.config(["set", "checkout", "locale", "en_GB"]).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: home.path) == dotfiles + "/config.json")
        #expect(try JSONParser.parse(String(contentsOfFile: dotfiles + "/config.json", encoding: .utf8)) == ["plugins": ["checkout": ["locale": "en_GB"]]])
        #expect((try FileManager.default.attributesOfItem(atPath: dotfiles + "/config.json")[.posixPermissions] as? Int) == 0o640)
    }

    @Test("several config set at once on one file: the lock around each read-modify-write keeps every value")
    func concurrentSets() throws {
        let home = try Home()
        try home.write(#"{"plugins": {}}"#)
        let sets = [["crypto", "refreshSeconds", "60"], ["crypto", "timeoutSeconds", "7"], ["crypto", "maxResponseBytes", "1000"],
                    ["crypto", "priceFormat", "kraken"], ["crypto", "source", "sample"], ["checkout", "locale", "fr_CA"],
                    ["checkout", "currencyCode", "CAD"], ["checkout", "amount", "12.50"]]
        let environment = SpawnedProcess.hostEnvironment(home: try TestSupport.makeTemporaryDirectory("config-home"),
                                                         ["XDG_CONFIG_HOME": home.directory])
        // Started before any is waited for, so their reads and writes overlap.
        var writers = try sets.map { try SpawnedProcess.start([TestSupport.widgetHost, "config", "set"] + $0, environment: environment) }
        for index in writers.indices { #expect(writers[index].wait() == .exited(0), "\(sets[index])") }
        // Compared key by key: the order the writers took their turns in is not fixed.
        let plugins = try home.json["plugins"]
        for words in sets {
            let value = words[2].first?.isNumber == true && !words[2].contains(".") ? JSONValue.number(words[2]) : .string(words[2])
            #expect(plugins?[words[0]]?[words[1]] == value, "\(words) lost:\n\(home.text)")
        }
    }

    @Test("a short name two plugins answer to is refused (#23); the full id is written under its own section")
    func ambiguousShortName() throws {
        let directory = try TestSupport.makeTemporaryDirectory("config-impostor")
        try TestSupport.compileC(source: TestSupport.fixtureDirectory + "/escapes.c", flags: ["-DREAD_CONFIG"], output: directory + "/impostor.so")
        let home = try Home()
        let ambiguous = try home.config(["set", "checkout", "locale", "fr_CA"], pluginDir: directory)
        #expect(ambiguous.status == 1, "\(ambiguous)")
        #expect(ambiguous.stderr.contains("'checkout' is ambiguous: it could be org.example.checkout or org.widgethost.checkout"), "\(ambiguous)")
        #expect(!FileManager.default.fileExists(atPath: home.path))
        #expect(try home.config(["set", "org.widgethost.checkout", "locale", "fr_CA"], pluginDir: directory).status == 0)
        #expect(try home.json == ["plugins": ["org.widgethost.checkout": ["locale": "fr_CA"]]])
        let undeclared = try home.config(["set", "org.example.checkout", "secret", "42"], pluginDir: directory)
        #expect(undeclared.status == 0 && undeclared.stderr.contains("declares no settings, so secret = 42 was not checked"), "\(undeclared)")
        #expect(try home.json["plugins"]?["org.example.checkout"] == ["secret": 42])
    }

    @Test("scanning commands warn about a configured value the widget's settings refuse, naming the widget and the setting")
    func scanWarns() throws {
        let run = try TestSupport.runHost(["list", "--set", "crypto.refreshSeconds=fast", "--set", "checkout.locale=de_DE"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("warning: the setting refreshSeconds of Crypto (org.widgethost.crypto) must be an integer from 1 to 86400, not \"fast\""),
                "\(run)")
        #expect(run.stderr.contains("warning: the setting locale of Checkout (org.widgethost.checkout) must be one of"), "\(run)")
    }

    @Test("completion offers the config command's actions, the widgets, and the keys the named widget declares")
    func completion() throws {
        let keys = try TestSupport.runHost(["__setting-keys", "crypto"])
        #expect(keys.stdout.split(separator: "\n").prefix(3) == ["source", "priceURL", "priceFormat"], "\(keys)")
        #expect(try TestSupport.runHost(["__setting-keys", "nosuch"]).stdout.isEmpty)
        let scripts = CompletionScripts(commands: WidgetHostCLI.commands, homeOptions: LaunchCommand.homeOptions)
        let bash = try #require(scripts.script(for: "bash"))
        #expect(bash.contains("config) _widget_host_command_config ;;"))
        #expect(bash.contains("        0) _widget_host_words \"list get set unset\" ;;"))
        #expect(bash.contains("        2) _widget_host_settings ;;"))
        #expect(try #require(scripts.script(for: "zsh")).contains("_widget_host_settings"))
        #expect(try #require(scripts.script(for: "fish")).contains("__widget_host_settings"))
    }
}
