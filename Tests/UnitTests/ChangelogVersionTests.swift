import Foundation
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// A release is tagged `vX.Y.Z` on the commit whose `--version` prints X.Y.Z,
/// and the changelog's newest section is that version: the three must agree,
/// or a tag would name notes that do not describe it.
@Suite("The changelog and --version")
struct ChangelogVersionTests {
    static func sectionVersions() throws -> [String] {
        let text = try String(contentsOfFile: TestSupport.packageRoot + "/CHANGELOG.md", encoding: .utf8)
        return text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("## "), let first = line.dropFirst(3).split(separator: " ").first,
                first.first?.isNumber == true
            else { return nil }
            return String(first)
        }
    }

    @Test("the newest section is the version the host prints")
    func newestIsCurrent() throws {
        let versions = try Self.sectionVersions()
        #expect(versions.first == WidgetHostCLI.version, "CHANGELOG.md's newest section: \(versions.first ?? "none")")
    }

    @Test("every section names a version once, newest first")
    func sectionsOrdered() throws {
        let versions = try Self.sectionVersions()
        #expect(!versions.isEmpty)
        #expect(Set(versions).count == versions.count)
        for (newer, older) in zip(versions, versions.dropFirst()) {
            #expect(InstallCommand.compareVersions(newer, older) > 0, "\(newer) is listed above \(older)")
        }
    }
}
