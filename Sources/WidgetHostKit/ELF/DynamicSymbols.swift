import Glibc

/// A plugin's dynamic symbols (.dynsym and its strings), searched the way the
/// dynamic linker searches them: by the GNU hash table (.gnu.hash, which every
/// toolchain emits by default) when there is one, so finding the entry symbol
/// costs a few reads, not a walk over every symbol (thousands in a Swift
/// plugin). A file without the table is walked.
struct DynamicSymbols {
    enum Lookup { case hashTable, linearWalk }

    private let table: [UInt8]
    private let strings: [UInt8]
    private let hash: GNUHashTable?

    static let entrySize = 24

    /// Nil when the file has no .dynsym.
    init?(sections: [Section], file: borrowing ReadOnlyFile) throws(ELFError) {
        guard let index = sections.firstIndex(where: { $0.type == 11 }) else { return nil }   // SHT_DYNSYM
        let symbols = sections[index]
        guard Int(symbols.link) < sections.count else { throw .corrupt(".dynsym links to section \(symbols.link)") }
        table = try ELFImage.contents(of: symbols, in: file, limit: ELFImage.maxSymbolTable, what: ".dynsym")
        strings = try ELFImage.contents(of: sections[Int(symbols.link)], in: file, limit: ELFImage.maxStringTable, what: ".dynstr")
        // SHT_GNU_HASH, for this symbol table.
        if let section = sections.first(where: { $0.type == 0x6FFF_FFF6 && Int($0.link) == index }) {
            let bytes = try ELFImage.contents(of: section, in: file, limit: ELFImage.maxSymbolTable, what: ".gnu.hash")
            hash = try GNUHashTable(bytes, symbolCount: table.count / Self.entrySize)
        } else {
            hash = nil
        }
    }

    /// A symbol table and its strings taken as they are, without a hash
    /// table: what a hostile file could hold, for the walk's tests.
    init(table: [UInt8], strings: [UInt8]) {
        self.table = table
        self.strings = strings
        hash = nil
    }

    var count: Int { table.count / Self.entrySize }
    var hasHashTable: Bool { hash != nil }

    /// Whether a defined global or weak function named `name`, with default
    /// or protected visibility, is exported: what dlsym would find.
    func exportsFunction(_ name: [UInt8], lookup: Lookup = .hashTable) -> Bool {
        if lookup == .hashTable, let hash {
            return hash.candidates(for: name).contains { isExportedFunction($0) && self.name(at: $0, equals: name) }
        }
        return (0..<count).contains { isExportedFunction($0) && self.name(at: $0, equals: name) }
    }

    /// The first name, defined or referenced, that starts with `prefix` (at
    /// most 200 bytes of it, for a message). A walk over each symbol's first
    /// bytes: a Swift plugin's thousand names fill tens of kilobytes, which
    /// a search of the whole string table would read (four times the cost).
    func firstName(startingWith prefix: [UInt8]) -> String? {
        guard !prefix.isEmpty else { return nil }
        let found: Int? = table.withUnsafeBytes { symbols in
            strings.withUnsafeBytes { names in
                prefix.withUnsafeBytes { wanted in
                    // Most Swift names share their first bytes ("$s"): four compared at once.
                    let lead = wanted.count >= 4 ? wanted.loadUnaligned(as: UInt32.self) : nil
                    for index in 0..<count {
                        let offset = Int(UInt32(littleEndian: symbols.loadUnaligned(fromByteOffset: index * Self.entrySize, as: UInt32.self)))
                        guard offset <= names.count - wanted.count else { continue }
                        if let lead, names.loadUnaligned(fromByteOffset: offset, as: UInt32.self) != lead { continue }
                        guard memcmp(names.baseAddress! + offset, wanted.baseAddress!, wanted.count) == 0 else { continue }
                        return offset
                    }
                    return nil
                }
            }
        }
        guard let offset = found else { return nil }
        let end = strings[offset...].firstIndex(of: 0) ?? strings.count
        return String(decoding: strings[offset..<min(end, offset + 200)], as: UTF8.self)
    }

