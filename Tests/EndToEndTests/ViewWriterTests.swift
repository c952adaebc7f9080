import Foundation
import PluginABI
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The C helper `widget_host/view_writer.h`: what it writes is a view the host
/// parses, with every string escaped (a title with a quote, a backslash or a
/// control character comes back as it went in), and a refused write turns
/// into WH_FAILED. Its inline functions are called here through the C module,
/// and a C file using it is compiled with the warnings C plugin tests use.
@Suite("C view writer")
struct ViewWriterTests {
    /// Writes a vstack of a text and a button through the helper into a host
    /// output buffer of `limit` bytes; returns the status and the bytes.
    static func write(title: String, button: String, value: String?, error: String? = nil, limit: Int = 4096) -> (Int32, [UInt8]) {
        let buffer = OutputBuffer(limit: limit)
        let status = buffer.withOutput { out -> Int32 in
            var writer = wh_view_writer()
            wh_view_begin(&writer, out)
            wh_node_begin(&writer, "vstack")
            wh_children_begin(&writer)
            wh_text(&writer, title, "title")
            wh_button(&writer, button, "greet", value)
            wh_children_end(&writer)
            wh_node_end(&writer)
            if let error { wh_view_error(&writer, error) }
            return wh_view_end(&writer)
        }
        return (status, buffer.bytes)
    }

    @Test("wh_view_error declares the screen's error state, escaped, and the host reads it")
    func errorState() throws {
        let message = #"Price "unavailable": \ timed out"# + "\n"
        let (status, bytes) = Self.write(title: "Bitcoin", button: "Retry", value: nil, error: message)
        #expect(status == Int32(WH_OK.rawValue))
        #expect(try ViewDescription.parse(bytes).error == message)
        #expect(try ViewDescription.parse(Self.write(title: "Bitcoin", button: "Retry", value: nil).1).error == nil)
    }

    @Test("strings with quotes, backslashes and control characters survive", arguments: [
        "plain", #"say "hi""#, #"back\slash"#, "tab\tand\nnewline", "bell\u{07}", "naïve ✓", "",
    ])
    func escaping(text: String) throws {
        let (status, bytes) = Self.write(title: text, button: text, value: text)
        #expect(status == Int32(WH_OK.rawValue))
        let node = try ViewDescription.parse(bytes).root
        #expect(node == .stack(axis: .vertical, children: [
            .text(text, style: .title, color: .primary),
            .button(title: text, action: "greet", value: text),
        ]))
    }

    @Test("a NULL attribute is left out")
    func nullAttribute() throws {
        let (_, bytes) = Self.write(title: "t", button: "b", value: nil)
        #expect(!String(decoding: bytes, as: UTF8.self).contains("value"))
        #expect(try ViewDescription.parse(bytes).root == .stack(axis: .vertical, children: [
            .text("t", style: .title, color: .primary), .button(title: "b", action: "greet", value: nil),
        ]))
    }

    @Test("a refused write makes the render fail, and nothing more is written")
    func refusedWrite() {
        let (status, bytes) = Self.write(title: String(repeating: "x", count: 100), button: "b", value: nil, limit: 40)
        #expect(status == Int32(WH_FAILED.rawValue))
        #expect(bytes.count <= 40)
    }

    @Test("the header compiles as C with -Wall -Wextra -Werror")
    func compilesAsC() throws {
        let directory = try TestSupport.makeTemporaryDirectory("view-writer")
        let source = directory + "/uses_writer.c"
        try Data("""
            #include "widget_host/widget_host.h"
            #include "widget_host/view_writer.h"
            int32_t draw(const wh_output *out, const char *title) {
                wh_view_writer w;
                wh_view_begin(&w, out);
                wh_text(&w, title, NULL);
                return wh_view_end(&w);
            }
            """.utf8).write(to: URL(fileURLWithPath: source))
        try TestSupport.compileC(source: source, output: directory + "/uses_writer.so")
        #expect(FileManager.default.fileExists(atPath: directory + "/uses_writer.so"))
    }
}
