import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// `WH_MANIFEST_FILE("widget.json")` (widget_host/manifest.h): a C plugin
/// keeps its manifest as a plain JSON file and the assembler embeds it. The
/// host reads exactly that file's text from the section: a plugin whose file
/// agrees with its descriptor validates, and one whose file names another id
/// is listed under that id and fails the handshake's manifest match.
@Suite("Manifest from a file")
struct ManifestFileTests {
    static func manifest(id: String) -> String {
        """
        {
          "abi": "1.0", "id": "\(id)", "name": "Hello", "version": "1.0.0",
          "vendor": "Example", "description": "Says hello, in C.",
          "screens": [
            {"id": "main", "title": "Hello", "actions": ["wave", "rename"]},
            {"id": "about", "title": "About"}
          ],
          "services": {"required": ["widget-host.log/1"], "optional": []},
          "topics": {"publish": ["hello.from-widget-json"], "subscribe": ["hello.*"]}
        }
        """
    }

    /// hello.c built with its manifest taken from a widget.json holding `id`.
    static func build(id: String) throws -> String {
        let directory = try TestSupport.makeTemporaryDirectory("manifest-file")
        let json = directory + "/widget.json"
        try TestSupport.write(Array(manifest(id: id).utf8), to: json)
        try TestSupport.compileHello(defines: ["-DMANIFEST_FILE=\"\(json)\""], output: directory + "/hello.so")
        return directory + "/hello.so"
    }

    @Test("the file's JSON is the manifest the host reads, and the plugin validates")
    func embedded() throws {
        let path = try Self.build(id: "org.example.hello")
        let info = try TestSupport.runHost(["info", path, "--json"])
        #expect(info.stdout.contains("hello.from-widget-json"), "\(info)")
        let validate = try TestSupport.runHost(["validate", path])
        #expect(validate.status == 0, "\(validate)")
    }

    @Test("a file that disagrees with the descriptor fails the handshake")
    func disagreeing() throws {
        let path = try Self.build(id: "org.example.other")
        let validate = try TestSupport.runHost(["validate", path])
        #expect(validate.status == 1)
        #expect(validate.stdout.contains("FAIL  load"), "\(validate)")
    }
}
