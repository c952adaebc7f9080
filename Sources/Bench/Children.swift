import Foundation
import Glibc
import WidgetHostKit

/// Measurements that must run in a fresh process: a plugin can be loaded
/// only once per process (it is never unloaded), and resident memory is a
/// process's own. The benchmark runs itself with a hidden mode and reads the
/// figure the child prints.
enum Children {
    static let modes = ["__dlopen", "__load", "__rss"]

    /// Runs a child mode and returns the number it prints.
    static func run(_ mode: String, _ arguments: [String]) throws -> [Double] {
        let result = try runProcess(["/proc/self/exe", mode] + arguments)
        guard result.status == 0 else { throw BenchError("\(mode) failed: \(result.output)") }
        return result.output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
    }

    /// Entry for a child: prints its figures and returns the exit status.
    static func main(_ mode: String, _ arguments: [String]) -> Int32 {
        switch mode {
        case "__dlopen":
            // dlopen + dlsym of every plugin in a directory: the floor for
            // hosts that must load a plugin to list it.
            let directory = arguments[0]
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".so") }) ?? []
            let start = Measure.nanoseconds()
            for name in names {
                guard let handle = dlopen(directory + "/" + name, RTLD_NOW | RTLD_LOCAL), dlsym(handle, "widget_host_entry") != nil else {
                    return 1
                }
            }
            print(Double(Measure.nanoseconds() - start) / Double(max(names.count, 1)))
        case "__load":
            // A plugin's full load: manifest read, dlopen and the handshake;
            // then raw dlopen + dlsym of the same file in the same state is
            // not possible, so "raw" mode measures that alone.
            let path = arguments[0]
            if arguments.count > 1 && arguments[1] == "raw" {
                let start = Measure.nanoseconds()
                guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL), dlsym(handle, "widget_host_entry") != nil else { return 1 }
                print(Double(Measure.nanoseconds() - start))
            } else {
                let services = Bench.runtime().serviceIDs
                let start = Measure.nanoseconds()
                let candidate = Discovery(availableServices: services).inspect(path: path)
                guard let manifest = candidate.manifest,
                      (try? Loader.load(path: path, manifest: manifest, serviceIDs: services)) != nil else { return 1 }
                print(Double(Measure.nanoseconds() - start))
            }
        case "__rss":
            // Resident memory before and after loading each plugin in turn.
            let runtime = Bench.runtime()
            var figures = [residentBytes()]
            for path in arguments {
                let candidate = Discovery(availableServices: runtime.serviceIDs).inspect(path: path)
                guard let manifest = candidate.manifest,
                      let plugin = try? Loader.load(path: path, manifest: manifest, serviceIDs: runtime.serviceIDs),
                      let instance = try? PluginInstance(plugin: plugin, runtime: runtime) else { return 1 }
                _ = try? instance.render(screen: manifest.screens[0].id)
                keep.append(instance)
                figures.append(residentBytes())
            }
            print(figures.map { String($0) }.joined(separator: " "))
        default:
            return 2
        }
        return 0
    }

    nonisolated(unsafe) private static var keep: [PluginInstance] = []

    static func residentBytes() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return .nan }
        let fields = text.split(separator: " ")
        return (Double(fields[1]) ?? .nan) * Double(sysconf(Int32(_SC_PAGESIZE)))
    }

    static func runProcess(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
