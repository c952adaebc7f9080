/// What the host needs from a plugin's ELF file, read without loading it:
/// the embedded manifest, whether the entry symbol is exported, and whether
/// it names a symbol of a Swift module the host holds itself.
///
/// Every offset and size in the file is treated as hostile: each is checked
/// against the file's real size before it is read, and tables are capped, so
/// a corrupt or huge file costs a few small reads and ends in an `ELFError`.
struct ELFImage {
    /// The manifest section's text up to its first NUL, or nil if absent.
    let manifest: [UInt8]?
    /// Whether .dynsym defines `symbol` as an exported function.
    let exportsEntry: Bool
    /// The first .dynsym name, defined or referenced, that starts with the
    /// reserved prefix, or nil.
    let reservedSymbol: String?
    /// The dynamic symbols, nil when the file has none.
    let symbols: DynamicSymbols?

    static let maxSectionHeaders = 65_280        // SHN_LORESERVE
    static let maxStringTable = 16 << 20
    static let maxSymbolTable = 64 << 20

    init(path: String, manifestSection: String, entrySymbol: String, reservedSymbolPrefix: String? = nil,
         maxManifestBytes: Int) throws(ELFError) {
        let file: ReadOnlyFile
        do { file = try ReadOnlyFile(path: path) } catch { throw .file(error) }
        try self.init(file: file, manifestSection: manifestSection, entrySymbol: entrySymbol, reservedSymbolPrefix: reservedSymbolPrefix,
                      maxManifestBytes: maxManifestBytes)
    }

    init(file: borrowing ReadOnlyFile, manifestSection: String, entrySymbol: String, reservedSymbolPrefix: String? = nil,
         maxManifestBytes: Int) throws(ELFError) {
        if file.size == 0 { throw .empty }
        let header = try Self.read(file, offset: 0, count: min(Int(file.size), 64))
        guard header.count >= 4, header[0] == 0x7F, header[1] == 0x45, header[2] == 0x4C, header[3] == 0x46 else {
            throw .notELF
        }
        guard header.count >= 20 else { throw .truncated("the ELF header runs past the end") }
        let littleEndian = header[5] == 1
        guard header[5] == 1 || header[5] == 2 else { throw .corrupt("unknown byte order \(header[5])") }
        let machine = Bytes(header, littleEndian: littleEndian).u16(18)
        guard header[4] == 2, littleEndian == HostMachine.littleEndian, machine == HostMachine.elfMachine else {
            throw .foreignMachine(ELFMachine.name(machine), bits: header[4] == 1 ? 32 : 64)
        }
        guard header.count == 64 else { throw .truncated("the ELF header runs past the end") }
        let elf = Bytes(header, littleEndian: true)
        guard elf.u16(16) == 3 else { throw .notSharedObject(type: elf.u16(16)) }

        try Self.checkSegmentsFit(elf, file: file)
        let sectionTableOffset = elf.u64(0x28)
        let entrySize = Int(elf.u16(0x3A))
        let count = Int(elf.u16(0x3C))
        let namesIndex = Int(elf.u16(0x3E))
        guard count > 0 else { throw .corrupt("no section headers") }
        guard entrySize == 64 else { throw .corrupt("section header size \(entrySize), expected 64") }
        guard count <= Self.maxSectionHeaders, namesIndex < count else {
            throw .corrupt("section name table index \(namesIndex) of \(count) sections")
        }
        guard sectionTableOffset < file.size else {
            throw .corrupt("the section header table's offset \(sectionTableOffset) lies outside the \(file.size)-byte file")
        }
        let table = try Self.read(file, offset: sectionTableOffset, count: count * entrySize, what: "the section header table")
        let sections = (0..<count).map { Section(Bytes(table, littleEndian: true), at: $0 * entrySize) }

        let names = try Self.contents(of: sections[namesIndex], in: file, limit: Self.maxStringTable, what: "the section name table")
        let wanted = Array(manifestSection.utf8)
        if let section = sections.first(where: { Self.string(in: names, at: Int($0.nameOffset), equals: wanted) }) {
            let bytes = try Self.contents(of: section, in: file, limit: maxManifestBytes, what: "the manifest section")
            manifest = Array(bytes.prefix { $0 != 0 })
        } else {
            manifest = nil
        }
        let dynamic = try DynamicSymbols(sections: sections, file: file)
        symbols = dynamic
        exportsEntry = dynamic?.exportsFunction(Array(entrySymbol.utf8)) ?? false
        reservedSymbol = reservedSymbolPrefix.flatMap { dynamic?.firstName(startingWith: Array($0.utf8)) }
    }

