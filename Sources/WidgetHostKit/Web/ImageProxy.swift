/// Pictures for the page, fetched by the host on a plugin's behalf: only
/// from the hosts its manifest grants to the http service (every redirect
/// judged again), at most 2 MiB, and only bytes that are a PNG, JPEG, GIF
/// or WebP whatever the server called them. The page loads them from our own
/// origin, so the browser never talks to a third party.
final class ImageProxy: Sendable {
    static let maxBytes = 2 << 20
    /// How many pictures stay in memory (at most 2 MiB each).
    static let cacheEntries = 32

    enum Outcome: Sendable, Equatable {
        case image(type: String, bytes: [UInt8])
        /// Not fetched: the manifest does not grant the host, or the URL is not http(s).
        case denied(String)
        /// Fetched, but not a picture we show: too large, not an image, not 200.
        case failed(String)
    }

    private let client: HTTPClient
    /// Pictures by plugin and URL, oldest first; failures are tried again.
    private let cache = Locked<[(key: String, type: String, bytes: [UInt8])]>([])

    init(client: HTTPClient = HTTPClient()) { self.client = client }

    /// Whether the page should ask for `url` at all (an image it may never
    /// fetch is a placeholder from the start, with no request).
    static func grants(_ url: String, to manifest: Manifest) -> Bool {
        HTTPClient.isAbsoluteHTTP(url) && HTTPAllowList.denial(of: url, for: manifest) == nil
    }

    func image(_ url: String, for manifest: Manifest) -> Outcome {
        guard Self.grants(url, to: manifest) else {
            return .denied(HTTPAllowList.denial(of: url, for: manifest) ?? "not an absolute http or https URL: \(url)")
        }
        let key = manifest.id.value + "\n" + url
        if let hit = cache.withLock({ $0.first { $0.key == key } }) { return .image(type: hit.type, bytes: hit.bytes) }
        let response: HTTPClient.Response
        do {
            response = try client.get(url, maxBytes: Self.maxBytes) { HTTPAllowList.denial(of: $0, for: manifest) }
        } catch let .denied(reason) {
            return .denied(reason)
        } catch {
            return .failed("\(url): \(error)")
        }
        guard response.status == 200 else { return .failed("\(url): HTTP \(response.status)") }
        guard let type = Self.type(of: response.body) else { return .failed("\(url): not a PNG, JPEG, GIF or WebP image") }
        cache.withLock { entries in
            entries.removeAll { $0.key == key }
            entries.append((key, type, response.body))
            if entries.count > Self.cacheEntries { entries.removeFirst(entries.count - Self.cacheEntries) }
        }
        return .image(type: type, bytes: response.body)
    }

    /// The picture's type from its first bytes; nil for anything else (an
    /// SVG, which can carry script, is not among them).
    static func type(of bytes: [UInt8]) -> String? {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + magic.count && Array(bytes[offset..<offset + magic.count]) == magic
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        return nil
    }

    /// The page's address for a plugin's picture.
    static func address(_ url: String, plugin: String) -> String {
        "/image?w=\(WebURL.escape(plugin))&u=\(WebURL.escape(url))"
    }
}
