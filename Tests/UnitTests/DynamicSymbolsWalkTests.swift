import Testing
@testable import WidgetHostKit

/// The walk that finds a name by its prefix (the check for a second PluginKit
/// module) on string tables a hostile file could hold: it finds what is
/// there, the first symbol that has it, and never reads past the table.
@Suite struct DynamicSymbolsWalkTests {
    /// A .dynsym of symbols whose names start at `offsets` (the rest of each
    /// 24-byte entry zero), with `strings` as its .dynstr.
    static func symbols(_ offsets: [UInt32], _ strings: String) -> DynamicSymbols {
        var table: [UInt8] = []
        for offset in offsets {
            withUnsafeBytes(of: offset.littleEndian) { table += $0 }
            table += [UInt8](repeating: 0, count: DynamicSymbols.entrySize - 4)
        }
        return DynamicSymbols(table: table, strings: Array(strings.utf8))
    }

    static let prefix = Array("$s9PluginKit".utf8)

    @Test func findsTheFirstSymbolWithThePrefix() {
        let strings = "\0$s12CryptoPlugin4mainyyF\0$s9PluginKit4JSONV\0$s9PluginKit5ClockV\0"
        let symbols = Self.symbols([0, 1, 45, 26], strings)
        #expect(symbols.firstName(startingWith: Self.prefix) == "$s9PluginKit5ClockV")
    }

    @Test func aPrefixInsideANameIsNotAStart() {
        let symbols = Self.symbols([1], "\0$s4Mine9$s9PluginKitV\0")
        #expect(symbols.firstName(startingWith: Self.prefix) == nil)
        // Pointing into the middle of that name is a name that starts with it.
        #expect(Self.symbols([9], "\0$s4Mine9$s9PluginKitV\0").firstName(startingWith: Self.prefix) == "$s9PluginKitV")
    }

    @Test func shortAndEmptyTablesFindNothing() {
        #expect(Self.symbols([0], "").firstName(startingWith: Self.prefix) == nil)
        #expect(Self.symbols([0, 1, 2], "$s9").firstName(startingWith: Self.prefix) == nil)
        #expect(Self.symbols([], "$s9PluginKit\0").firstName(startingWith: Self.prefix) == nil)
        #expect(DynamicSymbols(table: [1, 2, 3], strings: Array("$s9PluginKit".utf8)).firstName(startingWith: Self.prefix) == nil)
        #expect(Self.symbols([0], "$s9PluginKit\0").firstName(startingWith: []) == nil)
    }

    @Test func offsetsPastTheTableAreSkipped() {
        let strings = "\0$s9PluginKitX"   // 14 bytes, no NUL at the end
        for offset: UInt32 in [.max, 14, 13, 3] {
            #expect(Self.symbols([offset], strings).firstName(startingWith: Self.prefix) == nil, "\(offset)")
        }
        // The last place it fits, with no NUL after it: found, cut at the table's end.
        #expect(Self.symbols([.max, 2], "\0\0$s9PluginKit").firstName(startingWith: Self.prefix) == "$s9PluginKit")
    }

    @Test func prefixesShorterThanFourBytes() {
        let symbols = Self.symbols([0, 4], "abc\0$s1\0")
        #expect(symbols.firstName(startingWith: Array("$s".utf8)) == "$s1")
        #expect(symbols.firstName(startingWith: Array("a".utf8)) == "abc")
        #expect(symbols.firstName(startingWith: Array("$t".utf8)) == nil)
    }

    @Test func aLongNameIsCutForTheMessage() {
        let name = "$s9PluginKit" + String(repeating: "x", count: 300)
        let found = Self.symbols([0], name + "\0").firstName(startingWith: Self.prefix)
        #expect(found == String(name.prefix(200)))
    }
}
