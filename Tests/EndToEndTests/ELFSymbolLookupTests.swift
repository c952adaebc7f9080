import PluginABI
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The entry symbol is found through the GNU hash table, as the dynamic
/// linker finds it; these tests hold that lookup to the walk over every
/// symbol it replaced, on the shipped plugins and on C fixtures, and show a
/// hostile table refused rather than read out of bounds.
@Suite struct ELFSymbolLookupTests {
    private static func image(_ path: String) throws -> ELFImage {
        try ELFImage(path: path, manifestSection: WH_MANIFEST_SECTION, entrySymbol: WH_ENTRY_SYMBOL,
                     reservedSymbolPrefix: FileContents.hostModulePrefix, maxManifestBytes: Int(WH_MANIFEST_MAX_BYTES))
    }

    private static func compiledFixture(_ source: String, flags: [String] = []) throws -> String {
        let path = try TestSupport.makeTemporaryDirectory("elf-lookup") + "/lib\(source).so"
        try TestSupport.compileC(source: TestSupport.fixtureDirectory + "/\(source).c", flags: flags, output: path)
        return path
    }

    /// Every name in .dynsym, and each with a byte added, gets the same answer both ways.
    private static func expectLookupsAgree(_ path: String) throws {
        let symbols = try #require(try image(path).symbols)
        #expect(symbols.hasHashTable, "\(path) has no .gnu.hash, so the hash lookup was not exercised")
        let names = symbols.names.filter { !$0.isEmpty }
        var exported = 0
        for name in names {
            let walked = symbols.exportsFunction(name, lookup: .linearWalk)
            #expect(symbols.exportsFunction(name, lookup: .hashTable) == walked, "\(String(decoding: name, as: UTF8.self)) in \(path)")
            #expect(!symbols.exportsFunction(name + [0x5F], lookup: .hashTable))
            if walked { exported += 1 }
        }
        #expect(exported > 0)
        #expect(symbols.exportsFunction(Array(WH_ENTRY_SYMBOL.utf8), lookup: .hashTable))
    }

    @Test(arguments: TestSupport.swiftPlugins.map(\.file))
    func shippedPluginsAgreeWithTheWalk(_ file: String) throws {
        try Self.expectLookupsAgree(TestSupport.productsDirectory + "/" + file)
    }

    @Test(arguments: ["hello", "services", "noop", "views"])
    func fixturesAgreeWithTheWalk(_ source: String) throws {
        try Self.expectLookupsAgree(try Self.compiledFixture(source))
    }

    @Test func aFileWithoutTheHashTableIsWalked() throws {
        let path = try Self.compiledFixture("hello", flags: ["-Wl,--hash-style=sysv"])
        let image = try Self.image(path)
        #expect(image.symbols?.hasHashTable == false)
        #expect(image.exportsEntry)
        #expect(image.reservedSymbol == nil)
    }

    @Test func aSwiftPluginsReservedSymbolIsStillFound() throws {
        // Crypto holds its own aliased PluginKit, so the prefix of the host's module must not be found in it...
        let crypto = try Self.image(TestSupport.productsDirectory + "/libCryptoPlugin.so")
        #expect(crypto.reservedSymbol == nil)
        // ...while a prefix it does hold is, by the walk over each symbol's name.
        let symbols = try #require(crypto.symbols)
        let found = try #require(symbols.firstName(startingWith: Array("$s".utf8)))
        #expect(found.hasPrefix("$s"))
        #expect(symbols.firstName(startingWith: Array("$sNoSuchModuleAnywhere".utf8)) == nil)
    }

    /// A .gnu.hash whose Bloom filter is not a power of two words, or whose
    /// buckets run past the section, is refused with the section named.
    @Test(arguments: [(8, UInt64(3)), (0, UInt64(0xFFFF_FFFF)), (0, UInt64(0))])
    func aCorruptHashTableIsRefused(_ field: Int, _ value: UInt64) throws {
        let path = try Self.compiledFixture("hello")
        var elf = TestSupport.ELFBytes(try TestSupport.readBytes(path))
        let header = try #require(elf.sectionHeader(named: ".gnu.hash"))
        elf.set(value, at: Int(elf.u64(at: header + 24)) + field, width: 4)
        try TestSupport.write(elf.bytes, to: path)
        #expect {
            _ = try Self.image(path)
        } throws: { error in
            guard case let .corrupt(what)? = error as? ELFError else { return false }
            return what.contains(".gnu.hash")
        }
    }

    /// Random bytes in the table's buckets and chains: an answer or an
    /// error, never a read out of bounds (the fuzz target covers the rest).
    @Test func scrambledBucketsAndChainsNeverReadOutOfBounds() throws {
        let path = try Self.compiledFixture("hello")
        let original = TestSupport.ELFBytes(try TestSupport.readBytes(path))
        let header = try #require(original.sectionHeader(named: ".gnu.hash"))
        let start = Int(original.u64(at: header + 24)), size = Int(original.u64(at: header + 32))
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var elf = original
            for _ in 0..<4 { elf.bytes[start + 16 + Int.random(in: 0..<(size - 16), using: &random)] = UInt8.random(in: 0...255, using: &random) }
            try TestSupport.write(elf.bytes, to: path)
            if let symbols = (try? Self.image(path))?.symbols {
                _ = symbols.exportsFunction(Array(WH_ENTRY_SYMBOL.utf8))
            }
        }
    }
}
