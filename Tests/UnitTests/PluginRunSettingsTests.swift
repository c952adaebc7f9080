import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The configuration of isolation, and the manifest's http hosts.
@Suite("Isolation: settings and http hosts")
struct PluginRunSettingsTests {
    private func config(_ host: String) throws -> HostConfig {
        HostConfig(root: try JSONParser.parse("{\"host\": \(host)}"))
    }

    @Test("without a host section plugins run in process, with the documented defaults")
    func defaults() throws {
        let settings = try PluginRunSettings(config: .empty)
        #expect(settings.mode == .never)
        #expect(settings.deadline(.render) == 5)
        #expect(settings.deadline(.create) == 10)
        #expect(settings.memoryMiB == 1024)
        #expect(settings.cpuSeconds == 120)
    }

    @Test("isolation, deadlines and limits are read from the host section")
    func read() throws {
        let settings = try PluginRunSettings(config: config(
            #"{"isolation": "always", "deadlines": {"render": 2.5, "event": 1}, "limits": {"memoryMiB": 256, "cpuSeconds": 9, "eventsPerSecond": 50}}"#))
        #expect(settings.mode == .always)
        #expect(settings.deadline(.render) == 2.5)
        #expect(settings.deadline(.event) == 1)
        #expect(settings.deadline(.action) == 5)
        #expect(settings.memoryMiB == 256)
        #expect(settings.cpuSeconds == 9)
        #expect(settings.maxEventsPerSecond == 50)
    }

    @Test("a bad value is an error that names its key", arguments: [
        (#"{"isolation": "sometimes"}"#, "host.isolation must be \"never\" or \"always\""),
        (#"{"isolation": true}"#, "host.isolation must be"),
        (#"{"deadlines": 5}"#, "host.deadlines must be an object"),
        (#"{"deadlines": {"paint": 5}}"#, "host.deadlines has no call \"paint\""),
        (#"{"deadlines": {"render": -1}}"#, "host.deadlines.render must be a number from"),
        (#"{"deadlines": {"render": "5"}}"#, "host.deadlines.render must be a number from"),
        (#"{"limits": {"memoryMiB": 1}}"#, "host.limits.memoryMiB must be a number from 64"),
        (#"{"limits": {"disk": 1}}"#, "host.limits has no limit \"disk\""),
    ])
    func refused(_ host: String, _ message: String) throws {
        let config = try config(host)
        #expect {
            _ = try PluginRunSettings(config: config)
        } throws: { error in
            "\(error)".contains(message) && "\(error)".hasPrefix("configuration: ")
        }
    }

    @Test("host patterns: names, subdomain wildcards and IP addresses, without case")
    func patterns() {
        #expect(HTTPAllowList.allows(["api.coinbase.com"], host: "API.Coinbase.com"))
        #expect(!HTTPAllowList.allows(["api.coinbase.com"], host: "evil-api.coinbase.com.attacker.net"))
        #expect(HTTPAllowList.allows(["*.kraken.com"], host: "api.kraken.com"))
        #expect(!HTTPAllowList.allows(["*.kraken.com"], host: "kraken.com"))
        #expect(!HTTPAllowList.allows(["*.kraken.com"], host: "evilkraken.com"))
        #expect(HTTPAllowList.allows(["127.0.0.1"], host: "127.0.0.1"))
        #expect(HTTPAllowList.allows(["[::1]"], host: "::1"))
        #expect(!HTTPAllowList.allows([], host: "api.coinbase.com"))
        #expect(HTTPAllowList.allows(["*"], host: "anything.example"))
        #expect(HTTPAllowList.problem(with: "*") == nil)
        #expect(HTTPAllowList.problem(with: "*.") != nil)
        #expect(HTTPAllowList.problem(with: "**") != nil)
    }

    @Test("a host pattern is ASCII letters, digits and hyphens in labels of 1 to 63, or a bracketed IPv6 address", arguments: [
        ("api.example.com", true), ("*.example.org", true), ("127.0.0.1", true), ("[::1]", true), ("[FE80::1:a]", true),
        ("a-b.c", true), (String(repeating: "a", count: 63) + ".com", true), ("a." + String(repeating: "a", count: 63), true),
        ("a." + String(repeating: "a", count: 64), false), ("*." + Array(repeating: "abc", count: 63).joined(separator: ".") + ".a", true),
        (Array(repeating: "abc", count: 63).joined(separator: ".") + ".a", true),   // 253 bytes
        ("", false), ("*.", false), ("a..b", false), (".example.com", false), ("example.com.", false),
        (String(repeating: "a", count: 64) + ".com", false), (Array(repeating: "abc", count: 63).joined(separator: ".") + ".ab", false),
        ("[]", false), ("[xyz]", false), ("[::1", false), ("exämple.com", false), ("api example.com", false), ("a_b.com", false),
        ("１２７.0.0.1", false), ("[１::1]", false), ("a\r\n.com", false),
    ])
    func hostPatternGrammar(_ pattern: String, _ accepted: Bool) {
        #expect((HTTPAllowList.problem(with: pattern) == nil) == accepted, "\(pattern)")
    }

    @Test("a manifest may declare http hosts; a bad one is refused with its reason", arguments: [
        (#""http": {"hosts": ["api.example.com", "*.example.org"]}"#, nil as String?),
        (#""http": {"hosts": []}"#, nil),
        (#""http": {"hosts": ["https://api.example.com"]}"#, "manifest http.hosts: \"https://api.example.com\" is not a host name"),
        (#""http": {"hosts": "api.example.com"}"#, "http field \"hosts\" must be an array of strings"),
        (#""http": {}"#, "manifest field \"http\" must be an object with \"hosts\""),
        (#""http": ["api.example.com"]"#, "manifest field \"http\" must be an object with \"hosts\""),
    ])
    func manifestHosts(_ field: String, _ problem: String?) throws {
        let text = #"{"abi": "1.0", "id": "org.example.web", "name": "Web", "version": "1.0.0", "screens": [{"id": "main"}], "#
            + field + "}"
        do {
            let manifest = try Manifest(bytes: Array(text.utf8))
            #expect(problem == nil, "accepted: \(field)")
            #expect(manifest.httpHosts.count == (field.contains("[]") ? 0 : 2))
        } catch {
            #expect(problem.map { error.description.contains($0) } == true, "\(error)")
        }
    }

    @Test("a manifest without http hosts reaches none; one that says \"*\" reaches any")
    func undeclaredHosts() throws {
        let manifest = try Manifest(bytes: Array((#"{"abi": "1.0", "id": "org.example.web", "name": "Web", "#
                + #""version": "1.0.0", "screens": [{"id": "main"}]}"#).utf8))
        #expect(manifest.httpHosts == [])
        #expect(HTTPAllowList.denial(of: "https://anywhere.example/x", for: manifest)
            == "denied GET https://anywhere.example/x: anywhere.example is not among the hosts its manifest declares (none)")
        let open = try Manifest(bytes: Array((#"{"abi": "1.0", "id": "org.example.web", "name": "Web", "#
                + #""version": "1.0.0", "screens": [{"id": "main"}], "http": {"hosts": ["*"]}}"#).utf8))
        #expect(HTTPAllowList.denial(of: "https://anywhere.example/x", for: open) == nil)
    }

    @Test("a GET to an undeclared host is denied and says which hosts are declared")
    func deniedHost() throws {
        let manifest = try Manifest(bytes: Array((#"{"abi": "1.0", "id": "org.example.web", "name": "Web", "#
                + #""version": "1.0.0", "screens": [{"id": "main"}], "http": {"hosts": ["api.example.com"]}}"#).utf8))
        #expect(HTTPAllowList.denial(of: "https://api.example.com/v1", for: manifest) == nil)
        #expect(HTTPAllowList.denial(of: "https://evil.example/steal?k=1", for: manifest)
            == "denied GET https://evil.example/steal?k=1: evil.example is not among the hosts its manifest declares (api.example.com)")
    }

    @Test("the allow-list judges the host libcurl connects to, not what another parser reads in the text",
          arguments: [#"http://localhost\@127.0.0.1:PORT/"#, "http://localhost@127.0.0.1:PORT/", "http://127.0.0.1:PORT#@localhost/",
                      "http://127.0.0.1:PORT?@localhost/", "http://%31%32%37.0.0.1:PORT/"])
    func hostAsCurlReadsIt(template: String) throws {
        let server = try LoopbackHTTPServer(always: .ok("secret"))
        defer { server.stop() }
        let url = template.replacingOccurrences(of: "PORT", with: String(server.port))
        let manifest = try Manifest(bytes: Array((#"{"abi": "1.0", "id": "org.example.web", "name": "Web", "#
                + #""version": "1.0.0", "screens": [{"id": "main"}], "http": {"hosts": ["localhost"]}}"#).utf8))
        // Whatever the client makes of the URL, nothing may reach 127.0.0.1.
        _ = try? HTTPClient().get(url, timeout: 5) { HTTPAllowList.denial(of: $0, for: manifest) }
        #expect(server.requests.isEmpty, "\(url) reached a host its manifest does not declare")
        #expect(HTTPAllowList.denial(of: url, for: manifest)?.contains("127.0.0.1 is not among the hosts") == true)
    }

    @Test("the host of a URL is read as libcurl reads it")
    func curlHost() throws {
        #expect(HTTPAllowList.host(of: "https://API.example.com:8443/x?y#z") == "API.example.com")
        #expect(HTTPAllowList.host(of: "http://user:pw@example.com/") == "example.com")
        #expect(HTTPAllowList.host(of: "http://[::1]:80/") == "[::1]")
        #expect(HTTPAllowList.host(of: "not a url") == nil)
        // A host too long to read is denied, not let through unjudged.
        let manifest = try Manifest(bytes: Array((#"{"abi": "1.0", "id": "org.example.web", "name": "Web", "version": "1.0.0", "#
                + #""screens": [{"id": "main"}], "http": {"hosts": ["localhost"]}}"#).utf8))
        let long = "http://" + String(repeating: "a", count: 2000) + ".example/"
        #expect(HTTPAllowList.denial(of: long, for: manifest) == "denied GET \(long): its host cannot be read")
    }
}
