import Foundation
import PluginABI
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// Every input that once crashed or hung a fuzz target (Tests/Fuzz/regressions)
/// and every seed (Tests/Fuzz/corpus), replayed through the same parser in
/// the ordinary test build, so that the fix stays without running a fuzzer.
/// tools/fuzz.sh feeds the same files to the libFuzzer targets.
@Suite("Fuzz inputs replayed")
struct FuzzRegressionTests {
    static let root = TestSupport.packageRoot + "/Tests/Fuzz"

    /// (target, file name, bytes) of every file under corpus/ and regressions/.
    static func inputs() throws -> [(target: String, name: String, bytes: [UInt8])] {
        var result: [(String, String, [UInt8])] = []
        for kind in ["corpus", "regressions"] {
            let base = root + "/" + kind
            for target in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] {
                for name in try FileManager.default.contentsOfDirectory(atPath: base + "/" + target) {
                    let data = try #require(FileManager.default.contents(atPath: base + "/\(target)/\(name)"))
                    result.append((target, "\(kind)/\(target)/\(name)", Array(data)))
                }
            }
        }
        return result
    }

    @Test("each target has seeds, and the layout hang inputs are kept as regressions")
    func corpusPresent() throws {
        let inputs = try Self.inputs()
        for target in ["elf", "json", "view", "frames", "links", "config"] {
            #expect(inputs.contains { $0.target == target && $0.name.hasPrefix("corpus/") }, "no seed for \(target)")
        }
        #expect(inputs.filter { $0.name.hasPrefix("regressions/view/") }.count >= 2)
    }

    @Test("every seed and regression input is parsed to an answer or a clear error, and a view laid out fits its width")
    func replay() throws {
        let inputs = try Self.inputs()
        Watchdog.ends("replaying \(inputs.count) fuzz inputs") { tick in
            for input in inputs {
                Self.replay(input.target, input.bytes, input.name)
                tick()
            }
        }
    }

    static func replay(_ target: String, _ bytes: [UInt8], _ name: String) {
        switch target {
        case "json":
            if let value = try? JSONParser.parse(bytes) { #expect((try? JSONParser.parse(value.serializedBytes)) == value, "\(name)") }
        case "view":
            guard let width = bytes.first.map({ Int($0) % 201 }), let screen = try? ViewDescription.parse(Array(bytes.dropFirst())) else {
                return
            }
            let renderer = TerminalRenderer(width: width, color: false)
            for line in renderer.layout(screen.root, title: "Fuzz").text.split(separator: "\n") {
                #expect(DisplayWidth.of(String(line)) <= max(width, 1), "\(name): \(line)")
            }
        case "frames":
            var decoder = FrameDecoder(limit: 1 << 16)
            decoder.append(bytes.dropFirst())
            while let frame = try? decoder.next() { _ = frame.encoded() }
        case "links":
            let text = String(decoding: bytes, as: UTF8.self)
            _ = try? NavigationTarget(link: text)
            _ = ISO8601.parse(text)
        case "elf", "config":
            // Read from a file, as the host reads them.
            guard let directory = try? TestSupport.makeTemporaryDirectory("fuzz-replay"),
                  (try? TestSupport.write(bytes, to: directory + "/input")) != nil else {
                Issue.record("cannot write \(name)")
                return
            }
            if target == "config" {
                _ = try? HostConfig.load(path: directory + "/input", required: true)
            } else if let image = try? ELFImage(path: directory + "/input", manifestSection: WH_MANIFEST_SECTION, entrySymbol: WH_ENTRY_SYMBOL,
                                                maxManifestBytes: Int(WH_MANIFEST_MAX_BYTES)), let manifest = image.manifest {
                _ = try? Manifest(bytes: manifest)
            }
        default:
            Issue.record("\(name): no target \(target)")
        }
    }
}
