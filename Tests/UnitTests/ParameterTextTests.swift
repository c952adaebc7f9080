import Glibc
import Testing
import PluginKit
@testable import WidgetHostKit

/// The text an isolated plugin reads its render parameters from: made
/// again whenever they change, whatever came before.
@Suite("ParameterText")
struct ParameterTextTests {
    private static func read(_ text: inout ParameterText, _ params: JSONValue) -> String {
        text.with(params) { String(cString: $0) }
    }

    @Test("each render reads its own parameters, through changes and back")
    func followsChanges() throws {
        var text = ParameterText()
        let a: JSONValue = ["trip": "a"], b: JSONValue = ["trip": "b", "n": .number("1")]
        #expect(Self.read(&text, [:]) == "{}")
        #expect(Self.read(&text, a) == #"{"trip":"a"}"#)
        #expect(Self.read(&text, a) == #"{"trip":"a"}"#)
        #expect(Self.read(&text, b) == #"{"trip":"b","n":1}"#)
        #expect(Self.read(&text, a) == #"{"trip":"a"}"#)
        // Equal by value is equal by text: a number's own text and the members' order count.
        #expect(Self.read(&text, ["n": .number("1.0")]) == #"{"n":1.0}"#)
        #expect(Self.read(&text, ["n": .number("1")]) == #"{"n":1}"#)
        #expect(Self.read(&text, ["x": 1, "y": 2]) == #"{"x":1,"y":2}"#)
        #expect(Self.read(&text, ["y": 2, "x": 1]) == #"{"y":2,"x":1}"#)
        // Before any render, and for null, the text is still a C string.
        var fresh = ParameterText()
        #expect(Self.read(&fresh, .null) == "null")
    }

    @Test("the text ends in a NUL right after the JSON, whatever was longer before")
    func terminated() {
        var text = ParameterText()
        _ = Self.read(&text, ["long": .string(String(repeating: "x", count: 500))])
        let length = text.with([:]) { strlen($0) }
        #expect(length == 2)
    }

    @Test("large parameters' memory is let go when they change")
    func largeLetGo() {
        var text = ParameterText()
        _ = Self.read(&text, ["big": .string(String(repeating: "y", count: 4 * Frame.keptBytes))])
        #expect(text.capacity > Frame.keptBytes)
        #expect(Self.read(&text, [:]) == "{}")
        #expect(text.capacity <= Frame.keptBytes)
    }
}
