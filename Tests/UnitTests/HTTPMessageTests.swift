import Foundation
import Testing
@testable import TestSupport
@testable import WidgetHostKit

@Suite("HTTP messages")
struct HTTPMessageTests {
    @Test("every status the server answers with has its reason phrase (a 422 went out as \"422 Status\")")
    func everyStatusHasItsPhrase() throws {
        let folder = TestSupport.packageRoot + "/Sources/WidgetHostKit/Web"
        let answered = try Regex(#"(?:\.text\(|status: )([1-5][0-9][0-9])\b"#)
        var statuses: Set<Int> = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".swift") {
            let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
            for match in text.matches(of: answered) { statuses.insert(Int(text[match.output[1].range!])!) }
        }
        #expect(statuses.isSuperset(of: [200, 303, 400, 403, 404, 405, 422, 502, 503]), "the scan missed statuses: \(statuses.sorted())")
        let unnamed = statuses.filter { HTTPResponse.reason($0) == HTTPResponse.reason(599) }
        #expect(unnamed.isEmpty, "statuses sent without a reason phrase: \(unnamed.sorted())")
        #expect(HTTPResponse.reason(422) == "Unprocessable Content" && HTTPResponse.reason(502) == "Bad Gateway")
    }
}
