import Glibc
import PluginABI

/// Builds the plugin's C descriptor from its manifest, so a Swift plugin
/// states its identity once, and says how to make an instance. Call it from
/// the plugin's entry point:
///
///     @_cdecl("widget_host_entry")
///     public func widgetHostEntry() -> UnsafePointer<wh_plugin_descriptor>? {
///         exportWidget(manifest: wh_manifest_json()) { host in try CryptoWidget(host: host) }
///     }
///
/// (`{ _ in HelloWidget() }` for a widget that uses no host service.)
/// Returns the same descriptor on every call, or nil if the manifest is not
/// one the SDK can read (the host then reports that the entry returned NULL).
public func exportWidget(manifest: UnsafePointer<CChar>, _ make: @escaping (Host) throws -> any Widget) -> UnsafePointer<wh_plugin_descriptor>? {
    exported.withLock { state in
        if let descriptor = state.descriptor { return descriptor.pointer }
        guard let descriptor = Descriptor(manifest: String(cString: manifest)) else { return nil }
        state.factory = make
        state.descriptor = descriptor
        state.screens = descriptor.screens
        return descriptor.pointer
    }
}

private struct ExportState {
    var descriptor: Descriptor?
    var factory: ((Host) throws -> any Widget)?
    /// The manifest's screens: the SDK refuses any other, so a widget needs no guard.
    var screens: Set<String> = []
    // Actions need no list here: the host refuses any no screen declares (DeclaredActions) before the SDK is called.
}

private let exported = Locked(ExportState())

/// The descriptor in C memory. It is built once and never freed: the host
/// never unloads a plugin (plugin.h), so it lives as long as the image.
private struct Descriptor: @unchecked Sendable {
    let pointer: UnsafePointer<wh_plugin_descriptor>
    let screens: Set<String>

    init?(manifest: String) {
        guard let object = try? JSONParser.parse(manifest), let id = object["id"]?.string, let name = object["name"]?.string,
              let version = object["version"]?.string, let screenList = object["screens"]?.array else { return nil }
        let screens = UnsafeMutablePointer<wh_screen>.allocate(capacity: max(screenList.count, 1))
        for (index, screen) in screenList.enumerated() {
            guard let screenID = screen["id"]?.string else { return nil }
            // The host treats an empty title as the id, so the descriptor must too.
            let title = screen["title"]?.string.flatMap { $0.isEmpty ? nil : $0 } ?? screenID
            screens[index] = wh_screen(id: strdup(screenID), title: strdup(title))
        }
        let descriptor = UnsafeMutablePointer<wh_plugin_descriptor>.allocate(capacity: 1)
        descriptor.initialize(to: wh_plugin_descriptor(
            abi_major: WH_ABI_MAJOR,
            abi_minor: WH_ABI_MINOR,
            struct_size: UInt32(MemoryLayout<wh_plugin_descriptor>.size),
            screen_count: UInt32(screenList.count),
            id: strdup(id),
            name: strdup(name),
            version: strdup(version),
            vendor: strdup(object["vendor"]?.string ?? ""),
            description: strdup(object["description"]?.string ?? ""),
            screens: screens,
            create: createInstance,
            render: renderInstance,
            handle_action: handleAction,
            on_event: deliverEvent,
            destroy: destroyInstance,
            query: answerQuery
        ))
        pointer = UnsafePointer(descriptor)
        self.screens = Set(screenList.compactMap { $0["id"]?.string })
    }
}

/// What the host's opaque `wh_plugin *` points at.
private final class Instance {
    let widget: any Widget
    let mainQueue: MainQueue

    init(widget: any Widget, mainQueue: MainQueue) {
        self.widget = widget
        self.mainQueue = mainQueue
    }

    /// The instance, with its background completions run first (we are on
    /// the host's thread now, as every call into a plugin is).
    static func from(_ plugin: OpaquePointer?) -> Instance? {
        guard let plugin else { return nil }
        let instance = Unmanaged<Instance>.fromOpaque(UnsafeRawPointer(plugin)).takeUnretainedValue()
        instance.mainQueue.drain()
        return instance
    }
}

// The C entry points. They capture nothing (a capturing @convention(c)
// closure is not allowed); the instance travels through the opaque pointer.

