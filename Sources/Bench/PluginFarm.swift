import Foundation
import Glibc

/// Builds the plugins the benchmark measures: N distinct C plugins made from
/// one compiled hello.c by rewriting its id in each copy (compiling a
/// thousand would take longer than measuring them), and the no-op plugin.
struct PluginFarm {
    let root: String
    let sourceRoot: String

    init() throws {
        sourceRoot = ProcessInfo.processInfo.environment["WIDGET_HOST_SOURCE_ROOT"] ?? {
            var path = #filePath   // <root>/Sources/Bench/PluginFarm.swift
            for _ in 0..<3 { path = (path as NSString).deletingLastPathComponent }
            return path
        }()
        root = NSTemporaryDirectory() + "widget-host-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }

    static let templateID = "org.bench.p000000"

    /// Compiles a fixture plugin with cc.
    func compile(_ source: String, to output: String, defines: [String] = []) throws {
        // -Wa,-I: the fixture embeds its manifest file by name (WH_MANIFEST_FILE("noop.widget.json")).
        let fixtures = sourceRoot + "/Tests/Fixtures/plugins"
        let arguments = ["cc", "-shared", "-fPIC", "-O2", "-I", sourceRoot + "/Sources/PluginABI/include", "-Wa,-I," + fixtures] + defines
            + [fixtures + "/" + source, "-o", output]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError("cc failed: \(arguments.joined(separator: " "))") }
    }

    /// A directory of `count` distinct plugins (ids org.bench.p000000 ...).
    func plugins(count: Int) throws -> String {
        let template = root + "/template.so"
        if !FileManager.default.fileExists(atPath: template) {
            try compile("hello.c", to: template, defines: ["-DPLUGIN_ID=\"\(Self.templateID)\""])
        }
        let directory = root + "/plugins-\(count)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: template)))
        let needle = Array(Self.templateID.utf8)
        let offsets = bytes.indices.filter { bytes[$0] == needle[0] && bytes[$0..<min($0 + needle.count, bytes.count)].elementsEqual(needle) }
        guard !offsets.isEmpty else { throw BenchError("the template plugin does not contain its id") }
        for index in 0..<count {
            var copy = bytes
            let id = Array(String(format: "org.bench.p%06d", index).utf8)
            for offset in offsets { copy.replaceSubrange(offset..<offset + id.count, with: id) }
            let path = directory + String(format: "/p%06d.so", index)
            guard FileManager.default.createFile(atPath: path, contents: Data(copy), attributes: [.posixPermissions: 0o755]) else {
                throw BenchError("cannot write \(path)")
            }
        }
        return directory
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
