import Foundation
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The dashboard in a real browser: headless Chromium from Debian's
/// packages, driven by Selenium (Tests/Browser/dashboard.py). Locally the
/// test is skipped, saying why, when Chromium, its driver or Selenium is
/// missing; `.ci/run` installs them and sets WIDGET_HOST_REQUIRE_BROWSER, so
/// there a missing browser fails instead of skipping.
@Suite(.serialized)
struct BrowserTests {
    /// Chromium, its driver, and python3 with Selenium, or what is missing.
    enum Browser {
        static let chromium = TestSupport.executable(["chromium", "chromium-browser"])
        static let driver = TestSupport.executable(["chromedriver"]) ?? (access("/usr/lib/chromium/chromedriver", X_OK) == 0
            ? "/usr/lib/chromium/chromedriver" : nil)
        /// Debian's python3 first: python3-selenium is installed for it, whatever python3 PATH finds first.
        static let python: String? = (["/usr/bin/python3"] + [TestSupport.executable(["python3"])].compactMap(\.self)).first { python in
            let run = try? SpawnedProcess.run([python, "-c", "import selenium"], environment: ProcessInfo.processInfo.environment, input: [])
            return run?.status == 0
        }
        static var selenium: Bool { python != nil }
        static var missing: [String] {
            [chromium == nil ? "chromium" : nil, driver == nil ? "chromium-driver" : nil, selenium ? nil : "python3-selenium"].compactMap(\.self)
        }
        static let required = ProcessInfo.processInfo.environment["WIDGET_HOST_REQUIRE_BROWSER"] == "1"
        static var skipReason: Comment {
            "headless Chromium not installed here (apt-get install -y \(missing.joined(separator: " "))); CI installs it and runs this test"
        }
    }

    static let artifacts = TestSupport.packageRoot + "/.build/artifacts"

    @Test("headless Chromium: cards, a live card and screen, Retrieve, Tab focus, Back and Forward, the hotel photo's pixels; a screenshot",
          .enabled(if: Browser.missing.isEmpty || Browser.required, Browser.skipReason))
    func dashboardInChromium() throws {
        #expect(Browser.missing.isEmpty, "WIDGET_HOST_REQUIRE_BROWSER is set but \(Browser.missing) are missing")
        let chromium = try #require(Browser.chromium), driver = try #require(Browser.driver), python = try #require(Browser.python)
        let served = try WebPageTests.Served()
        _ = try served.settledPage(WebPageTests.live)
        let handshake = try TestSupport.makeTemporaryDirectory("browser-handshake")
        try FileManager.default.createDirectory(atPath: Self.artifacts, withIntermediateDirectories: true)
        let screenshot = Self.artifacts + "/browser-dashboard.png"
        unlink(screenshot)
        let address = "http://127.0.0.1:\(served.port)/?\(WebGate.parameter)=\(served.secret)"
        let marketBefore = served.world.market.requests(CryptoMarket.pricePath)
        let colour = PictureServer.hotelColour, photo = "\(colour.red),\(colour.green),\(colour.blue)"

        // The script runs on its own thread; this one answers its request for a store write.
        let finished = DispatchSemaphore(value: 0)
        let outcome = ServiceTestKit.Locked<Result<SpawnedProcess.Result, any Error>?>(nil)
        let script = TestSupport.packageRoot + "/Tests/Browser/dashboard.py"
        let environment = SpawnedProcess.hostEnvironment(home: served.world.home, ["CHROMIUM": chromium])
        Thread {
            outcome.withLock { $0 = Result { try SpawnedProcess.run([python, script, address, handshake, screenshot, driver, photo],
                                                                     environment: environment, input: [], timeout: 600) } }
            finished.signal()
        }.start()
        // The store writes the script asks for, in order: a trip to Rome (the card changes), Paris with a loopback photo (the screen
        // does), the same with a broken photo (its alt text).
        let rome = TripsBookings.booking("B-2001", purchased: "2026-05-02T18:30:00+02:00",
                                         outbound: TripsBookings.flight("AZ61", from: "MAD", departs: "2026-06-09T14:00:00+02:00",
                                                                        to: "FCO", arrives: "2026-06-09T16:30:00+02:00"))
        let writes = [TripsBookings.document([rome]), TripsBookings.document([WebPicturesTests.paris(photo: served.pictures.hotel)]),
                      TripsBookings.document([WebPicturesTests.paris(photo: served.pictures.broken)])]
        var wrote = 0
        while finished.wait(timeout: .now() + 0.2) == .timedOut {
            guard wrote < writes.count, access(handshake + "/ready-\(wrote + 1)", F_OK) == 0 else { continue }
            try served.world.trips.put(writes[wrote])
            wrote += 1
            try TestSupport.write([], to: handshake + "/written-\(wrote)")
        }
        let run = try #require(outcome.withLock { $0 }).get()
        #expect(run.status == 0, "the browser run failed:\n\(run)")
        for step in ["cards render", "keyboard focus moves", "updated the Trips card live", "Retrieve posted", "Back button", "shows the logo picture",
                     "updated the open Trips screen live", "the hotel photo's pixels", "broken photo shows its alt text",
                     "Back and Forward follow", "all from http://127.0.0.1"] {
            #expect(run.stdout.contains(step), "step '\(step)' not passed:\n\(run)")
        }
        #expect(wrote == writes.count, "the script asked for \(wrote) of \(writes.count) store writes")
        #expect(served.pictures.requests("/hotel.png") == 1, "the host fetched the photo once, for the page")
        #expect(served.world.market.requests(CryptoMarket.pricePath) > marketBefore, "Retrieve in the browser asked the market")
        let png = try TestSupport.readBytes(screenshot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 5_000, "a PNG screenshot of the page (\(png.count) bytes)")
    }
}
