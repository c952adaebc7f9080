import Glibc

/// A plugin's source project as `widget-host dev` sees it: how it is built
/// (SwiftPM or make, as `widget-host new` lays them out), where the built
/// plugin lands, and which files are its sources.
struct DevProject {
    enum Kind: String { case swift, make }

    /// The project's directory, canonical.
    let directory: String
    let kind: Kind
    /// The build, its program found on PATH.
    let build: [String]

    struct ProjectError: Error, CustomStringConvertible {
        let description: String
    }

    init(_ path: String, environment: [String: String]) throws(ProjectError) {
        guard let directory = NewCommand.resolved(path) else {
            throw ProjectError(description: "cannot open the project \(path): \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard stat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw ProjectError(description: "\(path) is not a directory: give dev the directory of a plugin project (as widget-host new makes one)")
        }
        self.directory = directory
        if access(directory + "/Package.swift", F_OK) == 0 {
            kind = .swift
        } else if ["Makefile", "makefile", "GNUmakefile"].contains(where: { access(directory + "/" + $0, F_OK) == 0 }) {
            kind = .make
        } else {
            throw ProjectError(description: "\(path) has no Package.swift or Makefile, so dev cannot tell how to build it; "
                + "make a project with 'widget-host new NAME' (add --c for C), or run dev in one")
        }
        let program = kind == .swift ? "swift" : "make"
        guard let found = Self.onPath(program, environment["PATH"]) else {
            throw ProjectError(description: "cannot find \(program) on PATH, which dev runs to build this project")
        }
        build = kind == .swift ? [found, "build", "--package-path", directory] : [found, "-C", directory]
    }

    /// Where the build leaves the plugin: SwiftPM's debug products, or the
    /// project itself for make.
    var outputDirectory: String { kind == .swift ? directory + "/.build/debug" : directory }

    /// The plugin the last build made: the `.so` in the output directory
    /// whose id is widget.json's, else the only one there.
    func builtPlugin(_ discovery: Discovery) -> Result<PluginCandidate, ProjectError> {
        var lenient = discovery
        // Only read here: what runs is a private copy of the file, which is checked as any plugin is.
        lenient.allowInsecure = true
        let search = SearchPath(directories: [.init(path: outputDirectory, origin: "the build", explicit: true)])
        let built = lenient.scan(search).plugins.filter { $0.manifest != nil }
        let wanted = (try? FileSystem.contents(of: directory + "/widget.json")).flatMap { try? JSONParser.parse($0)["id"]?.string }
        if let wanted, let match = built.first(where: { $0.manifest?.id.value == wanted }) { return .success(match) }
        guard built.count == 1, let only = built.first else {
            let found = built.isEmpty ? "none" : built.map { FileSystem.lastComponent(of: $0.path) }.joined(separator: ", ")
            return .failure(ProjectError(description: "the build succeeded, but dev cannot tell which plugin it made: "
                + "plugin files in \(outputDirectory): \(found)" + (wanted.map { "; none has widget.json's id \($0)" } ?? "")))
        }
        return .success(only)
    }

    /// The directories to watch: the project's and those under it, but
    /// hidden ones (`.build`, `.git`, `.swiftpm`), a bounded number.
    func sourceDirectories(limit: Int = 1000) -> [String] {
        var found = [directory], next = 0
        while next < found.count, found.count < limit {
            let parent = found[next]
            next += 1
            for name in (try? Discovery.entries(in: parent)) ?? [] where !name.hasPrefix(".") {
                var status = stat()
                let path = parent + "/" + name
                if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, found.count < limit { found.append(path) }
            }
        }
        return found
    }

    /// Whether a change to `name` may change the build: not what the build
    /// itself writes (objects, libraries, make's dependency files), nor an
    /// editor's swap, backup or hidden files.
    static func isSource(_ name: String) -> Bool {
        let ignored = [".so", ".o", ".d", ".a", ".swp", ".swx", "~"]
        return !name.hasPrefix(".") && !ignored.contains { name.hasSuffix($0) } && name != "4913"
    }

    static func onPath(_ program: String, _ path: String?) -> String? {
        (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map { "\($0)/\(program)" }.first { access($0, X_OK) == 0 }
    }
}
