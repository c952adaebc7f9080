/// A contract's id (contract.h): `NAME/VERSION`, NAME 1 to 128 of
/// [a-z0-9._-] with a dot in it (a reverse domain, as plugin ids are),
/// VERSION a positive number. Ids starting "widget-host." are the host's.
enum ContractID {
    static func problem(with id: String) -> String? {
        guard let slash = id.utf8.lastIndex(of: UInt8(ascii: "/")) else {
            return "contract id \"\(id)\" has no version: write NAME/VERSION, such as org.example.price/1"
        }
        let name = id.utf8[..<slash], version = id.utf8[id.utf8.index(after: slash)...]
        guard (1...128).contains(name.count), name.contains(UInt8(ascii: ".")),
              name.allSatisfy({ isLowercaseLetterOrDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
        else {
            return "contract id \"\(id)\" must be NAME/VERSION, NAME 1 to 128 of [a-z0-9._-] with a dot, such as org.example.price/1"
        }
        guard (1...9).contains(version.count), version.first != UInt8(ascii: "0"), version.allSatisfy(isDigit) else {
            return "contract id \"\(id)\" must end in a version number from 1, such as /1"
        }
        guard !id.hasPrefix("widget-host.") else { return "contract id \"\(id)\" is in the host's namespace (widget-host.)" }
        return nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isLowercaseLetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || isDigit(byte)
    }
}
