import Glibc

/// The directories searched for plugins, in priority order: on a duplicate
/// id, the plugin found first wins.
public struct SearchPath: Equatable, Sendable {
    public struct Directory: Equatable, Sendable {
        public let path: String
        /// Where the directory came from, for messages: "--plugin-dir", ...
        public let origin: String
        /// Named by the user, so a missing directory deserves a warning;
        /// the defaults usually do not exist and are skipped quietly.
        public let explicit: Bool

        public init(path: String, origin: String, explicit: Bool) {
            self.path = path
            self.origin = origin
            self.explicit = explicit
        }
    }

    public let directories: [Directory]

    public init(directories: [Directory]) {
        self.directories = directories
    }

    /// 1. each `--plugin-dir`; 2. `WIDGET_HOST_PLUGIN_PATH`;
    /// 3. `$XDG_DATA_HOME/widget-host/plugins`; 4. the executable's directory.
    public static func resolve(
        pluginDirs: [String], environment: [String: String], executableDirectory: String?
    ) -> SearchPath {
        var directories = pluginDirs.map { Directory(path: $0, origin: "--plugin-dir", explicit: true) }
        for path in (environment["WIDGET_HOST_PLUGIN_PATH"] ?? "").split(separator: ":") {
            directories.append(Directory(path: String(path), origin: "WIDGET_HOST_PLUGIN_PATH", explicit: true))
        }
        directories.append(Directory(path: UserDirectories.plugins(environment), origin: "XDG_DATA_HOME", explicit: false))
        if let executableDirectory {
            directories.append(Directory(path: executableDirectory, origin: "executable directory", explicit: false))
        }
        // The same directory reached twice (a symlink such as .build/debug)
        // would list its plugins twice, the second copy shadowed by the first.
        var seen = Set<String>(minimumCapacity: directories.count)
        return SearchPath(directories: directories.filter { seen.insert(canonical($0.path)).inserted })
    }

    private static func canonical(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }
}

/// The XDG base directories, with the spec's defaults.
public enum UserDirectories {
    public static func home(_ environment: [String: String]) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        if let entry = getpwuid(geteuid()), let dir = entry.pointee.pw_dir { return String(cString: dir) }
        return "/"
    }

    public static func data(_ environment: [String: String]) -> String {
        absolute(environment["XDG_DATA_HOME"]) ?? home(environment) + "/.local/share"
    }

    /// `$XDG_STATE_HOME`, or `~/.local/state` (a relative value is ignored, as the spec says).
    public static func state(_ environment: [String: String]) -> String {
        absolute(environment["XDG_STATE_HOME"]) ?? home(environment) + "/.local/state"
    }

    /// Where `install` puts plugins, and the search path's third place.
    public static func plugins(_ environment: [String: String]) -> String {
        data(environment) + "/widget-host/plugins"
    }

    public static func config(_ environment: [String: String]) -> String {
        absolute(environment["XDG_CONFIG_HOME"]) ?? home(environment) + "/.config"
    }

    /// The spec says a relative XDG path is invalid and must be ignored.
    private static func absolute(_ path: String?) -> String? {
        guard let path, path.hasPrefix("/") else { return nil }
        return path
    }

    /// The directory holding the running executable.
    public static func executableDirectory() -> String? {
        // By bytes, in a buffer left uninitialised: every command starts
        // here, and a search by Characters cost it ten times as much. A
        // path that fills the buffer may have been cut short: none then.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(PATH_MAX)) { buffer in
            let count = readlink("/proc/self/exe", UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self), buffer.count)
            guard count > 0, count < buffer.count else { return nil }
            return String(decoding: buffer[..<(buffer[..<count].lastIndex(of: UInt8(ascii: "/")) ?? 0)], as: UTF8.self)
        }
    }
}
