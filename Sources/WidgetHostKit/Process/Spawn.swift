import Glibc

/// How the host starts every child: standard input on /dev/null, and a
/// clean start whatever state the host is in.
enum Spawn {
    /// Starts `path` with `arguments` (its argv, the program's name first)
    /// and `environment` (this process's if nil), each `descriptors` source
    /// dup'ed onto its target, and returns its pid. The child gets its own
    /// process group, so that a kill reaches everything it starts; no signal
    /// blocked (test runners and the interactive loop block some); and every
    /// signal at its default.
    static func child(_ path: String, arguments: [String], environment: [String: String]?,
                      descriptors: [(source: Int32, target: Int32)]) throws(SystemError) -> pid_t {
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
        guard spawned == 0 else { throw SystemError(code: spawned) }
        return pid
    }
}
