import Foundation
import Glibc
@testable import WidgetHostKit

/// A program on a real terminal for the interactive tests: a detached tmux
/// session on a server of its own (`tmux -L` with a unique socket name, and
/// no config file), read with `capture-pane` and driven with `send-keys`.
/// Every wait polls the screen a bounded number of times instead of
/// sleeping a fixed time. `kill()`, or the end of the object, ends the
/// server and removes its socket.
final class Tmux {
    /// A terminal's size, how its screen is read and how long a wait lasts.
    struct Settings {
        var columns = 80
        var rows = 30
        /// `capture-pane -J`: wrapped lines joined, trailing spaces kept.
        var joinsWrappedLines = false
        /// Whether the program gets only its `environment` (`env -i`), or
        /// that added to the tmux server's.
        var clearsEnvironment = true
        var attempts = 400
        var pollInterval: useconds_t = 50_000
    }

    static var path: String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/tmux" }.first { access($0, X_OK) == 0 }
    }

    let socket = "widget-host-tests-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    private let tmux: String
    private let settings: Settings
    private var socketPath: String?
    private var killed = false
    /// Where `recordOutput` copies every byte the program writes.
    private var recording: String?

    /// Starts `command` (argv, run without a shell's word splitting) with
    /// `environment`.
    init(_ command: [String], environment: [String: String], settings: Settings = Settings()) throws {
        guard let tmux = Self.path else { throw TestSupport.Failure("tmux is not installed (apt-get install tmux); the interactive tests need it") }
        self.tmux = tmux
        self.settings = settings
        let variables = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let line = (["exec", "env"] + (settings.clearsEnvironment ? ["-i"] : []) + variables + command).map(Self.quote).joined(separator: " ")
        try self.tmux(["-f", "/dev/null", "new-session", "-d", "-x", "\(settings.columns)", "-y", "\(settings.rows)", line])
        socketPath = try? self.tmux(["display-message", "-p", "#{socket_path}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        // Keep the pane after the program exits, so its last screen and exit can be read.
        try self.tmux(["set-option", "-g", "remain-on-exit", "on"])
    }

    /// Runs `/bin/sh` with `prompt` as its prompt, in which a test types
    /// commands, so that the terminal a program leaves behind can be
    /// examined; returns once the prompt shows.
    static func shell(environment: [String: String], prompt: String, settings: Settings = Settings()) throws -> Tmux {
        var variables = environment
        variables["PS1"] = prompt
        let terminal = try Tmux(["/bin/sh"], environment: variables, settings: settings)
        try terminal.waitFor("the shell's prompt") { $0.contains(prompt) }
        return terminal
    }

    deinit { kill() }

    func kill() {
        guard !killed else { return }
        killed = true
        _ = try? tmux(["kill-server"])
        // The server leaves its socket behind.
        if let socketPath, !socketPath.isEmpty { unlink(socketPath) }
    }

    /// The visible screen.
    func capture() throws -> String { try tmux(["capture-pane", "-p"] + (settings.joinsWrappedLines ? ["-J"] : [])) }

    /// Types `text` literally.
    func send(_ text: String) throws { try tmux(["send-keys", "-l", text]) }

    /// Presses a named key: Enter, C-c, Escape.
    func press(_ key: String) throws { try tmux(["send-keys", key]) }

    /// Types a shell command and presses Enter.
    func type(_ command: String) throws {
        try send(command)
        try press("Enter")
    }

    /// Resizes the terminal, as a person dragging its window does: the
    /// program gets SIGWINCH.
    func resize(columns: Int, rows: Int) throws { try tmux(["resize-window", "-x", "\(columns)", "-y", "\(rows)"]) }

    /// A tmux format about the pane: `#{alternate_on}`, `#{pane_dead}`.
    func format(_ format: String) throws -> String {
        try tmux(["display-message", "-p", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    var inAlternateScreen: Bool { get throws { try format("#{alternate_on}") == "1" } }

    /// Whether the program in the pane has exited.
    func exited() throws -> Bool { try format("#{pane_dead}") == "1" }

    /// From now on, every byte written to the pane is appended to a file.
    func recordOutput() throws {
        let path = try TestSupport.makeTemporaryDirectory("tmux-output") + "/output"
        try TestSupport.write([], to: path)
        try tmux(["pipe-pane", "-o", "cat >> " + Self.quote(path)])
        recording = path
    }

    /// The bytes recorded so far.
    func recorded() throws -> [UInt8] {
        guard let recording else { throw TestSupport.Failure("recordOutput() was not called") }
        return try TestSupport.readBytes(recording)
    }

    /// Polls the screen until `condition` holds; throws with the last screen
    /// if it never does within the settings' attempts.
    @discardableResult
    func waitFor(_ what: String, _ condition: (String) throws -> Bool) throws -> String {
        var screen = ""
        for _ in 0..<settings.attempts {
            screen = try capture()
            if try condition(screen) { return screen }
            usleep(settings.pollInterval)
        }
        throw TestSupport.Failure("the screen never showed \(what); last screen:\n\(screen)")
    }

    /// Polls the screen until it shows `text`.
    @discardableResult
    func waitFor(_ text: String) throws -> String {
        try waitFor("'\(text)'") { $0.contains(text) }
    }

    static func quote(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let result = try ChildProcess.run([tmux, "-L", socket] + arguments, timeout: 20)
        guard result.termination == .exited(0) else {
            throw TestSupport.Failure("tmux \(arguments.joined(separator: " ")): \(result.termination) "
                + String(decoding: result.standardError, as: UTF8.self))
        }
        return String(decoding: result.standardOutput, as: UTF8.self)
    }
}
