// libFuzzer targets for the parsers that read bytes someone else wrote.
// Built by tools/fuzz.sh only (never by `swift build`): one binary, the
// target chosen by WIDGET_HOST_FUZZ_TARGET. A target traps (a crash to
// libFuzzer) when an invariant breaks; bad input itself must only throw.
import Glibc
import PluginABI
@testable import WidgetHostKit

/// The targets by name, in the order tools/fuzz.sh runs them.
let targets: [String: ([UInt8]) -> Void] = [
    "elf": fuzzELF,
    "json": fuzzJSON,
    "view": fuzzView,
    "frames": fuzzFrames,
    "links": fuzzLinksAndTimes,
    "config": fuzzConfig,
]

let chosen: ([UInt8]) -> Void = {
    let name = getenv("WIDGET_HOST_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = targets[name] else {
        fputs("WIDGET_HOST_FUZZ_TARGET must be one of: \(targets.keys.sorted().joined(separator: ", "))\n", stderr)
        exit(2)
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    chosen(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// A file the targets that read from a path write each input to.
let scratchFile: String = {
    var template = Array("/tmp/widget-host-fuzz-XXXXXX".utf8CString)
    let descriptor = mkstemp(&template)
    guard descriptor >= 0 else { fatalError("mkstemp: \(errno)") }
    close(descriptor)
    let path = String(cString: template)
    atexit { unlink(scratchFile) }
    return path
}()

func writeScratch(_ bytes: [UInt8]) {
    let descriptor = open(scratchFile, O_WRONLY | O_TRUNC | O_CLOEXEC)
    guard descriptor >= 0 else { fatalError("open \(scratchFile): \(errno)") }
    defer { close(descriptor) }
    var written = 0
    while written < bytes.count {
        let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
        guard count > 0 else { fatalError("write: \(errno)") }
        written += count
    }
}

/// The ELF reader and the embedded manifest, as discovery inspects a file.
func fuzzELF(_ bytes: [UInt8]) {
    writeScratch(bytes)
    guard let image = try? ELFImage(path: scratchFile, manifestSection: WH_MANIFEST_SECTION, entrySymbol: WH_ENTRY_SYMBOL,
                                    reservedSymbolPrefix: "$s9PluginKit", maxManifestBytes: Int(WH_MANIFEST_MAX_BYTES)),
          let manifest = image.manifest else { return }
    precondition(manifest.count <= Int(WH_MANIFEST_MAX_BYTES), "a manifest over the limit was read")
    _ = try? Manifest(bytes: manifest)
}

/// JSON: what parses serializes to text that parses to the same value.
func fuzzJSON(_ bytes: [UInt8]) {
    guard let value = try? JSONParser.parse(bytes) else { return }
    let again = try? JSONParser.parse(value.serializedBytes)
    precondition(again == value, "serialized JSON did not parse back to the same value")
}

/// The view description and the terminal layout: the first byte picks the
/// width (0...200), and every line drawn fits it.
func fuzzView(_ bytes: [UInt8]) {
    guard let width = bytes.first.map({ Int($0) % 201 }), let screen = try? ViewDescription.parse(Array(bytes.dropFirst())) else { return }
    let renderer = TerminalRenderer(width: width, color: width % 2 == 0)
    let layout = renderer.layout(screen.root, title: screen.error ?? "Fuzz")
    let text = layout.text + layout.window(rows: width / 3, offset: width / 7) + renderer.footerLines(screen.error).joined()
    for line in text.split(separator: "\n") where !renderer.color {
        precondition(DisplayWidth.of(String(line)) <= max(width, 1), "a line is wider than \(width): \(line.debugDescription)")
    }
    _ = screen.root.json.serializedBytes
}

/// Isolation frames, fed in pieces as a pipe delivers them: the first byte
/// is the size of a piece.
func fuzzFrames(_ bytes: [UInt8]) {
    var decoder = FrameDecoder(limit: 1 << 16)
    let step = max(Int(bytes.first ?? 1), 1)
    var offset = 1
    while offset < bytes.count {
        decoder.append(bytes[offset..<min(offset + step, bytes.count)])
        offset += step
        do {
            while let frame = try decoder.next() {
                // What was read is written back to the same bytes' meaning.
                var again = FrameDecoder(limit: 1 << 17)
                again.append(frame.encoded())
                precondition((try? again.next()) == frame, "a frame does not read back as it was written")
            }
        } catch {
            return
        }
    }
}

/// Deep links and RFC 3339 timestamps, both typed by people and plugins.
func fuzzLinksAndTimes(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    if let target = try? NavigationTarget(link: text) {
        precondition(!target.plugin.isEmpty, "a link to no plugin parsed")
    }
    if let instant = ISO8601.parse(text) { _ = ISO8601.format(instant) }
}

/// The configuration file.
func fuzzConfig(_ bytes: [UInt8]) {
    writeScratch(bytes)
    _ = try? HostConfig.load(path: scratchFile, required: true)
}