    /// Every name in the table (for tests that compare the two lookups).
    var names: [[UInt8]] {
        (0..<count).map { index in
            let offset = Int(Bytes(table, littleEndian: true).u32(index * Self.entrySize))
            guard offset < strings.count else { return [] }
            return Array(strings[offset..<(strings[offset...].firstIndex(of: 0) ?? strings.count)])
        }
    }

    private func isExportedFunction(_ index: Int) -> Bool {
        let start = index * Self.entrySize
        let info = table[start + 4], visibility = table[start + 5] & 3
        let sectionIndex = Bytes(table, littleEndian: true).u16(start + 6)
        return info & 0xF == 2 && (info >> 4 == 1 || info >> 4 == 2) && (visibility == 0 || visibility == 3) && sectionIndex != 0
    }

    /// Whether the NUL-terminated name of symbol `index` is `expected`; a
    /// name that runs off the end of the table matches nothing.
    private func name(at index: Int, equals expected: [UInt8]) -> Bool {
        let offset = Int(Bytes(table, littleEndian: true).u32(index * Self.entrySize)), end = offset + expected.count
        guard end < strings.count, strings[end] == 0 else { return false }
        return strings[offset..<end].elementsEqual(expected)
    }
}

/// The GNU hash table (DT_GNU_HASH) of a 64-bit ELF file: a Bloom filter,
/// buckets, and a chain of hashes parallel to the hashed part of .dynsym.
/// Every count in it is checked against the section's size and the symbol
/// table's, so a hostile table is refused, never read out of bounds.
struct GNUHashTable {
    private let bytes: Bytes
    private let bucketCount: Int, symbolOffset: Int, bloomWords: Int, bloomShift: UInt32
    private let bucketsStart: Int, chainStart: Int, symbolCount: Int

    init(_ section: [UInt8], symbolCount: Int) throws(ELFError) {
        bytes = Bytes(section, littleEndian: true)
        guard section.count >= 16 else { throw .corrupt(".gnu.hash is \(section.count) bytes, shorter than its header") }
        bucketCount = Int(bytes.u32(0))
        symbolOffset = Int(bytes.u32(4))
        bloomWords = Int(bytes.u32(8))
        bloomShift = bytes.u32(12)
        bucketsStart = 16 + bloomWords * 8
        chainStart = bucketsStart + bucketCount * 4
        self.symbolCount = symbolCount
        // The dynamic linker masks with bloomWords - 1: a power of two.
        guard bucketCount > 0, bloomWords > 0, bloomWords & (bloomWords - 1) == 0, chainStart <= section.count else {
            throw .corrupt(".gnu.hash: \(bucketCount) buckets and \(bloomWords) Bloom words do not fit its \(section.count) bytes")
        }
        guard symbolOffset <= symbolCount, (section.count - chainStart) / 4 >= symbolCount - symbolOffset else {
            throw .corrupt(".gnu.hash does not cover the \(symbolCount) symbols of .dynsym")
        }
    }

    /// The indexes of the symbols whose hash is `name`'s (the caller compares
    /// the names themselves).
    func candidates(for name: [UInt8]) -> [Int] {
        let hash = name.reduce(UInt32(5381)) { $0 &* 33 &+ UInt32($1) }
        let word = bytes.u64(16 + Int((hash / 64) % UInt32(bloomWords)) * 8)
        let mask = UInt64(1) << (hash % 64) | UInt64(1) << ((hash >> bloomShift) % 64)
        guard word & mask == mask else { return [] }
        var index = Int(bytes.u32(bucketsStart + Int(hash % UInt32(bucketCount)) * 4))
        guard index >= symbolOffset else { return [] }   // 0: an empty bucket
        var found: [Int] = []
        // Each step moves to the next symbol, so a chain without its end bit stops at the table's end.
        while index < symbolCount {
            let chained = bytes.u32(chainStart + (index - symbolOffset) * 4)
            if chained | 1 == hash | 1 { found.append(index) }
            if chained & 1 == 1 { break }
            index += 1
        }
        return found
    }
}
