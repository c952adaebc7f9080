import Foundation
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// `widget-host serve` as a person's browser meets it, over loopback: the
/// dashboard page with the four shipped widgets' content, a hostile
/// plugin's markup escaped, an action POST, and a store write pushed to an
/// open `/events` stream.
@Suite(.serialized)
struct WebPageTests {
    /// A running `serve` for a DashboardWorld (plus a hostile C widget whose
    /// text carries markup), with its port and secret.
    final class Served {
        let world: DashboardWorld
        /// The hotel photo and Checkout's logo, served over loopback (granted by both manifests).
        let pictures: PictureServer
        var process: SpawnedProcess
        let port: Int
        let secret: String
        static let hostileText = "<script>alert(1)</script><img src=x onerror=alert(2)>&"

        init() throws {
            world = try DashboardWorld()
            pictures = try PictureServer()
            let directory = try IsolationTestKit.hostileDirectory("web-page", defines: ["-DVERSION=\"\(Self.hostileText)\""])
            let addressFile = world.home + "/address"
            process = try SpawnedProcess.start(
                [TestSupport.widgetHost, "serve", "--port", "0", "--address-file", addressFile, "--plugin-dir", directory] + world.arguments
                + ["--set", "checkout.logoURL=\(pictures.logo)"],
                environment: SpawnedProcess.hostEnvironment(home: world.home, world.environment))
            var address: String?
            for _ in 0..<1200 where address == nil {   // up to 60 s on a loaded machine
                address = try? String(contentsOfFile: addressFile, encoding: .utf8)
                if address == nil { usleep(50_000) }
            }
            guard let address else {
                // deinit does not run for an init that throws: end the server here.
                process.kill(SIGKILL)
                _ = process.wait()
                throw TestSupport.Failure("serve wrote no address in 60 s")
            }
            let text = address.trimmingCharacters(in: .whitespacesAndNewlines)
            let url = try #require(URLComponents(string: text))
            port = try #require(url.port)
            secret = try #require(url.queryItems?.first { $0.name == WebGate.parameter }?.value)
            #expect(url.host == "127.0.0.1")
        }

        deinit {
            process.kill(SIGKILL)
            _ = process.wait()
        }

