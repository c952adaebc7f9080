import Glibc
import HostShim
import PluginABI

/// `widget-host __plugin-host --data DIR --memory-mib N --cpu-seconds N PATH`:
/// the process an isolated plugin runs in.
///
/// Before any plugin code can run it keeps only the descriptors it was
/// given, sets its rlimits, moves into the plugin's data directory, installs
/// its crash reporter and confines itself (`wh_shim_sandbox_apply`); only
/// then does it say hello and, on `create`, dlopen the plugin with the same
/// handshake as in process. So a plugin's constructors already run caged.
/// It then serves the host's calls on its main thread, one at a time.
public enum PluginHostChild {
    public static let command = PluginProcess.command

    public static func run(_ words: [String]) -> Int32 {
        let spec = ArgumentSpec(options: ["--data", "--memory-mib", "--cpu-seconds"], maxPositionals: 1)
        guard let arguments = try? spec.parse(words), let given = arguments.positionals.first,
              let data = arguments.value("--data"), data.hasPrefix("/") else {
            FileDescriptor.standardError.write("widget-host: \(command) is started by the host, not by hand\n")
            return 2
        }
        // The working directory is about to become the data directory.
        let path = given.hasPrefix("/") ? given : workingDirectory() + "/" + given
        let memory = UInt64(arguments.value("--memory-mib") ?? "") ?? 0
        let cpu = UInt64(arguments.value("--cpu-seconds") ?? "") ?? 0
        _ = wh_shim_close_from(PluginProcess.reportDescriptor + 1)
        guard wh_shim_set_limits(memory << 20, cpu) == 0, chdir(data) == 0 else { return 3 }
        _ = wh_shim_install_crash_reporter(PluginProcess.reportDescriptor)

        // Landlock binds only the calling thread and those it starts later.
        let threadsBefore = (try? Discovery.entries(in: "/proc/self/task").count) ?? 1
        var status = wh_sandbox_status()
        // WIDGET_HOST_SANDBOX_SKIP=landlock,seccomp leaves features out, to
        // see (and test) how the rest copes on a kernel that lacks them.
        let skipped = (getenv("WIDGET_HOST_SANDBOX_SKIP").map { String(cString: $0) } ?? "").split(separator: ",")
        let skip = (skipped.contains("landlock") ? Int32(WH_SANDBOX_SKIP_LANDLOCK) : 0)
            | (skipped.contains("seccomp") ? Int32(WH_SANDBOX_SKIP_SECCOMP) : 0)
        let readable = SandboxPaths.readable(plugin: path)
        let duplicates = readable.map { strdup($0) }
        defer { duplicates.forEach { free($0) } }
        _ = duplicates.map { UnsafePointer($0) }.withUnsafeBufferPointer { paths in
            wh_shim_sandbox_apply(data, paths.baseAddress, Int32(paths.count), PluginProcess.reportDescriptor, skip, &status)
        }
        var missing = withUnsafeBytes(of: status.missing) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if threadsBefore > 1 && status.landlock_abi > 0 {
            missing += (missing.isEmpty ? "" : "; ") + "Landlock on \(threadsBefore - 1) thread(s) started before the sandbox"
        }

        let link = ChildLink(fd: PluginProcess.socketDescriptor)
        ChildLink.shared = link
        link.watchForHangUp()
        let sandbox: JSONValue = [
            "no_new_privs": .bool(status.no_new_privs != 0), "seccomp": .bool(status.seccomp != 0),
            "landlock": .int(status.landlock_abi), "landlock_network": .bool(status.landlock_network != 0),
            "landlock_scoped": .bool(status.landlock_scoped != 0), "missing": .string(missing),
        ]
        link.send(Frame(.hello, fields: ["protocol": .int(Frame.protocolVersion), "pid": .int(getpid()), "sandbox": sandbox]))
        var server = Server(path: path, link: link)
        server.serve()
    }

    private static func workingDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return String(cString: buffer)
    }

    /// The plugin's one instance, driven by the host's calls.
    private struct Server {
        let path: String
        let link: ChildLink
        var plugin: LoadedPlugin?
        var handle: OpaquePointer?

        init(path: String, link: ChildLink) {
            self.path = path
            self.link = link
        }

        mutating func serve() -> Never {
            while true {
                let call = link.nextCall()
                let fields = call.fields
                switch fields["call"]?.string {
                case "create":
                    link.answer(call, create(fields["manifest"]))
                case "render":
                    guard let plugin, let handle, let screen = fields["screen"]?.string else { link.answer(call, failed); continue }
                    let buffer = OutputBuffer(limit: PluginInstance.maxRenderBytes)
                    let params = fields["params"]?.string ?? "{}"
                    let status = buffer.withOutput { out in plugin.descriptor.render!(handle, screen, params, out) }
                    link.answer(call, ["status": .int(status), "overflow": .bool(buffer.overflowed)],
                                body: buffer.overflowed ? [] : buffer.bytes)
                case "query":
                    guard let plugin, let handle, let id = fields["query"]?.string else { link.answer(call, failed); continue }
                    guard let query = plugin.descriptor.query else {
                        link.answer(call, ["status": .int(WH_UNKNOWN_QUERY.rawValue)])
                        continue
                    }
                    let buffer = OutputBuffer(limit: PluginInstance.maxRenderBytes)
                    let status = buffer.withOutput { out in query(handle, id, out) }
                    link.answer(call, ["status": .int(status), "overflow": .bool(buffer.overflowed)],
                                body: buffer.overflowed ? [] : buffer.bytes)
                case "action":
                    guard let plugin, let handle, let action = fields["action"]?.string else { link.answer(call, failed); continue }
                    let status = fields["value"]?.string.map { value in
                        value.withCString { plugin.descriptor.handle_action!(handle, action, $0) }
                    } ?? plugin.descriptor.handle_action!(handle, action, nil)
                    link.answer(call, ["status": .int(status)])
                case "event":
                    if let plugin, let handle, let topic = fields["topic"]?.string, let payload = fields["payload"]?.string {
                        plugin.descriptor.on_event!(handle, topic, payload)
                    }
                    link.answer(call, ["status": .int(WH_OK.rawValue)])
                case "destroy":
                    if let plugin, let handle { plugin.descriptor.destroy!(handle) }
                    link.answer(call, ["status": .int(WH_OK.rawValue)])
                    _exit(0)
                default:
                    link.answer(call, ["error": "unknown call"])
                }
            }
        }

        private var failed: JSONValue { ["status": .int(WH_FAILED.rawValue)] }

        /// The load handshake against the manifest the host read, then the
        /// plugin's `create` with the forwarding `wh_host`.
        private mutating func create(_ manifestJSON: JSONValue?) -> JSONValue {
            guard plugin == nil else { return ["error": "the plugin is already created", "code": "create"] }
            let manifest: Manifest
            do { manifest = try Manifest(json: manifestJSON ?? .null) } catch {
                return ["error": .string(error.description), "code": "load"]
            }
            do {
                plugin = try Loader.load(path: path, manifest: manifest, serviceIDs: Set(ServiceTable.all.map(\.id)))
            } catch {
                return ["error": .string(error.description), "code": "load"]
            }
            guard let created = plugin!.descriptor.create!(ChildServices.host) else {
                return ["error": .string(WidgetCallError.createFailed.description), "code": "create"]
            }
            handle = created
            return ["status": .int(WH_OK.rawValue)]
        }
    }
}

