import Glibc

/// The edit loop of `widget-host dev`, on the interactive loop's main
/// thread: takes each finished build, loads what it made in a new isolated
/// process (an image with Swift in it can never be unloaded, so a process
/// is the unit of reload), keeps the screen the author was on, and says on
/// screen what the build said when it failed.
///
/// What runs is a private copy of the built file (`staging`, a 0700
/// directory first on the session's search path): the build may rewrite its
/// output in place while the old process still maps it, and the copy is
/// checked as any plugin is before it loads.
final class DevSession {
    private let project: DevProject
    private let session: WidgetSession
    private let discovery: Discovery
    private let searchPath: SearchPath
    private let staging: String
    /// `--screen`: where the first load opens.
    private let firstScreen: String?
    private let builder: DevBuilder
    private var watcher: DirectoryWatcher?
    private var watched: [String] = []
    /// The file running now, by its bytes: a build that changes nothing reloads nothing.
    private var loaded: [UInt8]?
    /// What covers the widget: a failed build, or why its result cannot load.
    private var problem: (title: String, view: ViewNode)?
    /// The latest save-to-screen figure, and a reload whose first frame is being drawn.
    private var figure: String?
    private var reloaded: (changedAt: Double, build: Double, first: Bool)?
    /// Why the first load did not open `--screen`, until the next reload.
    private var startNote: String?

    init(project: DevProject, session: WidgetSession, discovery: Discovery, searchPath: SearchPath, staging: String, firstScreen: String?,
         environment: [String: String]) {
        self.project = project
        self.session = session
        self.discovery = discovery
        self.searchPath = searchPath
        self.staging = staging
        self.firstScreen = firstScreen
        let wakeup = session.wakeup
        builder = DevBuilder(command: project.build, environment: environment) { wakeup.signal() }
    }

    /// Watches the sources and starts the first build.
    func start() {
        rewatch()
        builder.start()
        builder.sourceChanged()
    }

    func stop() {
        watcher?.stop()
        builder.stop()
    }

    /// On the main thread, after every wake-up: applies a finished build.
    func tick() {
        guard let build = builder.takeFinished() else { return }
        // A directory made since the last build is watched from now on.
        rewatch()
        guard build.succeeded else {
            problem = ("Build failed", Self.failureView(build, project: project))
            return
        }
        switch project.builtPlugin(discovery) {
        case let .failure(error): problem = ("Cannot reload", Self.message(error.description))
        case let .success(candidate): load(candidate, build: build)
        }
    }

    /// The host's screen in place of the widget's: before the first load,
    /// or while the latest build failed.
    var cover: (title: String, view: ViewNode)? {
        if let problem { return problem }
        guard loaded == nil else { return nil }
        return ("widget-host dev", Self.message("Building \(project.directory) with \(project.kind == .swift ? "swift build" : "make")… "
            + "the widget shows when the build succeeds, and reloads on every save."))
    }

    /// While a build runs, the milliseconds until its counter ("building…
    /// 12 s") shows the next second; nil otherwise (nothing to redraw).
    var redrawAfter: Int32? {
        guard let since = builder.buildingSince else { return nil }
        let elapsed = Clock.now - since
        return Int32(((elapsed.rounded(.down) + 1 - elapsed) * 1000).rounded(.up))
    }

    /// The footer's line: the build running, or the latest save-to-screen time.
    func status() -> String? {
        if let reloaded {
            // Asked while the first frame of the reloaded widget is drawn: the figure is the time from the save to now.
            let seconds = (Clock.now - reloaded.changedAt).formatted2
            figure = reloaded.first ? "built and shown in \(seconds) s" : "saved → on screen in \(seconds) s (the build \(reloaded.build.formatted2) s)"
            if !reloaded.first { startNote = nil }
            self.reloaded = nil
        }
        if let since = builder.buildingSince {
            return "dev: building… \(Int(Clock.now - since)) s" + (problem == nil && loaded != nil ? " (the last good build runs meanwhile)" : "")
        }
        return (startNote.map { $0 + "\n" } ?? "") + "dev: " + (figure ?? "watching \(project.directory)") + " · save to rebuild"
    }