private func createInstance(_ host: UnsafePointer<wh_host>?) -> OpaquePointer? {
    guard let host, let factory = exported.withLock({ $0.factory }) else { return nil }
    let mainQueue = MainQueue()
    let context = Host(raw: host, mainQueue: mainQueue)
    do {
        let instance = Instance(widget: try factory(context), mainQueue: mainQueue)
        return OpaquePointer(Unmanaged.passRetained(instance).toOpaque())
    } catch {
        context.log(.error, "create failed: \(error)")
        return nil
    }
}

private func renderInstance(
    _ plugin: OpaquePointer?, _ screen: UnsafePointer<CChar>?, _ params: UnsafePointer<CChar>?,
    _ output: UnsafePointer<wh_output>?
) -> Int32 {
    guard let instance = Instance.from(plugin), let screen, let output else { return Int32(WH_FAILED.rawValue) }
    guard exported.withLock({ $0.screens.contains(String(cString: screen)) }) else { return Int32(WH_UNKNOWN_SCREEN.rawValue) }
    // The host always sends an object; anything else reads as no parameters.
    let parsed = params.flatMap { try? JSONParser.parse(String(cString: $0)) }.flatMap { $0.isObject ? $0 : nil } ?? .object([])
    return write(output) { () throws(WidgetError) in
        // A card's render (plugin.h, WH_PARAM_CARD_SIZE): the widget's card
        // view, else its screen without the host's parameter.
        if let size = parsed[CardSize.parameter]?.string.flatMap(CardSize.init(rawValue:)) {
            if let card = try instance.widget.card(size: size) { return card }
            guard case let .object(members) = parsed else { return "" }
            return try instance.widget.render(screen: String(cString: screen), params: .object(members.filter { $0.0 != CardSize.parameter }))
        }
        return try instance.widget.render(screen: String(cString: screen), params: parsed)
    }
}

private func answerQuery(_ plugin: OpaquePointer?, _ query: UnsafePointer<CChar>?, _ output: UnsafePointer<wh_output>?) -> Int32 {
    guard let instance = Instance.from(plugin), let query, let output else { return Int32(WH_FAILED.rawValue) }
    return write(output) { () throws(WidgetError) in try instance.widget.query(String(cString: query)) }
}

/// Writes what `produce` returns to the host's output, as a `wh_status`.
private func write(_ output: UnsafePointer<wh_output>, _ produce: () throws(WidgetError) -> String) -> Int32 {
    do {
        var json = try produce()
        let written = json.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { output.pointee.write(output, $0.baseAddress, UInt64($0.count)) }
        }
        return written == 0 ? Int32(WH_OK.rawValue) : Int32(WH_FAILED.rawValue)
    } catch {
        return Int32(error.status.rawValue)
    }
}

private func handleAction(_ plugin: OpaquePointer?, _ action: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?) -> Int32 {
    guard let instance = Instance.from(plugin), let action else { return Int32(WH_FAILED.rawValue) }
    let name = String(cString: action)
    let text = value.map { String(cString: $0) }
    do {
        // The host's refresh has a hook of its own, so a widget's actions never count it as a press;
        // any other host action (a later minor's) is one this SDK does not know.
        if name == WH_ACTION_REFRESH {
            try instance.widget.refresh(screen: text ?? "")
        } else if !name.hasPrefix("widget-host.") {
            try instance.widget.handle(action: name, value: text)
        } else {
            return Int32(WH_UNKNOWN_ACTION.rawValue)
        }
        return Int32(WH_OK.rawValue)
    } catch {
        return Int32(error.status.rawValue)
    }
}

private func deliverEvent(_ plugin: OpaquePointer?, _ topic: UnsafePointer<CChar>?, _ payload: UnsafePointer<CChar>?) {
    guard let instance = Instance.from(plugin), let topic, let payload else { return }
    instance.widget.receive(topic: String(cString: topic), payload: String(cString: payload))
}

private func destroyInstance(_ plugin: OpaquePointer?) {
    guard let plugin else { return }
    Unmanaged<Instance>.fromOpaque(UnsafeRawPointer(plugin)).release()
}
