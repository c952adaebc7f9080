import Foundation

/// Real pictures over loopback, for the shipped widgets' image nodes in
/// the browser tests: a hotel photo and a logo, each a PNG of one colour
/// (so a pixel read back from the page can be compared with it), and a
/// broken "picture" that is not one.
struct PictureServer {
    /// 96x64, all rgb(200, 40, 120).
    static let hotelPNG = Array(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAGAAAABACAIAAABqVuVZAAAAaUlEQVR42u3QMQ0AAAgDsMlBIhKRhQNujiZV0Ew1hygQJEiQIEGC"
        + "BAlCkCBBggQJEiQIQYIECRIkSJAgBAkSJEiQIEGCBCFIkCBBggQJEoQgQYIECRIkSBCCBAkSJEiQIEGCECRIkKB/Fj0pwfDBJbfB"
        + "AAAAAElFTkSuQmCC")!)
    static let hotelColour = (red: 200, green: 40, blue: 120)
    /// 72x16, all rgb(20, 200, 180).
    static let logoPNG = Array(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAEgAAAAQCAIAAAA6Uq6KAAAALElEQVR42u3PAQkAAAgDsIewfwpDGMsaIoMVWGr6pYiJiYmJiYmJ"
        + "iYmJid22SMIIaqFvu7YAAAAASUVORK5CYII=")!)

    let server: LoopbackHTTPServer

    init() throws {
        server = try LoopbackHTTPServer { request in
            switch request.path {
            case "/hotel.png": .response(status: 200, body: Self.hotelPNG, headers: [("Content-Type", "image/png")])
            case "/logo.png": .response(status: 200, body: Self.logoPNG, headers: [("Content-Type", "image/png")])
            case "/broken.png": .ok("<svg onload=alert(1)></svg>", contentType: "image/png")
            default: .response(status: 404, body: "no such picture")
            }
        }
    }

    var hotel: String { server.url("/hotel.png") }
    var logo: String { server.url("/logo.png") }
    var broken: String { server.url("/broken.png") }
    func requests(_ path: String) -> Int { server.requests.filter { $0.path == path }.count }
}
