import Foundation
import Testing
@testable import TestSupport

/// The manual is many pages that point at each other instead of repeating
/// themselves, so a link that leads nowhere loses a fact: every relative link
/// in the README, the changelog, docs/ and the widgets' pages must name a
/// file that exists and, with a #fragment, a heading in it.
@Suite("Documentation links")
struct DocumentationLinkTests {
    /// Pages another branch writes; a link to one is checked once it exists.
    static let pending: Set = ["docs/threat-model.md"]

    static func pages() throws -> [String] {
        let root = TestSupport.packageRoot
        let docs = try FileManager.default.contentsOfDirectory(atPath: root + "/docs").filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        let plugins = try FileManager.default.contentsOfDirectory(atPath: root + "/Plugins").map { "Plugins/\($0)/README.md" }
            .filter { FileManager.default.fileExists(atPath: root + "/" + $0) }
        return ["README.md", "CHANGELOG.md", "Plugins/README.md"] + docs + plugins
    }

    /// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
    static func anchors(_ text: String) -> Set<String> {
        var found: Set<String> = []
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { fenced.toggle() }
            guard !fenced, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            found.insert(String(title.compactMap { $0 == " " ? "-" : ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : nil) }))
        }
        return found
    }

    @Test("every relative link names a file that exists, and a heading in it")
    func linksResolve() throws {
        let root = TestSupport.packageRoot
        let pages = try Self.pages()
        #expect(pages.count >= 15, "found only \(pages)")
        var checked = 0
        for page in pages {
            let text = try String(contentsOfFile: root + "/" + page, encoding: .utf8)
            for match in text.matches(of: /\]\(([^)\s]+)\)/) {
                let link = String(match.output.1)
                guard !link.hasPrefix("http") else { continue }
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let directory = (page as NSString).deletingLastPathComponent
                let target = parts[0].isEmpty ? page : ((directory as NSString).appendingPathComponent(parts[0]) as NSString).standardizingPath
                if Self.pending.contains(target) && !FileManager.default.fileExists(atPath: root + "/" + target) { continue }
                checked += 1
                #expect(FileManager.default.fileExists(atPath: root + "/" + target), "\(page): \(link) leads to no file")
                if parts.count == 2, target.hasSuffix(".md"), let linked = try? String(contentsOfFile: root + "/" + target, encoding: .utf8) {
                    #expect(Self.anchors(linked).contains(parts[1]), "\(page): \(link) names no heading of \(target)")
                }
            }
        }
        #expect(checked > 50, "checked only \(checked) links")
    }
}
