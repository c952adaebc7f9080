import Glibc
import HostShim

/// The cage every process that runs plugin code enters before the plugin
/// is loaded: an isolated plugin's (`PluginHostChild`), which is also where
/// `validate` and `info` run their checks (`Validator`). Rlimits, the working
/// directory moved to the one place the plugin may write, the crash
/// reporter, then `wh_shim_sandbox_apply` (no_new_privs, Landlock,
/// seccomp). Violations and crashes are written to `report` as lines that
/// `ChildReport` reads.
struct ChildCage {
    /// What the kernel gave, as the hello frame reports it.
    let status: JSONValue
    /// What is missing, in words ("" if nothing).
    let missing: String
    /// Whether every part the containment rests on is in force: no_new_privs,
    /// seccomp and Landlock from ABI 3 (which governs truncate). A cage
    /// without one of them is weak, and refused unless the user allows it.
    let complete: Bool

    /// The words for a refused weak cage.
    var refusal: String {
        "refused: the sandbox on this system is incomplete (without \(missing)); --allow-weak-sandbox runs plugins in what there is"
    }

    /// Enters the cage, or returns nil if the limits or the directory could
    /// not be set (nothing of the plugin has run then).
    static func enter(data: String, plugin: String, memoryMiB: UInt64, cpuSeconds: UInt64, report: Int32) -> ChildCage? {
        guard wh_shim_set_limits(memoryMiB << 20, cpuSeconds) == 0, chdir(data) == 0 else { return nil }
        _ = wh_shim_install_crash_reporter(report)

        // Landlock binds only the calling thread and those it starts later.
        let threadsBefore = (try? Discovery.entries(in: "/proc/self/task").count) ?? 1
        var status = wh_sandbox_status()
        // WIDGET_HOST_SANDBOX_SKIP=landlock,seccomp leaves features out, to
        // see (and test) how the rest copes on a kernel that lacks them.
        let skipped = (getenv("WIDGET_HOST_SANDBOX_SKIP").map { String(cString: $0) } ?? "").split(separator: ",")
        let skip = (skipped.contains("landlock") ? Int32(WH_SANDBOX_SKIP_LANDLOCK) : 0)
            | (skipped.contains("seccomp") ? Int32(WH_SANDBOX_SKIP_SECCOMP) : 0)
        let duplicates = SandboxPaths.readable(plugin: plugin).map { strdup($0) }
        defer { duplicates.forEach { free($0) } }
        _ = duplicates.map { UnsafePointer($0) }.withUnsafeBufferPointer { paths in
            wh_shim_sandbox_apply(data, paths.baseAddress, Int32(paths.count), report, skip, &status)
        }
        var missing = withUnsafeBytes(of: status.missing) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if threadsBefore > 1 && status.landlock_abi > 0 {
            missing += (missing.isEmpty ? "" : "; ") + "Landlock on \(threadsBefore - 1) thread(s) started before the sandbox"
        }
        let complete = status.no_new_privs != 0 && status.seccomp != 0 && status.landlock_abi >= 3 && threadsBefore == 1
        let json: JSONValue = [
            "no_new_privs": .bool(status.no_new_privs != 0), "seccomp": .bool(status.seccomp != 0),
            "landlock": .int(status.landlock_abi), "landlock_network": .bool(status.landlock_network != 0),
            "landlock_scoped": .bool(status.landlock_scoped != 0), "missing": .string(missing), "complete": .bool(complete),
        ]
        return ChildCage(status: json, missing: missing, complete: complete)
    }

    /// Asks the kernel to end this process when the host that started it
    /// (`--host-pid`) ends, however it ends: before any plugin code runs, and
    /// the sandbox refuses the plugin a prctl that would undo it. False if
    /// the host's pid is missing or the kernel refused.
    static func dieWithHost(_ hostPID: String?) -> Bool {
        guard let pid = hostPID.flatMap({ Int32($0) }), pid > 0 else { return false }
        return wh_shim_die_with_parent(pid) == 0
    }

    /// `path` made absolute against the working directory, which the cage
    /// is about to change.
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        guard let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        return String(cString: cwd) + "/" + path
    }
}
