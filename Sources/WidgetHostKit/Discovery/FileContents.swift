import Glibc
import PluginABI

/// What a plugin file says about itself, read without loading it: its
/// manifest, and the first problem with the file, if any. It depends only
/// on the file's bytes, so it can be cached by the file's identity.
struct FileContents: Sendable {
    let manifest: Manifest?
    let problem: String?
    /// The file that was read, as it was opened; nil when it could not be
    /// opened, or could not be read for a reason outside it (a system
    /// error: no descriptor left, EIO, a network file system's timeout).
    let identity: FileIdentity?

    init(path: String, availableServices: Set<String>) {
        var manifest: Manifest?, identity: FileIdentity?
        problem = Self.read(path, availableServices, &manifest, &identity)
        self.manifest = manifest
        self.identity = identity
    }

    /// Whether this reading stands for the file `identity` names while it
    /// is unchanged: the file read was that one (not another swapped in at
    /// its path after the stat), and nothing outside it decided the result.
    func lasting(as identity: FileIdentity) -> Bool { self.identity == identity }

    /// The mangling prefix of the Swift module PluginKit's symbols: the host
    /// holds that module, so a plugin that defines or imports it again would
    /// be the same Swift module in two images (docs/writing-plugins.md, Why the module alias).
    static let hostModulePrefix = "$s9PluginKit"

    private static func read(
        _ path: String, _ availableServices: Set<String>, _ manifest: inout Manifest?, _ identity: inout FileIdentity?
    ) -> String? {
        let image: ELFImage
        do throws(ELFError) {
            let file: ReadOnlyFile
            do { file = try ReadOnlyFile(path: path) } catch { throw ELFError.file(error) }
            identity = file.identity
            image = try ELFImage(file: file, manifestSection: WH_MANIFEST_SECTION, entrySymbol: WH_ENTRY_SYMBOL,
                                 reservedSymbolPrefix: hostModulePrefix,
                                 maxManifestBytes: Int(WH_MANIFEST_MAX_BYTES))
        } catch {
            if case .file(.system) = error { identity = nil }
            return error.description
        }
        guard let bytes = image.manifest else { return "no \(WH_MANIFEST_SECTION) section: not a WidgetHost plugin" }
        let parsed: Manifest
        do { parsed = try Manifest(bytes: bytes) } catch { return error.description }
        manifest = parsed
        if let incompatibility = parsed.abi.incompatibility { return incompatibility }
        guard image.exportsEntry else {
            return "does not export the entry symbol \(WH_ENTRY_SYMBOL): in Swift, the @_cdecl/@c entry point must be public "
                + "(a release build hides any other); in C, declare it WH_EXPORT"
        }
        if let symbol = image.reservedSymbol {
            return "holds the Swift module PluginKit (\(symbol)), which the host holds too; build it with "
                + "moduleAliases: [\"PluginKit\": \"<Name>PluginKit\"] (see docs/writing-plugins.md, Why the module alias)"
        }
        if let missing = parsed.requiredServices.first(where: { !availableServices.contains($0) }) {
            return "requires service \(missing), which this host does not provide"
        }
        return nil
    }
}

/// Which version of a file this is: a change to its bytes, or its
/// replacement by another file, changes at least one of these.
struct FileIdentity: Hashable, Sendable {
    let device: UInt64, inode: UInt64, size: Int64
    let modified: Int64, changed: Int64

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        changed = Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)
    }
}