    private func load(_ candidate: PluginCandidate, build: DevBuilder.Build) {
        let bytes: [UInt8]
        do { bytes = try FileSystem.contents(of: candidate.path) } catch {
            problem = ("Cannot reload", Self.message("cannot read \(candidate.path): \(error)"))
            return
        }
        problem = nil
        // A save that changes no byte of the plugin (a comment, a second event of one save) keeps what runs, and its state.
        if bytes == loaded { return }
        let staged = staging + "/" + FileSystem.lastComponent(of: candidate.path)
        do { try stage(bytes, as: staged) } catch {
            problem = ("Cannot reload", Self.message("cannot copy the plugin into \(staging): \(error)"))
            return
        }
        let report = discovery.scan(searchPath)
        guard let mine = report.plugins.first(where: { $0.path == staged }), let manifest = mine.manifest, mine.status == .ok else {
            let reason = report.plugins.first { $0.path == staged }?.status.reason ?? "no manifest"
            problem = ("Cannot load", Self.message("\(FileSystem.lastComponent(of: candidate.path)) was built, but the host refuses it: \(reason)"))
            return
        }
        session.replacePlugins(report.plugins, changedPaths: [staged], restartChanged: true)
        let first = loaded == nil
        loaded = bytes
        reloaded = (build.changedAt, build.seconds, first)
        keepScreen(manifest, first: first)
    }

    /// Stays on the screen the author was on when the new version still has
    /// it (the navigator's stack is the session's, not the widget's); else
    /// opens the plugin's first screen, or `--screen` on the first load.
    private func keepScreen(_ manifest: Manifest, first: Bool) {
        if let top = session.current {
            let known = top.plugin == manifest.id ? manifest.screens.contains { $0.id == top.screen }
                : session.manifests.contains { $0.id == top.plugin }
            if known { return }
        }
        let screens = manifest.screens.map(\.id).joined(separator: ", ")
        do { try session.open(NavigationTarget(plugin: manifest.id.value, screen: first ? firstScreen : nil)) } catch {
            // A --screen the plugin lacks: its first screen instead, and the footer says why.
            try? session.open(NavigationTarget(plugin: manifest.id.value, screen: nil))
            problem = session.current == nil ? ("Cannot open", Self.message("\(error); its screens: \(screens)")) : nil
            startNote = "\(error); its screens: \(screens)"
        }
    }

    /// Writes the copy beside its place and renames it there: the running
    /// process keeps the file it mapped, the new one reads a whole file.
    private func stage(_ bytes: [UInt8], as path: String) throws(SystemError) {
        for name in (try? Discovery.entries(in: staging)) ?? [] { unlink(staging + "/" + name) }
        try FileSystem.write(bytes, to: staging + "/next.part", mode: 0o644)
        guard rename(staging + "/next.part", path) == 0 else { throw SystemError(code: errno) }
    }

    private func rewatch() {
        let directories = project.sourceDirectories()
        guard directories != watched else { return }
        watcher?.stop()
        watched = directories
        let watcher = DirectoryWatcher(directories: directories, mask: UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE),
                                       retryMilliseconds: 2000)
        let builder = self.builder
        watcher.start(threadName: "dev-watcher") { event in
            if case let .entry(_, name, _) = event, !DevProject.isSource(name) { return }
            builder.sourceChanged()
        }
        self.watcher = watcher
    }

    /// The build's output, its progress lines left out, under a heading
    /// that says what happens next.
    static func failureView(_ build: DevBuilder.Build, project: DevProject) -> ViewNode {
        let lines = build.output.split(separator: "\n", omittingEmptySubsequences: true).map(String.init).filter { !isProgress($0) }
        let shown = lines.prefix(400).map { ViewNode.text($0, style: .monospaced, color: .primary) }
        let program = project.kind == .swift ? "swift build" : "make"
        return .stack(axis: .vertical, children: [
            .text("\(program) \(build.termination) after \(build.seconds.formatted2) s. Fix it and save: dev builds again, "
                + "and the widget comes back on the screen it was on.", style: .headline, color: .negative),
        ] + (shown.isEmpty ? [.text("(the build printed nothing)", style: .caption, color: .secondary)] : shown))
    }

    /// SwiftPM's "[12/40] Compiling …" lines and the like, which say nothing about an error.
    private static func isProgress(_ line: String) -> Bool {
        guard line.hasPrefix("[") else { return line.hasPrefix("Building for ") || line.hasPrefix("Planning build") }
        let counter = line.dropFirst().prefix { $0 != "]" }
        return counter.contains("/") && counter.allSatisfy { $0.isNumber || $0 == "/" }
    }

    private static func message(_ text: String) -> ViewNode {
        .text(text, style: .body, color: .primary)
    }
}

extension Double {
    /// Two decimals: 0.42.
    var formatted2: String {
        let hundredths = Int((self * 100).rounded())
        let fraction = String(hundredths % 100)
        return "\(hundredths / 100)." + (fraction.count == 1 ? "0" + fraction : fraction)
    }
}
