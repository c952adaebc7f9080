import Foundation
import Testing
@testable import TestSupport

/// The line length `.swift-format` states is the one the code keeps: a
/// check in the suite, since the formatter is not run over the tree.
@Suite("Source style")
struct SourceStyleTests {
    @Test("no Swift line in Sources, Plugins or Tests is longer than .swift-format's lineLength")
    func lineLength() throws {
        let root = TestSupport.packageRoot
        let configuration = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/.swift-format")))
        let limit = try #require((configuration as? [String: Any])?["lineLength"] as? Int, ".swift-format states no lineLength")
        var checked = 0
        var long: [String] = []
        for folder in ["Sources", "Plugins", "Tests"] {
            let enumerator = FileManager.default.enumerator(atPath: root + "/" + folder)
            while let path = enumerator?.nextObject() as? String {
                guard path.hasSuffix(".swift") else { continue }
                let text = try String(contentsOfFile: root + "/" + folder + "/" + path, encoding: .utf8)
                checked += 1
                for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.count > limit {
                    long.append("\(folder)/\(path):\(index + 1): \(line.count) characters")
                }
            }
        }
        #expect(checked > 100, "found only \(checked) Swift files under \(root)")
        #expect(long.isEmpty, "lines over \(limit) characters:\n\(long.joined(separator: "\n"))")
    }

    @Test("no Locked or Mutex in Sources or Plugins holds a bare closure: each access would wrap it in one more thunk, kept (issue 25)")
    func noBareClosureInALock() throws {
        let root = TestSupport.packageRoot
        // `Locked<(() -> Void)?>`, `Mutex<@Sendable () -> Void>`: a closure (optional or not) as the lock's whole value.
        let bare = try Regex(#"\b(Locked|Mutex)<\(?\s*(@Sendable\s*)?\([^<>]*\)\s*(throws\s*)?->"#)
        var checked = 0
        var found: [String] = []
        for folder in ["Sources", "Plugins"] {
            let enumerator = FileManager.default.enumerator(atPath: root + "/" + folder)
            while let path = enumerator?.nextObject() as? String {
                guard path.hasSuffix(".swift") else { continue }
                let text = try String(contentsOfFile: root + "/" + folder + "/" + path, encoding: .utf8)
                checked += 1
                for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") && line.contains(bare) {
                    found.append("\(folder)/\(path):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(checked > 100, "found only \(checked) Swift files under \(root)")
        #expect(found.isEmpty, "put the closure in a struct field instead:\n\(found.joined(separator: "\n"))")
        #expect(#"private let wake = Locked<(@Sendable () -> Void)?>(nil)"#.contains(bare), "the check no longer sees the pattern that leaked")
    }

    @Test("no text in Sources, Plugins, Tests, docs or Examples is UTF-8 decoded twice or holds a C1 control (Checkout's help had one)")
    func noDoublyEncodedText() throws {
        let root = TestSupport.packageRoot
        // U+00E2 U+20AC begins "…", "’" or "–" read as Windows-1252; U+00C3 and a Latin-1 character, "é" and its kin.
        let garbled = try Regex(#"[\u{80}-\u{9F}\u{FFFD}]|\u{E2}\u{20AC}|\u{C3}[\u{80}-\u{BF}]"#)
        var checked = 0
        var found: [String] = []
        for folder in ["Sources", "Plugins", "Tests", "docs", "Examples"] {
            let enumerator = FileManager.default.enumerator(atPath: root + "/" + folder)
            while let path = enumerator?.nextObject() as? String {
                guard [".swift", ".json", ".md", ".c", ".h"].contains(where: path.hasSuffix),
                      let text = try? String(contentsOfFile: root + "/" + folder + "/" + path, encoding: .utf8) else { continue }
                checked += 1
                for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains(garbled) {
                    found.append("\(folder)/\(path):\(index + 1)")
                }
            }
        }
        #expect(checked > 100, "found only \(checked) text files under \(root)")
        #expect(found.isEmpty, "doubly encoded text or C1 controls:\n\(found.joined(separator: "\n"))")
        // The bytes of "…" read as Latin-1, as the manifest had them, and as Windows-1252.
        #expect("payments of \u{E2}\u{80}\u{A6}".contains(garbled) && "payments of \u{E2}\u{20AC}\u{A6}".contains(garbled))
        #expect(!"payments of … in €, café".contains(garbled))
    }

}
