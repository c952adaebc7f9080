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
    }

    @Test func aCellCannotMoveTheCursor() {
        let rendered = TextTable(rows: [["\u{1B}[2Jx", "y"]]).render()
        #expect(!rendered.contains("\u{1B}"))
        #expect(rendered.hasSuffix("y\n"))
    }
}