        func get(_ path: String) throws -> RawResponse {
            try RawHTTPClient.exchange(port: port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(WebGate.cookie)=\(secret)\r\n\r\n")
        }

        func post(_ path: String, _ form: String) throws -> RawResponse {
            try RawHTTPClient.exchange(port: port, "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(WebGate.cookie)=\(secret)\r\n"
                                       + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n\r\n\(form)")
        }

        /// The page once every shipped card shows its live content.
        func settledPage(_ expected: [String], seconds: Double = 20) throws -> String {
            let deadline = Date() + seconds
            var body = ""
            repeat {
                body = try get("/").body
                if expected.allSatisfy(body.contains) { return body }
                usleep(200_000)
            } while Date() < deadline
            return body
        }
    }

    static let live = ["Checkout", "Crypto", "My Trips", "Ticker", "$62.50", "BTC $43,210.55", "Next: outbound flight IB3436"]

    @Test("the page: four shipped cards with live content, one stylesheet and script of ours under a CSP of 'self'")
    func dashboardPage() throws {
        let served = try Served()
        let response = try served.get("/")
        #expect(response.status == 200)
        let policy = try #require(response.header("content-security-policy"))
        #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"))
        let body = try served.settledPage(Self.live)
        for text in Self.live { #expect(body.contains(text), "\(text) missing from \(body)") }
        #expect(body.components(separatedBy: "BTC $43,210.55").count - 1 >= 2, "Crypto's card and Ticker's, in one money format")
        #expect(body.components(separatedBy: "<article class=\"card").count - 1 == 6, "four shipped cards, the hostile one and hello")
        #expect(body.contains("<script src=\"/app.js\" defer></script>"))
        #expect(body.components(separatedBy: "<script").count - 1 == 1, "no script but ours")
        #expect(body.utf8.count < 50_000, "page weight \(body.utf8.count) bytes")
        #expect(try served.get("/app.js").status == 200 && served.get("/app.css").status == 200)
    }

    @Test("a plugin's markup is text: <script> from a C widget appears escaped, never as an element")
    func hostileTextEscaped() throws {
        let served = try Served()
        let body = try served.settledPage(["Hostile: calm"])
        #expect(body.contains("Hostile: calm, version &lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&amp;"), "\(body)")
        #expect(!body.contains("<script>alert") && !body.contains("<img"))
    }

    @Test("a card links to its widget's screen; a deep link's address opens that screen; an action POST acts and redirects to the screen")
    func screensAndActions() throws {
        let served = try Served()
        let page = try served.settledPage(Self.live)
        #expect(page.contains("href=\"/w/org.widgethost.crypto/price\""))
        let exchanges = try served.get("/w/crypto/exchanges")
        #expect(exchanges.status == 200 && exchanges.body.contains("Kraken"), "\(exchanges.text.prefix(2000))")
        // widget://crypto/exchange?id=kraken lives at /w/crypto/exchange?id=kraken.
        let kraken = try served.get("/w/crypto/exchange?id=kraken")
        #expect(kraken.status == 200 && kraken.body.contains("<h2>Exchange</h2>") && kraken.body.contains("Kraken"), "\(kraken.text.prefix(2000))")
        let before = served.world.market.requests(CryptoMarket.pricePath)
        let posted = try served.post("/w/org.widgethost.crypto/price", "\(WebGate.parameter)=\(served.secret)&action=retrieve")
        #expect(posted.status == 303 && posted.header("location") == "/w/org.widgethost.crypto/price", "\(posted.text)")
        let deadline = Date() + 10
        while served.world.market.requests(CryptoMarket.pricePath) == before && Date() < deadline { usleep(100_000) }
        #expect(served.world.market.requests(CryptoMarket.pricePath) > before, "Retrieve asked the market again")
        #expect(try served.post("/w/org.widgethost.crypto/price", "action=retrieve").status == 403, "no secret in the form")
        #expect(try served.get("/w/no-such-widget").status == 404)
    }

    @Test("a store write changes the Trips card on an open page: /events pushes its new HTML, no polling")
    func storeWritePushesCard() throws {
        let served = try Served()
        _ = try served.settledPage(Self.live)
        let client = try RawHTTPClient(port: served.port)
        defer { client.close() }
        client.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(served.port)\r\nCookie: \(WebGate.cookie)=\(served.secret)\r\n\r\n")
        var seen = ""
        let head = try #require(client.receiveEvent(seconds: 5, after: &seen))
        #expect(head.contains("text/event-stream"))
        let rome = TripsBookings.booking("B-2001", purchased: "2026-05-02T18:30:00+02:00",
                                         outbound: TripsBookings.flight("AZ61", from: "MAD", departs: "2026-06-09T14:00:00+02:00",
                                                                        to: "FCO", arrives: "2026-06-09T16:30:00+02:00"))
        try served.world.trips.put(TripsBookings.document([rome]))
        var event: String?
        let deadline = Date() + 15
        while event == nil, Date() < deadline, let next = client.receiveEvent(seconds: 15, after: &seen) {
            if next.contains("event: card") && next.contains("AZ61") { event = next }
        }
        let pushed = try #require(event, "no card event with the new booking AZ61")
        #expect(pushed.contains("card-") && pushed.contains("<article"))
    }

    @Test("a store write changes an open Trips screen in place: /events?screen= pushes the screen's new HTML to the page showing it")
    func storeWritePushesScreen() throws {
        let served = try Served()
        _ = try served.settledPage(Self.live)
        let screen = try served.get("/w/trips/trip")
        #expect(screen.body.contains("<main id=\"screen\" data-screen=\"/w/trips/trip\">") && screen.body.contains("IB3436"), "\(screen.text.prefix(2000))")
        let client = try RawHTTPClient(port: served.port)
        defer { client.close() }
        client.send("GET /events?screen=%2Fw%2Ftrips%2Ftrip HTTP/1.1\r\nHost: 127.0.0.1:\(served.port)\r\nCookie: \(WebGate.cookie)=\(served.secret)\r\n\r\n")
        var seen = ""
        _ = try #require(client.receiveEvent(seconds: 5, after: &seen))
        // Streams naming no screen, or nonsense, are skipped at each update; the server stays up.
        let odd = try ["", "%3F", "%2Fw%2F", "%2Fw%2Fno-such%2Fscreen%3Fa%3Db", "not-a-path"].map { screen in
            let stream = try RawHTTPClient(port: served.port)
            stream.send("GET /events?screen=\(screen) HTTP/1.1\r\nHost: 127.0.0.1:\(served.port)\r\nCookie: \(WebGate.cookie)=\(served.secret)\r\n\r\n")
            var head = ""
            _ = stream.receiveEvent(seconds: 5, after: &head)
            return stream
        }
        defer { odd.forEach { $0.close() } }
        let rome = TripsBookings.booking("B-2001", purchased: "2026-05-02T18:30:00+02:00",
                                         outbound: TripsBookings.flight("AZ61", from: "MAD", departs: "2026-06-09T14:00:00+02:00",
                                                                        to: "FCO", arrives: "2026-06-09T16:30:00+02:00"))
        try served.world.trips.put(TripsBookings.document([rome]))
        var event: String?
        let deadline = Date() + 15
        while event == nil, Date() < deadline, let next = client.receiveEvent(seconds: 15, after: &seen) {
            if next.contains("event: screen") { event = next }
        }
        let pushed = try #require(event, "no screen event after the store write")
        #expect(pushed.contains("AZ61") && pushed.contains(#""id":"screen""#) && pushed.contains("data-screen="), "\(pushed)")
        #expect(try served.get("/").status == 200, "the server is still up")
    }

    /// The stylesheet of a `serve` started with `arguments` and the configuration `config`, which names no cards, so no widget runs.
    static func servedStylesheet(_ arguments: [String], config: String) throws -> String {
        let home = try TestSupport.makeTemporaryDirectory("serve-columns")
        try TestSupport.write(Array(config.utf8), to: home + "/config.json")
        let addressFile = home + "/address"
        var process = try SpawnedProcess.start(
            [TestSupport.widgetHost, "serve", "--port", "0", "--address-file", addressFile, "--config", home + "/config.json"] + arguments,
            environment: SpawnedProcess.hostEnvironment(home: home))
        defer {
            process.kill(SIGKILL)
            _ = process.wait()
        }
        var address: String?
        for _ in 0..<1200 where address == nil {   // up to 60 s on a loaded machine
            address = try? String(contentsOfFile: addressFile, encoding: .utf8)
            if address == nil { usleep(50_000) }
        }
        let text = try #require(address, "serve wrote no address in 60 s")
        let url = try #require(URLComponents(string: text.trimmingCharacters(in: .whitespacesAndNewlines)))
        let port = try #require(url.port), secret = try #require(url.queryItems?.first { $0.name == WebGate.parameter }?.value)
        let response = try RawHTTPClient.exchange(port: port, "GET /app.css HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(WebGate.cookie)=\(secret)\r\n\r\n")
        #expect(response.status == 200)
        return response.body
    }

    @Test("--columns, else the configuration's dashboard.columns, sets the served grid's most columns")
    func columnsReachThePage() throws {
        let grid = { (columns: Int) in "minmax(max(14rem, (100% - \(columns - 1)rem) / \(columns)), 1fr)" }
        let configured = #"{"dashboard": {"cards": [], "columns": 3}}"#
        #expect(try Self.servedStylesheet([], config: configured).contains(grid(3)))
        let overridden = try Self.servedStylesheet(["--columns", "1"], config: configured)
        #expect(overridden.contains(grid(1)) && !overridden.contains(grid(3)))
        #expect(!(try Self.servedStylesheet([], config: #"{"dashboard": {"cards": []}}"#)).contains("minmax(max("))
    }
}
