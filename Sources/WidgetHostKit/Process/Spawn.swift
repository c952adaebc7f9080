import Glibc
import HostShim

/// How the host starts every child: standard input on /dev/null, and a
/// clean start whatever state the host is in.
///
/// Every child is started from one thread that lives as long as the host
/// (`Spawner`): a child that asks the kernel to end it with its parent
/// (`wh_shim_die_with_parent`) is ended when the *thread* that forked it
/// ends, and a worker thread may end any time. Every child is remembered
/// until it is reaped (`forget`), so that the signals that end the host end
/// its children's process groups too.
enum Spawn {
    /// Starts `path` with `arguments` (its argv, the program's name first)
    /// and `environment` (this process's if nil), each `descriptors` source
    /// dup'ed onto its target, and returns its pid. The child gets its own
    /// process group, so that a kill reaches everything it starts; no signal
    /// blocked (test runners and the interactive loop block some); and every
    /// signal at its default.
    static func child(_ path: String, arguments: [String], environment: [String: String]?,
                      descriptors: [(source: Int32, target: Int32)]) throws(SystemError) -> pid_t {
        let result = Spawner.shared.run { spawn(path, arguments: arguments, environment: environment, descriptors: descriptors) }
        let pid = try result.get()
        _ = wh_shim_children_add(pid)
        return pid
    }

    /// Forgets a child once it is reaped, before its pid can be reused.
    static func forget(_ pid: pid_t) {
        wh_shim_children_remove(pid)
    }

    private static func spawn(_ path: String, arguments: [String], environment: [String: String]?,
                              descriptors: [(source: Int32, target: Int32)]) -> Result<pid_t, SystemError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (source, target) in descriptors { posix_spawn_file_actions_adddup2(&actions, source, target) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer {
            argv.forEach { free($0) }
            envp?.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = envp.map { posix_spawn(&pid, path, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard spawned == 0 else { return .failure(SystemError(code: spawned)) }
        return .success(pid)
    }
}

/// The thread children are started from: started on first use, it never ends.
private final class Spawner: @unchecked Sendable {
    static let shared = Spawner()

    private let condition = Condition()
    private var jobs: [() -> Void] = []
    private var started = false

    /// Runs `job` on the spawner's thread and waits for its result.
    func run<T>(_ job: @escaping () -> T) -> T {
        var result: T?
        var done = false
        condition.lock()
        if !started { started = Threads.start(name: "spawner") { [self] in serve() } }
        guard started else {
            condition.unlock()
            return job()   // no thread to be had: the caller's own, as before
        }
        jobs.append {
            result = job()
            done = true
        }
        condition.broadcast()
        while !done { condition.wait() }
        condition.unlock()
        return result!
    }

    private func serve() -> Never {
        condition.lock()
        while true {
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            job()
            condition.broadcast()
        }
    }
}
