import Glibc

/// Refuses plugin files that someone other than the user could have changed,
/// in the spirit of OpenSSH's StrictModes: the file and every directory above
/// it must be owned by the invoking user or root, and writable by no one else.
///
/// Two exceptions keep ordinary set-ups working without weakening that:
/// a sticky directory such as /tmp (others cannot replace what is ours in
/// it), and group write for a user's private group (the group has no other
/// member, as Debian's user-private-groups give every user).
struct FileSafety {
    /// Read once a process: the host never changes its user, and a scan
    /// that finds nothing changed otherwise asks the kernel every time.
    private static let user = geteuid()
    private var verdicts: [String: String?] = Dictionary(minimumCapacity: 16)
    /// Each directory's whole chain, judged: a scan has a few directories,
    /// asked for file after file, so comparing beats hashing.
    private var chains: [(directory: String, verdict: String?)] = []

    /// Why `path` is unsafe to load, or nil if it is safe. Both the path as
    /// given and the file it resolves to are checked: a symlink in a
    /// directory others can write could be re-pointed after the check.
    mutating func problem(with path: String) -> String? {
        guard let real = realpath(path, nil) else { return "cannot resolve \(path): \(String(cString: strerror(errno)))" }
        let resolved = String(cString: real)
        free(real)
        if let problem = check(resolved, isDirectory: false) { return problem }
        let given = path.hasPrefix("/") ? path : currentDirectory() + "/" + path
        if given != resolved, let problem = checkLink(given) { return problem }
        for directory in Self.ancestors(of: resolved) + (given == resolved ? [] : Self.ancestors(of: given)) {
            if let problem = checkDirectory(directory) { return problem }
        }
        return nil
    }

    /// The fast path for a regular file (not a symlink) found in a directory
    /// whose canonical path is known: its own stat, and the directory chain
    /// whose verdicts are cached, so a directory of many plugins costs no
    /// system call per plugin.
    mutating func problem(regularFile status: stat, named path: String, inCanonicalDirectory directory: String) -> String? {
        if let problem = judge(status, path, isDirectory: false) { return problem }
        return chainProblem(directory)
    }

    /// Why discovery would refuse what `directory` holds (it, or one above
    /// it, unsafe), with the command that fixes it where a mode is the
    /// fault; nil if it is safe. `install` asks before it writes there.
    mutating func problem(withDirectory directory: String) -> (problem: String, fix: String?)? {
        guard let real = realpath(directory, nil) else { return ("cannot resolve \(directory): \(String(cString: strerror(errno)))", nil) }
        let canonical = String(cString: real)
        free(real)
        for path in [canonical] + Self.ancestors(of: canonical) {
            guard let problem = checkDirectory(path) else { continue }
            var status = stat()
            guard stat(path, &status) == 0 else { return (problem, nil) }
            // Quoted for a shell unless every byte is one a shell leaves alone.
            let plain = path.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || "/._-+@%:,=".utf8.contains(byte)
            }
            let quoted = plain ? path : "'" + path.replacing("'", with: "'\\''") + "'"
            let fix = status.st_uid != Self.user && status.st_uid != 0 ? nil
                : status.st_mode & S_IWOTH != 0 ? "chmod o-w \(quoted)" : "chmod g-w \(quoted)"
            return (problem, fix)
        }
        return nil
    }

    /// Why a canonical directory or one above it is unsafe, or nil; judged
    /// once per directory a scan.
    mutating func chainProblem(_ directory: String) -> String? {
        if let known = chains.last(where: { $0.directory == directory }) { return known.verdict }
        var verdict = checkDirectory(directory)
        for ancestor in Self.ancestors(of: directory) where verdict == nil {
            verdict = checkDirectory(ancestor)
        }
        chains.append((directory, verdict))
        return verdict
    }

    /// Every directory above `path`, nearest first, ending with "/".
    static func ancestors(of path: String) -> [String] {
        // By bytes: a "/" is never part of another UTF-8 sequence, and
        // stepping by Character would cost grapheme breaking per step.
        var result: [String] = []
        var end = path.utf8.endIndex
        while let slash = path.utf8[..<end].lastIndex(of: UInt8(ascii: "/")), path.utf8[..<end].count > 1 {
            end = slash
            result.append(slash == path.utf8.startIndex ? "/" : String(path[..<slash]))
        }
        return result
    }

    private func currentDirectory() -> String {
        guard let cwd = getcwd(nil, 0) else { return "/" }
        defer { free(cwd) }
        return String(cString: cwd)
    }

    /// A symlink's own owner matters (its mode never does: links are 0777).
    private func checkLink(_ path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return nil }
        if status.st_uid != Self.user && status.st_uid != 0 {
            return "symbolic link \(path) is owned by \(userName(status.st_uid)), not by you or root"
        }
        return nil
    }

    /// Directories are checked once each, however many plugins they hold.
    private mutating func checkDirectory(_ path: String) -> String? {
        if let verdict = verdicts[path] { return verdict }
        let verdict = check(path, isDirectory: true)
        verdicts[path] = verdict
        return verdict
    }

    private func check(_ path: String, isDirectory: Bool) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return "cannot stat \(path): \(String(cString: strerror(errno)))" }
        return judge(status, path, isDirectory: isDirectory)
    }

    private func judge(_ status: stat, _ path: String, isDirectory: Bool) -> String? {
        let what = isDirectory ? "directory" : "plugin file"
        if status.st_uid != Self.user && status.st_uid != 0 {
            return "\(what) \(path) is owned by \(userName(status.st_uid)), not by you or root"
        }
        if isDirectory && status.st_mode & S_ISVTX != 0 { return nil }
        // The fix comes with the problem, so that it reads before any way around it.
        if status.st_mode & S_IWOTH != 0 {
            return "\(what) \(path) is writable by others (mode \(octal(status.st_mode))); to fix: chmod o-w \(ShellWord.quoted(path))"
        }
        if status.st_mode & S_IWGRP != 0 && !isPrivateGroup(status.st_gid, of: status.st_uid) {
            return "\(what) \(path) is writable by group \(groupName(status.st_gid)) (mode \(octal(status.st_mode))); "
                + "to fix: chmod g-w \(ShellWord.quoted(path))"
        }
        return nil
    }

    private func isPrivateGroup(_ gid: gid_t, of uid: uid_t) -> Bool {
        guard let group = getgrgid(gid), let owner = getpwuid(uid),
              let groupName = group.pointee.gr_name, let ownerName = owner.pointee.pw_name else { return false }
        let hasNoMembers = group.pointee.gr_mem == nil || group.pointee.gr_mem[0] == nil
        return owner.pointee.pw_gid == gid && strcmp(groupName, ownerName) == 0 && hasNoMembers
    }

    private func userName(_ uid: uid_t) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
        return "\(String(cString: name)) (uid \(uid))"
    }

    private func groupName(_ gid: gid_t) -> String {
        guard let entry = getgrgid(gid), let name = entry.pointee.gr_name else { return "gid \(gid)" }
        return String(cString: name)
    }

    private func octal(_ mode: mode_t) -> String { "0" + String(mode & 0o7777, radix: 8) }
}