    /// A file cut short is told apart from a corrupt offset by its program
    /// headers: the loadable segments say how long the file must be.
    private static func checkSegmentsFit(_ elf: Bytes, file: borrowing ReadOnlyFile) throws(ELFError) {
        let offset = elf.u64(0x20), entrySize = Int(elf.u16(0x36)), count = Int(elf.u16(0x38))
        guard count > 0 else { return }
        guard entrySize == 56 else { throw .corrupt("program header size \(entrySize), expected 56") }
        let table = try read(file, offset: offset, count: count * entrySize, what: "the program header table")
        let headers = Bytes(table, littleEndian: true)
        var needed: UInt64 = 0
        for start in stride(from: 0, to: table.count, by: entrySize) where headers.u32(start) == 1 {   // PT_LOAD
            let (end, overflow) = headers.u64(start + 8).addingReportingOverflow(headers.u64(start + 32))
            guard !overflow else { throw .corrupt("a loadable segment's size overflows") }
            needed = max(needed, end)
        }
        if needed > file.size { throw .truncated("its segments need \(needed) bytes but the file has \(file.size)") }
    }

    private static func read(_ file: borrowing ReadOnlyFile, offset: UInt64, count: Int, what: String = "the ELF header") throws(ELFError) -> [UInt8] {
        do { return try file.read(offset: offset, count: count) } catch {
            if case .outOfBounds = error { throw .truncated("\(what) runs past the end") }
            throw .file(error)
        }
    }

    static func contents(of section: Section, in file: borrowing ReadOnlyFile, limit: Int, what: String) throws(ELFError) -> [UInt8] {
        guard section.type != 8 else { throw .corrupt("\(what) has no bytes in the file") }   // SHT_NOBITS
        guard section.size <= UInt64(limit) else { throw .tooLarge(what, size: section.size, limit: limit) }
        guard section.offset <= file.size, section.size <= file.size - section.offset else {
            throw .corrupt("\(what) at offset \(section.offset), \(section.size) bytes, lies outside the \(file.size)-byte file")
        }
        return try read(file, offset: section.offset, count: Int(section.size), what: what)
    }

    /// Whether the NUL-terminated string at `offset` is `expected`; a string
    /// that runs off the end of the table matches nothing.
    private static func string(in table: [UInt8], at offset: Int, equals expected: [UInt8]) -> Bool {
        let end = offset + expected.count
        guard offset >= 0, end < table.count, table[end] == 0 else { return false }
        return table[offset..<end].elementsEqual(expected)
    }
}

struct Section {
    let nameOffset: UInt32, type: UInt32, offset: UInt64, size: UInt64, link: UInt32

    init(_ bytes: Bytes, at start: Int) {
        nameOffset = bytes.u32(start)
        type = bytes.u32(start + 4)
        offset = bytes.u64(start + 24)
        size = bytes.u64(start + 32)
        link = bytes.u32(start + 40)
    }
}

/// Fixed-width integers from a byte array whose length the caller checked.
struct Bytes {
    let bytes: [UInt8]
    let littleEndian: Bool

    init(_ bytes: [UInt8], littleEndian: Bool) {
        self.bytes = bytes
        self.littleEndian = littleEndian
    }

    func u16(_ at: Int) -> UInt16 { uint(at) }
    func u32(_ at: Int) -> UInt32 { uint(at) }
    func u64(_ at: Int) -> UInt64 { uint(at) }

    /// One load, not a loop over bytes: every section and symbol of every
    /// plugin is read through here on each first listing.
    private func uint<Integer: FixedWidthInteger>(_ at: Int) -> Integer {
        precondition(at >= 0 && at <= bytes.count - MemoryLayout<Integer>.size, "read past a length the caller checked")
        let raw = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: Integer.self) }
        return littleEndian ? Integer(littleEndian: raw) : Integer(bigEndian: raw)
    }
}

enum ELFError: Error, Equatable, CustomStringConvertible {
    case file(FileError)
    case empty
    case notELF
    case truncated(String)
    case foreignMachine(String, bits: Int)
    case notSharedObject(type: UInt16)
    case corrupt(String)
    case tooLarge(String, size: UInt64, limit: Int)

    var description: String {
        switch self {
        case let .file(error): error.description
        case .empty: "empty file"
        case .notELF: "not an ELF file"
        case let .truncated(what): "truncated ELF file: \(what)"
        case let .foreignMachine(machine, bits):
            "built for another machine: \(bits)-bit \(machine), this host is 64-bit \(ELFMachine.name(HostMachine.elfMachine))"
        case let .notSharedObject(type): "not a shared library (ELF type \(type))"
        case let .corrupt(what): "corrupt ELF file: \(what)"
        case let .tooLarge(what, size, limit): "\(what) is \(size) bytes, over the limit of \(limit)"
        }
    }
}

enum HostMachine {
    #if arch(x86_64)
    static let elfMachine: UInt16 = 62
    #elseif arch(arm64)
    static let elfMachine: UInt16 = 183
    #elseif arch(riscv64)
    static let elfMachine: UInt16 = 243
    #else
    static let elfMachine: UInt16 = 0
    #endif
    static let littleEndian = 1.littleEndian == 1
}

enum ELFMachine {
    static func name(_ machine: UInt16) -> String {
        switch machine {
        case 3: "x86"
        case 8: "MIPS"
        case 20: "PowerPC"
        case 21: "PowerPC64"
        case 40: "ARM"
        case 62: "x86-64"
        case 183: "AArch64"
        case 243: "RISC-V"
        default: "machine \(machine)"
        }
    }
}
