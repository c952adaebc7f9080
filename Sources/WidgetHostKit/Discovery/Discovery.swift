import Glibc
import PluginABI

/// A `.so` found on the search path, and what the host makes of it.
public struct PluginCandidate: Sendable {
    public enum Status: Equatable, Sendable {
        case ok
        case rejected(String)
        case shadowed(by: String)

        public var name: String {
            switch self {
            case .ok: "ok"
            case .rejected: "rejected"
            case .shadowed: "shadowed"
            }
        }

        public var reason: String? {
            switch self {
            case .ok: nil
            case let .rejected(reason): reason
            case let .shadowed(path): "shadowed by \(path), which has the same id and comes first on the search path"
            }
        }
    }

    public let path: String
    /// Present whenever the file held a readable manifest, even if rejected.
    public let manifest: Manifest?
    public internal(set) var status: Status
}

public struct DiscoveryReport: Sendable {
    public let plugins: [PluginCandidate]
    /// Problems with the search path itself, such as a missing --plugin-dir.
    public let warnings: [String]

    /// The plugins a host may load, in search order.
    public var usable: [PluginCandidate] { plugins.filter { $0.status == .ok } }
}

/// Finds plugins by reading their files, never by loading them: listing a
/// directory runs no plugin code, so a hostile or broken file can cost a few
/// reads but cannot crash or hang the host.
public struct Discovery: Sendable {
    public var allowInsecure: Bool
    /// Service ids the host provides, for checking manifests' requirements.
    public var availableServices: Set<String>

    public init(allowInsecure: Bool = false, availableServices: Set<String>) {
        self.allowInsecure = allowInsecure
        self.availableServices = availableServices
    }

    public func scan(_ searchPath: SearchPath) -> DiscoveryReport {
        var safety = FileSafety()
        var warnings: [String] = []
        var plugins: [PluginCandidate] = []
        for directory in searchPath.directories {
            do {
                for name in try Self.sharedObjects(in: directory.path) {
                    plugins.append(inspect(path: join(directory.path, name), safety: &safety))
                }
            } catch {
                if directory.explicit || error.code != ENOENT {
                    warnings.append("plugin directory \(directory.path) (from \(directory.origin)): \(error)")
                }
            }
        }
        return DiscoveryReport(plugins: Self.resolveDuplicates(plugins), warnings: warnings)
    }

    /// Inspects one file as discovery would.
    public func inspect(path: String) -> PluginCandidate {
        var safety = FileSafety()
        return inspect(path: path, safety: &safety)
    }

    private func inspect(path: String, safety: inout FileSafety) -> PluginCandidate {
        var manifest: Manifest?
        let problem = check(path: path, safety: &safety, manifest: &manifest)
        return PluginCandidate(path: path, manifest: manifest, status: problem.map(PluginCandidate.Status.rejected) ?? .ok)
    }

    private func check(path: String, safety: inout FileSafety, manifest: inout Manifest?) -> String? {
        var status = stat()
        if stat(path, &status) != 0 {
            switch errno {
            case ELOOP: return "symbolic link loop"
            case ENOENT: return "broken symbolic link"
            case let code: return "cannot stat: \(String(cString: strerror(code)))"
            }
        }
        guard status.st_mode & S_IFMT == S_IFREG else { return "not a regular file (\(FileKind(mode: status.st_mode)))" }
        if !allowInsecure, let problem = safety.problem(with: path) {
            return "unsafe: \(problem) (use --allow-insecure to load it anyway)"
        }
        let image: ELFImage
        do {
            image = try ELFImage(path: path, manifestSection: WH_MANIFEST_SECTION, entrySymbol: WH_ENTRY_SYMBOL,
                                 maxManifestBytes: Int(WH_MANIFEST_MAX_BYTES))
        } catch {
            return error.description
        }
        guard let bytes = image.manifest else { return "no \(WH_MANIFEST_SECTION) section: not a WidgetHost plugin" }
        do { manifest = try Manifest(bytes: bytes) } catch { return error.description }
        guard let manifest else { return nil }
        if let incompatibility = manifest.abi.incompatibility { return incompatibility }
        guard image.exportsEntry else { return "does not export the entry symbol \(WH_ENTRY_SYMBOL)" }
        if let missing = manifest.requiredServices.first(where: { !availableServices.contains($0) }) {
            return "requires service \(missing), which this host does not provide"
        }
        return nil
    }

    /// The first usable plugin with an id wins; later ones are shadowed.
    private static func resolveDuplicates(_ plugins: [PluginCandidate]) -> [PluginCandidate] {
        var owners: [PluginID: String] = [:]
        return plugins.map { candidate in
            guard candidate.status == .ok, let id = candidate.manifest?.id else { return candidate }
            var result = candidate
            if let owner = owners[id] {
                result.status = .shadowed(by: owner)
            } else {
                owners[id] = candidate.path
            }
            return result
        }
    }

    /// Names ending in `.so` in `directory`, sorted so results are stable.
    static func sharedObjects(in directory: String) throws(SystemError) -> [String] {
        try entries(in: directory).filter { $0.hasSuffix(".so") && $0 != ".so" }
    }

    /// The names in `directory` but . and .., sorted.
    static func entries(in directory: String) throws(SystemError) -> [String] {
        guard let stream = opendir(directory) else { throw SystemError(code: errno) }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}

func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
}

/// An errno with its text.
public struct SystemError: Error, CustomStringConvertible {
    public let code: Int32
    public var description: String { String(cString: strerror(code)) }
}
