import Glibc

/// What an isolated plugin may read: the system's code and data, which the
/// dynamic loader and runtimes need, and the plugin's own directory. The
/// user's files (home, other plugins' data, the shared container, which the
/// plugin reaches through the store service) are not on the list.
enum SandboxPaths {
    /// Fixed system locations; those that do not exist are skipped.
    static let system = [
        "/usr", "/lib", "/lib64", "/lib32",
        "/etc/ld.so.cache", "/etc/ld.so.preload", "/etc/localtime", "/etc/timezone", "/etc/nsswitch.conf",
        "/etc/passwd", "/etc/group", "/etc/os-release",
        "/proc/self", "/sys/devices/system/cpu",
        "/dev/urandom", "/dev/random", "/dev/zero",
    ]

    /// The readable paths for a plugin at `plugin`: the system's, the
    /// directories of every library this process has mapped (where the
    /// Swift runtime lives, wherever the toolchain put it), the executable's
    /// directory and the plugin's.
    static func readable(plugin: String) -> [String] {
        var paths = system
        paths += mappedLibraryDirectories()
        if let directory = UserDirectories.executableDirectory() { paths.append(directory) }
        paths.append(directory(of: canonical(plugin)))
        var seen = Set<String>()
        return paths.filter { !$0.isEmpty && access($0, F_OK) == 0 && seen.insert($0).inserted }
    }

    private static func mappedLibraryDirectories() -> [String] {
        guard let file = fopen("/proc/self/maps", "r") else { return [] }
        defer { fclose(file) }
        var directories = Set<String>()
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            // The line up to its NUL, decoded: String(cString:) on an array is deprecated.
            let text = line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            guard let slash = text.firstIndex(of: "/") else { continue }
            let path = text[slash...].droppingTrailing("\n")
            if path.contains(".so") { directories.insert(directory(of: String(path))) }
        }
        return directories.sorted()
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func canonical(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }
}

private extension Substring {
    func droppingTrailing(_ set: Character) -> Substring {
        var text = self
        while text.last == set { text = text.dropLast() }
        return text
    }
}
