import Glibc
import HostShim

/// Facts about the terminal the host draws on.
public enum Terminal {
    public static func isTTY(_ fd: Int32) -> Bool { isatty(fd) != 0 }

    /// `COLUMNS` if it is set to a sensible number, else the terminal's own
    /// width, else 80.
    public static func width(environment: [String: String], fd: Int32 = 1) -> Int {
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        let columns = Int(wh_shim_terminal_width(fd))
        return columns > 0 ? columns : 80
    }

    /// `LINES` if it is set to a sensible number, else the terminal's own
    /// height, else 24.
    public static func height(environment: [String: String], fd: Int32 = 1) -> Int {
        if let text = environment["LINES"], let rows = Int(text), rows > 0 { return rows }
        let rows = Int(wh_shim_terminal_height(fd))
        return rows > 0 ? rows : 24
    }

    /// Colour only on a terminal, never with NO_COLOR set (no-color.org) or
    /// on a dumb terminal.
    public static func color(environment: [String: String], fd: Int32 = 1) -> Bool {
        isTTY(fd) && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }
}
