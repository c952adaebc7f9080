import Glibc
import HostShim

/// The statuses `widget-host` exits with, each named once: the commands
/// return these, and `help exit-status` is written from `all`.
public enum ExitStatus {
    public static let success: Int32 = 0
    public static let failure: Int32 = 1
    public static let usage: Int32 = 2
    /// Set by HostShim's guard, which ends the process itself.
    public static let pluginExited: Int32 = WH_SHIM_PLUGIN_EXIT_STATUS
    /// As a shell reports a program Ctrl-C ended.
    public static let interrupted: Int32 = 128 + SIGINT

    /// Each status with what it means, for the help page.
    static let all: [(status: Int32, meaning: String)] = [
        (success, "success (launch: a screen was rendered, even one that shows an error)"),
        (failure, """
            failure: a plugin not found or refused, a broken configuration, an action
            refused, a widget still loading when --wait ran out, or output that could
            not be written (a message says which)
            """),
        (usage, "a usage error: an unknown command or option, a missing or bad value"),
        (pluginExited, "a plugin loaded in process called exit during a call, ending the host"),
        (interrupted, "Ctrl-C in an interactive session"),
    ]

    /// `all` as the help page's table: the status, then its meaning indented under itself.
    static var table: String {
        all.map { status, meaning in
            let number = String(status)
            return meaning.split(separator: "\n").enumerated().map { index, line in
                "  " + (index == 0 ? number + String(repeating: " ", count: 5 - number.count) : String(repeating: " ", count: 5)) + line
            }.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
