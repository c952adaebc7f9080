import Glibc
import HostShim
import PluginABI

/// Why a plugin failed its load handshake. The cases are in the order the
/// handshake checks them, and each says exactly what was wrong.
public enum LoadError: Error, Equatable, CustomStringConvertible {
    case dlopen(String)
    case missingEntry
    case entryReturnedNull
    case incompatibleABI(String)
    case badDescriptorSize(UInt32)
    case invalidDescriptor(String)
    case mismatch(String)
    case missingService(String)

    public var description: String {
        switch self {
        case let .dlopen(message): "dlopen failed: \(message)"
        case .missingEntry: "the entry symbol \(WH_ENTRY_SYMBOL) is missing"
        case .entryReturnedNull: "\(WH_ENTRY_SYMBOL) returned NULL"
        case let .incompatibleABI(reason): "descriptor \(reason)"
        case let .badDescriptorSize(size):
            "descriptor says it is \(size) bytes; ABI \(ABIVersion.host.major).x needs \(WH_DESCRIPTOR_SIZE_1_0) to \(Loader.maxDescriptorSize)"
        case let .invalidDescriptor(reason): "invalid descriptor: \(reason)"
        case let .mismatch(reason): "descriptor does not match the manifest: \(reason)"
        case let .missingService(id): "requires service \(id), which this host does not provide"
        }
    }
}

/// A plugin that passed the handshake, ready to create instances.
public final class LoadedPlugin: @unchecked Sendable {
    public let path: String
    public let manifest: Manifest
    /// The fields this host knows, copied out of the plugin's descriptor.
    let descriptor: wh_plugin_descriptor

    /// The descriptor as the plugin gave it, for measuring the bare ABI call.
    public var rawDescriptor: wh_plugin_descriptor { descriptor }

    init(path: String, manifest: Manifest, descriptor: wh_plugin_descriptor) {
        self.path = path
        self.manifest = manifest
        self.descriptor = descriptor
    }
}

/// Loads plugins into this process. The image is opened with RTLD_NODELETE
/// and never closed: a Swift runtime keeps pointers into every image it has
/// seen, so unloading one would leave them dangling. Reloading a plugin means
/// a new process.
public enum Loader {
    static let maxDescriptorSize: UInt32 = 64 * 1024

    /// Opens `path` and runs the handshake against its manifest. The checks
    /// run in order: entry symbol, ABI version, descriptor size, descriptor
    /// fields, agreement with the manifest, required services.
    public static func load(path: String, manifest: Manifest, serviceIDs: Set<String>) throws(LoadError) -> LoadedPlugin {
        // dlopen searches the library path for a name without a slash; a
        // plugin named on the command line is a file here, not a library name.
        let file = path.contains("/") ? path : "./" + path
        // Loading runs the plugin's constructors, and then its entry.
        let (handle, raw) = manifest.id.value.withCString { id in
            PluginCall.during(id, "load") { () -> (UnsafeMutableRawPointer?, UnsafePointer<wh_plugin_descriptor>?) in
                guard let handle = dlopen(file, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else { return (nil, nil) }
                guard let symbol = dlsym(handle, WH_ENTRY_SYMBOL) else { return (handle, nil) }
                // Before the entry runs: a thread it starts is the plugin's from its first instruction.
                wh_shim_plugin_image(symbol, id)
                return (handle, unsafeBitCast(symbol, to: wh_entry_fn.self)())
            }
        }
        guard let handle else { throw .dlopen(dlerror().map { String(cString: $0) } ?? "unknown error") }
        guard let raw else { throw dlsym(handle, WH_ENTRY_SYMBOL) == nil ? .missingEntry : .entryReturnedNull }
        let descriptor = try read(UnsafeRawPointer(raw))
        try verify(descriptor, against: manifest)
        if let missing = manifest.requiredServices.first(where: { !serviceIDs.contains($0) }) {
            throw .missingService(missing)
        }
        return LoadedPlugin(path: path, manifest: manifest, descriptor: descriptor)
    }

    private static func read(_ raw: UnsafeRawPointer) throws(LoadError) -> wh_plugin_descriptor {
        let major = raw.load(as: UInt32.self)
        let minor = raw.load(fromByteOffset: 4, as: UInt32.self)
        let size = raw.load(fromByteOffset: 8, as: UInt32.self)
        if let reason = ABIVersion(major: major, minor: minor).incompatibility { throw .incompatibleABI(reason) }
        guard size >= WH_DESCRIPTOR_SIZE_1_0, size <= maxDescriptorSize else { throw .badDescriptorSize(size) }
        // Copy only what both sides know: a newer minor may have appended
        // fields we ignore, an older one lacks fields we leave zeroed.
        var descriptor = wh_plugin_descriptor()
        withUnsafeMutableBytes(of: &descriptor) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: raw, count: min(Int(size), target.count)))
        }
        guard descriptor.create != nil, descriptor.render != nil, descriptor.handle_action != nil,
              descriptor.on_event != nil, descriptor.destroy != nil else {
            throw .invalidDescriptor("a lifecycle function (create, render, handle_action, on_event, destroy) is NULL")
        }
        return descriptor
    }

    private static func verify(_ descriptor: wh_plugin_descriptor, against manifest: Manifest) throws(LoadError) {
        func text(_ pointer: UnsafePointer<CChar>?, _ field: String) throws(LoadError) -> String {
            guard let pointer else { throw .invalidDescriptor("\(field) is NULL") }
            guard let value = String(validatingCString: pointer) else { throw .invalidDescriptor("\(field) is not valid UTF-8") }
            return value
        }
        func same(_ field: String, _ actual: String, _ expected: String) throws(LoadError) {
            guard actual == expected else {
                throw .mismatch("\(field) is \"\(actual)\" in the descriptor but \"\(expected)\" in the manifest")
            }
        }
        try same("ABI", "\(descriptor.abi_major).\(descriptor.abi_minor)", manifest.abi.description)
        // A descriptor may leave its identity to the manifest (WH_DESCRIPTOR
        // in plugin.h): the manifest is the plugin's own, read from the same
        // file, so a C author states it once. What a descriptor does state
        // must agree with the manifest: a C author types it twice, and the
        // copies can drift.
        if descriptor.id == nil && descriptor.name == nil && descriptor.version == nil && descriptor.vendor == nil
            && descriptor.description == nil && descriptor.screens == nil && descriptor.screen_count == 0 {
            return
        }
        let id = try text(descriptor.id, "id")
        do { _ = try PluginID(id) } catch { throw .invalidDescriptor(error.description) }
        try same("id", id, manifest.id.value)
        try same("name", try text(descriptor.name, "name"), manifest.name)
        try same("version", try text(descriptor.version, "version"), manifest.version)
        // The manifest's vendor is optional, so a NULL vendor is the empty one.
        try same("vendor", descriptor.vendor == nil ? "" : try text(descriptor.vendor, "vendor"), manifest.vendor)
        try same("description", try text(descriptor.description, "description"), manifest.description)
        guard descriptor.screen_count == manifest.screens.count else {
            throw .mismatch("\(descriptor.screen_count) screens in the descriptor but \(manifest.screens.count) in the manifest")
        }
        guard let screens = descriptor.screens else { throw .invalidDescriptor("screens is NULL") }
        for (index, expected) in manifest.screens.enumerated() {
            try same("screen \(index + 1) id", try text(screens[index].id, "screen \(index + 1) id"), expected.id)
            try same("screen \(index + 1) title", try text(screens[index].title, "screen \(index + 1) title"), expected.title)
        }
    }
}
