import Glibc
import HostShim
import PluginABI

/// `widget-host __plugin-host --host-pid PID --data DIR --memory-mib N --cpu-seconds N [--allow-weak-sandbox] PATH`:
/// the process an isolated plugin runs in.
///
/// Before any plugin code can run it keeps only the descriptors it was
/// given and enters its cage (`ChildCage`: rlimits, the data directory,
/// the crash reporter, the sandbox); only then does it say hello and, on `create`, dlopen the plugin with the same
/// handshake as in process. So a plugin's constructors already run caged.
/// It then serves the host's calls on its main thread, one at a time.
public enum PluginHostChild {
    public static let command = PluginProcess.command

    public static func run(_ words: [String]) -> Int32 {
        let spec = ArgumentSpec(flags: ["--allow-weak-sandbox"], options: ["--host-pid", "--data", "--memory-mib", "--cpu-seconds"],
                                maxPositionals: 1)
        guard let arguments = try? spec.parse(words), let given = arguments.positionals.first,
              let data = arguments.value("--data"), data.hasPrefix("/"), ChildCage.dieWithHost(arguments.value("--host-pid")) else {
            FileDescriptor.standardError.write("widget-host: \(command) is started by the host, not by hand\n")
            return ExitStatus.usage
        }
        // The working directory is about to become the data directory.
        let path = ChildCage.absolute(given)
        let memory = UInt64(arguments.value("--memory-mib") ?? "") ?? 0
        let cpu = UInt64(arguments.value("--cpu-seconds") ?? "") ?? 0
        _ = wh_shim_close_from(PluginProcess.doorbellDescriptor + 1)
        guard let cage = ChildCage.enter(data: data, plugin: path, memoryMiB: memory, cpuSeconds: cpu,
                                         report: PluginProcess.reportDescriptor) else { return PluginProcess.cageRefusedStatus }

        let link = ChildLink(fd: PluginProcess.socketDescriptor, doorbell: PluginProcess.doorbellDescriptor)
        ChildLink.shared = link
        link.watchForHangUp()
        link.send(Frame(.hello, fields: ["protocol": .int(Frame.protocolVersion), "pid": .int(getpid()), "sandbox": cage.status]))
        // A weak cage is refused before any plugin code runs, unless allowed.
        let refusal = cage.complete || arguments.has("--allow-weak-sandbox") ? nil : cage.refusal
        var server = Server(path: path, link: link, refusal: refusal)
        server.serve()
    }

    /// The plugin's one instance, driven by the host's calls.
    private struct Server {
        let path: String
        let link: ChildLink
        /// Why the plugin may not load here, if it may not.
        let refusal: String?
        var plugin: LoadedPlugin?
        var handle: OpaquePointer?
        /// Every render's and query's output, one at a time: the memory is
        /// kept, not allocated and freed on every call.
        let output = OutputBuffer(limit: PluginInstance.maxRenderBytes)
        var parameters = ParameterText()

        init(path: String, link: ChildLink, refusal: String?) {
            self.path = path
            self.link = link
            self.refusal = refusal
        }

        mutating func serve() -> Never {
            PluginCall.markForGood(strdup(path))
            while true {
                let (callID, call) = link.nextCall()
                switch call {
                case let .load(manifest):
                    link.answer(callID, load(manifest) ?? .ok)
                case let .create(manifest):
                    link.answer(callID, create(manifest))
                case let .render(screen, params):
                    guard let plugin, let handle else { link.answer(callID, failed); continue }
                    output.reset()
                    // `output` read through a local: inside the closure that mutates
                    // `parameters`, reading it off `self` would overlap that access.
                    let render = plugin.descriptor.render!, output = output
                    let status = screen.withCString { screen in
                        parameters.with(params) { text in output.withOutput { out in render(handle, screen, text, out) } }
                    }
                    link.answer(callID, output: output, status: status)
                case let .query(id):
                    guard let plugin, let handle else { link.answer(callID, failed); continue }
                    guard let query = plugin.descriptor.query else {
                        link.answer(callID, .status(Int32(WH_UNKNOWN_QUERY.rawValue)))
                        continue
                    }
                    output.reset()
                    let status = id.withCString { id in output.withOutput { out in query(handle, id, out) } }
                    link.answer(callID, output: output, status: status)
                case let .action(action, value):
                    guard let plugin, let handle else { link.answer(callID, failed); continue }
                    let handleAction = plugin.descriptor.handle_action!
                    let status = action.withCString { action in value.withOptionalCString { handleAction(handle, action, $0) } }
                    link.answer(callID, .status(status))
                case let .event(topic, payload):
                    if let plugin, let handle {
                        let onEvent = plugin.descriptor.on_event!
                        topic.withCString { topic in payload.withCString { onEvent(handle, topic, $0) } }
                    }
                    link.answer(callID, .ok)
                case .destroy:
                    if let plugin, let handle { plugin.descriptor.destroy!(handle) }
                    link.answer(callID, .ok)
                    _exit(0)
                }
            }
        }

        private var failed: CallAnswer { .status(Int32(WH_FAILED.rawValue)) }

        /// The load handshake against the manifest the host read, once;
        /// nil when the plugin is loaded, else the answer that says why not.
        private mutating func load(_ manifestJSON: JSONValue) -> CallAnswer? {
            guard plugin == nil else { return nil }
            if let refusal { return .loadFailed(refusal) }
            let manifest: Manifest
            do { manifest = try Manifest(json: manifestJSON) } catch {
                return .loadFailed(error.description)
            }
            do {
                plugin = try Loader.load(path: path, manifest: manifest, serviceIDs: Set(ServiceTable.all.map(\.id)))
            } catch {
                return .loadFailed(error.description)
            }
            return nil
        }

        /// The load handshake if `load` has not made it, then the plugin's
        /// `create` with the forwarding `wh_host`.
        private mutating func create(_ manifestJSON: JSONValue) -> CallAnswer {
            guard handle == nil else { return .createFailed("the plugin is already created") }
            if let failure = load(manifestJSON) { return failure }
            guard let created = plugin!.descriptor.create!(ChildServices.host) else {
                return .createFailed(WidgetCallError.createFailed.description)
            }
            handle = created
            return .ok
        }
    }
}

