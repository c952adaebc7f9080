import Glibc

/// Builds a dev project on a thread of its own whenever its sources change,
/// so the screen stays live (keys, the widget, `q`) through a build of
/// minutes. Saves that come during a build are built after it, once; each
/// finished build is kept for the main thread to take. A build's start and
/// its end are announced with `onChange` (a wake-up of the interactive loop).
final class DevBuilder: @unchecked Sendable {
    struct Build: Sendable {
        let succeeded: Bool
        /// The build's output, standard error merged in order.
        let output: String
        /// How the build ended, in words: "exited with status 2".
        let termination: String
        let seconds: Double
        /// When the first change this build takes in was seen (monotonic).
        let changedAt: Double
    }

    /// A first build of a Swift package fetches nothing but may compile
    /// the SDK for minutes on a busy machine; beyond this it is stuck.
    static let timeout = 1800.0
    /// How long the files must be quiet before a build starts.
    static let settleSeconds = 0.03

    private let command: [String]
    private let environment: [String: String]
    private let onChange: @Sendable () -> Void
    private let condition = Condition()
    /// Guarded by `condition`: the first change not yet built, the build
    /// running (its process group), the latest finished one not yet taken.
    private var changedAt: Double?
    private var lastChangeAt = 0.0
    private var running: (pid: pid_t?, since: Double)?
    private var finished: Build?
    private var stopped = false

    init(command: [String], environment: [String: String], onChange: @escaping @Sendable () -> Void) {
        self.command = command
        self.environment = environment
        self.onChange = onChange
    }

    func start() {
        Threads.start(name: "dev-builder") { [self] in serve() }
    }

    /// A source changed (from the watcher's thread): build, now or after the running build.
    func sourceChanged() {
        condition.lock()
        lastChangeAt = Clock.now
        if changedAt == nil { changedAt = lastChangeAt }
        condition.broadcast()
        condition.unlock()
    }

    /// The latest build finished since the last call, if any.
    func takeFinished() -> Build? {
        condition.lock()
        defer { condition.unlock() }
        defer { finished = nil }
        return finished
    }

    /// Since when a build has been running, or nil.
    var buildingSince: Double? {
        condition.lock()
        defer { condition.unlock() }
        return running?.since
    }

    /// Ends the thread, and the build it runs with everything it started.
    func stop() {
        condition.lock()
        stopped = true
        if let pid = running?.pid { kill(-pid, SIGKILL) }
        condition.broadcast()
        condition.unlock()
    }

    private func serve() {
        while true {
            condition.lock()
            while changedAt == nil && !stopped { condition.wait() }
            // One save is often several events (an editor's temporary file, then its rename over the
            // source): the build starts once they have settled, so it reads the saved file.
            while !stopped && Clock.now - lastChangeAt < Self.settleSeconds {
                condition.unlock()
                usleep(useconds_t(Self.settleSeconds * 1_000_000))
                condition.lock()
            }
            guard !stopped, let since = changedAt else {
                condition.unlock()
                return
            }
            changedAt = nil
            running = (nil, Clock.now)
            condition.unlock()
            onChange()
            let build = run(changedAt: since)
            condition.lock()
            running = nil
            finished = build
            let ended = stopped
            condition.unlock()
            if ended { return }
            onChange()
        }
    }

    private func run(changedAt: Double) -> Build {
        let start = Clock.now
        do {
            let result = try ChildProcess.run(command, timeout: Self.timeout, environment: environment, mergingErrors: true) { pid in
                condition.lock()
                running?.pid = pid
                if stopped { kill(-pid, SIGKILL) }
                condition.unlock()
            }
            return Build(succeeded: result.termination == .exited(0), output: String(decoding: result.standardOutput, as: UTF8.self),
                         termination: result.termination.description, seconds: Clock.now - start, changedAt: changedAt)
        } catch {
            return Build(succeeded: false, output: "cannot run \(command[0]): \(error)", termination: "not started",
                         seconds: Clock.now - start, changedAt: changedAt)
        }
    }
}
