import HostShim

/// The hosts a plugin's manifest lets the http service reach, as Extism's
/// `allowed_hosts`: `"http": {"hosts": ["api.coinbase.com", "*.kraken.com"]}`.
/// A pattern is a host name, an IP address, or `*.` and a domain, which
/// matches the domain's subdomains (not the domain itself); any port.
/// Names compare without case. A manifest without the field, like an empty
/// list, reaches no host; `"*"` alone reaches any host, and every place that
/// shows a plugin's grants flags it.
public enum HTTPAllowList {
    /// Why `pattern` is not a host pattern, or nil if it is.
    public static func problem(with pattern: String) -> String? {
        if pattern == anyHost { return nil }
        // By bytes: a host name is ASCII, and every manifest's hosts are
        // checked on every listing (by Characters it cost 60,000 instructions a manifest).
        var name = Array(pattern.utf8)[...]
        if name.starts(with: "*.".utf8) { name = name.dropFirst(2) }
        if name.first == UInt8(ascii: "[") && name.last == UInt8(ascii: "]") && name.count > 2 {
            let isAddressByte = { (byte: UInt8) in Self.isHexDigit(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".") }
            return name.dropFirst().dropLast().allSatisfy(isAddressByte) ? nil : "\"\(pattern)\" is not an IPv6 address"
        }
        guard name.count <= 253, isHostName(name) else {
            return "\"\(pattern)\" is not a host name such as api.example.com or *.example.com"
        }
        return nil
    }

    /// Dot-separated labels, each 1 to 63 letters, digits and hyphens: one
    /// pass, no array of labels.
    private static func isHostName(_ name: ArraySlice<UInt8>) -> Bool {
        var label = 0
        for byte in name {
            if byte == UInt8(ascii: ".") {
                guard label > 0 else { return false }
                label = 0
            } else {
                guard isLabelByte(byte), label < 63 else { return false }
                label += 1
            }
        }
        return label > 0
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }

    /// A letter, a digit or a hyphen, in ASCII.
    private static func isLabelByte(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == UInt8(ascii: "-")
    }

    /// The pattern that matches every host.
    public static let anyHost = "*"

    public static func allows(_ patterns: [String], host: String) -> Bool {
        let host = host.lowercased()
        return patterns.contains { pattern in
            let pattern = pattern.lowercased()
            if pattern == anyHost { return true }
            if pattern.hasPrefix("*.") { return host.hasSuffix(pattern.dropFirst(1)) }
            return host == pattern || "[\(host)]" == pattern
        }
    }

    /// Why the plugin may not GET `url`, or nil if it may.
    static func denial(of url: String, for manifest: Manifest) -> String? {
        let hosts = manifest.httpHosts
        guard let host = host(of: url), !host.isEmpty else {
            // A URL the client will not try is its to refuse, with its own
            // reason; one it would try but whose host cannot be read here is
            // not let through unjudged.
            return HTTPClient.isAbsoluteHTTP(url) ? "denied GET \(url): its host cannot be read" : nil
        }
        guard !allows(hosts, host: host) else { return nil }
        let declared = hosts.isEmpty ? "none" : hosts.joined(separator: ", ")
        return "denied GET \(url): \(host) is not among the hosts its manifest declares (\(declared))"
    }

    /// The host of `url` as libcurl, which fetches it, reads it: another
    /// parser could see an allowed host where curl connects to another
    /// (`http://allowed\\@other/`).
    static func host(of url: String) -> String? {
        var host = [CChar](repeating: 0, count: 1024)
        guard wh_shim_url_host(url, &host, host.count) == 0 else { return nil }
        return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
