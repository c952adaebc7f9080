import Testing
@testable import WidgetHostKit

/// `list`'s table: columns padded to the widest cell by display width, two
/// spaces between them, the last column never padded.
@Suite struct TextTableTests {
    @Test func padsEachColumnToItsWidestCell() {
        let table = TextTable(rows: [["ID", "NAME", "PATH"], ["org.example.a", "A", "/a.so"], ["b", "Longer name", "/plugins/b.so"]])
        #expect(table.render() == """
            ID             NAME         PATH
            org.example.a  A            /a.so
            b              Longer name  /plugins/b.so

            """)
    }

    @Test func padsByDisplayWidthNotByBytes() {
        // Each of these takes two columns, three bytes.
        let table = TextTable(rows: [["名前", "x"], ["ab", "y"]])
        #expect(table.render() == "名前  x\nab    y\n")
    }

    @Test func shortRowsAndEmptyTables() {
        #expect(TextTable(rows: []).render() == "")
        #expect(TextTable(rows: [[], []]).render() == "")
        #expect(TextTable(rows: [["one", "two"], ["three"]]).render() == "one    two\nthree\n")
        #expect(TextTable(rows: [["a"], ["bb", "c"]]).render() == "a\nbb  c\n")
        #expect(TextTable(rows: [["a", "b"], [], ["c"]]).render() == "a  b\n\nc\n")
    }

    @Test func aCellCannotMoveTheCursor() {
        let rendered = TextTable(rows: [["\u{1B}[2Jx", "y"], ["z", "w"]]).render()
        #expect(!rendered.contains("\u{1B}"))
        // Padded by what is shown: the first cell as cleaned, not as written.
        let lines = rendered.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].firstIndex(of: "y").map { lines[0].distance(from: lines[0].startIndex, to: $0) }
                    == lines[1].firstIndex(of: "w").map { lines[1].distance(from: lines[1].startIndex, to: $0) }, "\(rendered)")
    }
}
