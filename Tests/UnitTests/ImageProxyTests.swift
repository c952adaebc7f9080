import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The pictures `serve` fetches on a plugin's behalf, attacked with loopback
/// servers: a host the manifest does not grant (even through a redirect)
/// sees no request; too large, not an image or not 200 is refused; a good
/// picture is fetched once and served from the cache after.
@Suite
struct ImageProxyTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 200)

    /// A manifest granting the http service 127.0.0.1 (and so not `localhost`).
    static func manifest(hosts: [JSONValue] = ["127.0.0.1"]) throws -> Manifest {
        try Manifest(json: ManifestTests.minimal(["http": ["hosts": .array(hosts)]]))
    }

    @Test("a granted picture is fetched once, typed from its bytes, and then served from the cache")
    func grantedPictureCached() throws {
        let server = try LoopbackHTTPServer(always: .response(status: 200, body: Self.png, headers: [("Content-Type", "text/html")]))
        let proxy = ImageProxy()
        let manifest = try Self.manifest()
        #expect(proxy.image(server.url("/photo"), for: manifest) == .image(type: "image/png", bytes: Self.png))
        #expect(proxy.image(server.url("/photo"), for: manifest) == .image(type: "image/png", bytes: Self.png))
        #expect(server.requests.count == 1, "the second came from the cache: \(server.requests)")
    }

    @Test("a host the manifest does not grant sees no request, directly or through a redirect")
    func ungrantedHostSeesNothing() throws {
        let victim = try LoopbackHTTPServer(always: .response(status: 200, body: Self.png))
        let elsewhere = "http://localhost:\(victim.port)/secret.png"
        let redirector = try LoopbackHTTPServer(always: .response(status: 302, body: [], headers: [("Location", elsewhere)]))
        let proxy = ImageProxy()
        let manifest = try Self.manifest()
        guard case let .denied(reason) = proxy.image(elsewhere, for: manifest) else { Issue.record("localhost was not denied"); return }
        #expect(reason.contains("localhost"))
        guard case .denied = proxy.image(redirector.url("/hop"), for: manifest) else { Issue.record("the redirect was followed"); return }
        guard case .denied = proxy.image(victim.url("/x.png"), for: try Self.manifest(hosts: [])) else { Issue.record("no grant, yet fetched"); return }
        guard case .denied = proxy.image("file:///etc/passwd", for: try Self.manifest(hosts: ["*"])) else { Issue.record("a file URL"); return }
        #expect(victim.requests.isEmpty, "the victim saw \(victim.requests)")
        #expect(redirector.requests.count == 1)
    }

    @Test("too large, not a picture (HTML or SVG, whatever its Content-Type), or not 200: refused")
    func refusals() throws {
        let cases: [(String, LoopbackHTTPServer.Reply)] = [
            ("larger than", .response(status: 200, body: Self.png + Array(repeating: 0, count: ImageProxy.maxBytes))),
            ("not a PNG", .response(status: 200, body: Array("<html><script>x</script>".utf8), headers: [("Content-Type", "image/png")])),
            ("not a PNG", .response(status: 200, body: Array("<svg xmlns=\"http://www.w3.org/2000/svg\"><script/></svg>".utf8),
                                    headers: [("Content-Type", "image/svg+xml")])),
            ("HTTP 404", .response(status: 404, body: Self.png)),
        ]
        for (expected, reply) in cases {
            let server = try LoopbackHTTPServer(always: reply)
            let outcome = ImageProxy().image(server.url("/p"), for: try Self.manifest())
            guard case let .failed(reason) = outcome else { Issue.record("\(expected): \(outcome)"); continue }
            #expect(reason.contains(expected), "\(reason)")
        }
    }

    @Test("types from magic bytes: PNG, JPEG, GIF, WebP; nothing else")
    func magic() {
        #expect(ImageProxy.type(of: Self.png) == "image/png")
        #expect(ImageProxy.type(of: [0xFF, 0xD8, 0xFF, 0xE0, 0]) == "image/jpeg")
        #expect(ImageProxy.type(of: Array("GIF89a...".utf8)) == "image/gif" && ImageProxy.type(of: Array("GIF87a".utf8)) == "image/gif")
        #expect(ImageProxy.type(of: Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == "image/webp")
        #expect(ImageProxy.type(of: Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8)) == nil)
        #expect(ImageProxy.type(of: [0x89, 0x50]) == nil && ImageProxy.type(of: []) == nil)
    }

    @Test("the page: a granted picture is an <img> from our /image; any other is its escaped alt text, with no request")
    func pageMarkup() throws {
        let writer = HTMLWriter(actionURL: "/w/x", secret: "s", manifest: try Self.manifest())
        let granted = writer.html(.image(alt: "The \"Jane\"", url: "http://127.0.0.1:9/a.png?s=1&t"))
        #expect(granted == "<img src=\"/image?w=org.example.widget&amp;u=http%3A%2F%2F127.0.0.1%3A9%2Fa.png%3Fs%3D1%26t\" alt=\"The &quot;Jane&quot;\">")
        let denied = writer.html(.image(alt: "<b>", url: "https://example.com/logo.png"))
        #expect(denied == "<span class=\"image\" role=\"img\" aria-label=\"&lt;b&gt;\">&lt;b&gt;</span>")
        #expect(HTMLWriter(actionURL: "/", secret: "s").html(.image(alt: "a", url: "http://127.0.0.1/a.png")).hasPrefix("<span"))
    }
}
