import Foundation
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The shipped widgets' pictures in `serve`: Trips' hotel photo (on a
/// booking's screen) and Checkout's logo (on its screen; cards have none) come from our own origin as the bytes the granted
/// loopback host served; a broken picture is refused (the page then shows
/// its alt text) and one from a host the manifest does not grant is its
/// alt text from the start, with no request.
@Suite(.serialized)
struct WebPicturesTests {
    /// The Paris trip of the sample, its hotel photo at `photo`.
    static func paris(photo: String) -> JSONValue {
        let hotel = TripsBookings.hotel("Hôtel du Louvre", address: "Place André Malraux, 75001 Paris, France",
                                        checkIn: "2026-06-10T15:00:00+02:00", checkOut: "2026-06-14T11:00:00+02:00", image: photo)
        return TripsBookings.booking("B-1042", purchased: "2026-05-02T18:30:00+02:00", outbound: TripsBookings.parisOutbound, hotel: hotel,
                                     inbound: TripsBookings.parisInbound)
    }

    /// The Paris booking's screen (where the hotel and its photo are) once it shows `text`.
    static func bookingScreen(_ served: WebPageTests.Served, showing text: String) throws -> String {
        let deadline = Date() + 20
        var body = ""
        repeat {
            body = try served.get("/w/trips/booking?id=B-1042").body
            if body.contains(text) { return body }
            usleep(200_000)
        } while Date() < deadline
        return body
    }

    @Test("the hotel photo on Trips' booking screen and the Afterpay logo on Checkout's screen are the served PNGs, from our origin")
    func hotelPhotoAndLogo() throws {
        let served = try WebPageTests.Served()
        _ = try served.settledPage(WebPageTests.live)
        let logo = ImageProxy.address(served.pictures.logo, plugin: "org.widgethost.checkout")
        let checkout = try served.get("/w/checkout").body
        #expect(checkout.contains("<img src=\"\(HTMLWriter.escape(logo))\" alt=\"Pay in 4\">"), "\(checkout)")

        try served.world.trips.put(TripsBookings.document([Self.paris(photo: served.pictures.hotel)]))
        let photo = ImageProxy.address(served.pictures.hotel, plugin: "org.widgethost.trips")
        let screen = try Self.bookingScreen(served, showing: HTMLWriter.escape(photo))
        #expect(screen.contains("<img src=\"\(HTMLWriter.escape(photo))\" alt=\"Photo of Hôtel du Louvre\">"), "\(screen)")

        for (address, png) in [(photo, PictureServer.hotelPNG), (logo, PictureServer.logoPNG)] {
            let answer = try served.get(address)
            #expect(answer.status == 200 && answer.header("content-type") == "image/png" && answer.header("content-length") == "\(png.count)",
                    "\(answer.text.prefix(400))")
            #expect(answer.body == String(decoding: png, as: UTF8.self), "the bytes the loopback host served")
        }
        #expect(served.pictures.requests("/hotel.png") == 1 && served.pictures.requests("/logo.png") == 1, "fetched once each, then cached")
    }

    @Test("a broken hotel photo is refused (the page shows its alt text); one from an undeclared host is its alt text, never asked for")
    func brokenAndUndeclaredPhotos() throws {
        let served = try WebPageTests.Served()
        _ = try served.settledPage(WebPageTests.live)
        try served.world.trips.put(TripsBookings.document([Self.paris(photo: served.pictures.broken)]))
        let broken = ImageProxy.address(served.pictures.broken, plugin: "org.widgethost.trips")
        _ = try Self.bookingScreen(served, showing: HTMLWriter.escape(broken))
        let answer = try served.get(broken)
        #expect(answer.status == 502 && answer.body.contains("not a PNG, JPEG, GIF or WebP"), "\(answer.text.prefix(400))")

        // Granted hosts are images.example.com and loopback; another host is never fetched, by the page or the host.
        let elsewhere = "http://photos.elsewhere.example:\(served.pictures.server.port)/hotel.png"
        try served.world.trips.put(TripsBookings.document([Self.paris(photo: elsewhere)]))
        let screen = try Self.bookingScreen(served, showing: "<span class=\"image\" role=\"img\" aria-label=\"Photo of Hôtel du Louvre\">")
        #expect(screen.contains(">Photo of Hôtel du Louvre</span>") && !screen.contains("elsewhere"), "\(screen)")
        let asked = try served.get(ImageProxy.address(elsewhere, plugin: "org.widgethost.trips"))
        #expect(asked.status == 403 && asked.body.contains("not among the hosts"), "\(asked.text.prefix(400))")
        #expect(served.pictures.requests("/hotel.png") == 0)
    }
}
