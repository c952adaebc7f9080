import Dispatch
import Glibc
import PluginABI

/// The host's end of one isolated plugin's process: calls out with a
/// deadline each, and a thread of its own that reads everything the child
/// sends (answers, service calls from any of the plugin's threads, render
/// requests, reports) whether or not a call is in flight.
///
/// The plugin is stopped, its process group killed, for any of: a deadline
/// passed, a frame over the size limit or otherwise malformed, a flood of
/// events or service calls, a forged service call. Its death, however it
/// comes, is explained once in words (`StopReason`) and handed to `onStop`.
final class IsolatedConnection: @unchecked Sendable {
    let pluginID: PluginID
    let context: PluginContext
    let settings: IsolationSettings
    private let process: PluginProcess
    private let socket: FrameSocket
    private let proxy: HostServiceProxy
    private let onStop: @Sendable (String) -> Void
    private let state = Locked(State())
    /// Signalled once per answer and once when the child is gone.
    private let answered = DispatchSemaphore(value: 0)

    private struct State {
        var nextCallID: UInt32 = 1
        var pending: (id: UInt32, name: String)?
        var answer: Frame?
        var hello: JSONValue?
        var stopReason: String?
        var exited = false
        /// Once the child is reaped its pid may be reused: never signal it again.
        var reaped = false
        /// The host ended the child itself: not a crash.
        var closing = false
        /// `onStop` has heard of this plugin's end.
        var notified = false
        var slowCalls = 0
        var calls = PerSecondCounter()
        var report: [UInt8] = []
        var outputTail: [UInt8] = []
    }

    /// The most http calls one plugin may have waiting at once.
    static let maxSlowCalls = 8

    init(process: PluginProcess, context: PluginContext, settings: IsolationSettings, onStop: @escaping @Sendable (String) -> Void) {
        pluginID = context.pluginID
        self.process = process
        self.context = context
        self.settings = settings
        self.onStop = onStop
        socket = FrameSocket(fd: process.socket, nonBlocking: true)
        proxy = HostServiceProxy(context: context)
        // The context judges the bus's rules, as it does in process.
        context.onStop { [weak self] reason in _ = self?.stop(reason) }
        Threads.start(name: "plugin-reader") { [self] in readUntilExit() }
    }

    /// The sandbox the child reported in its hello, once it has said it.
    var sandbox: JSONValue? { state.withLock { $0.hello?["sandbox"] } }

    /// Why the plugin stopped, or nil while it runs.
    var stopReason: String? { state.withLock { $0.stopReason } }

    // MARK: Calls from the host's main thread

    /// Sends a call and waits for its answer until the call's deadline; a
    /// plugin past it is killed. Throws `.stopped` once the plugin is gone.
    func call(_ name: IsolationSettings.Call, _ fields: [(String, JSONValue)] = [], body: [UInt8] = []) throws(WidgetCallError) -> Frame {
        let seconds = settings.deadline(name)
        let id: UInt32? = state.withLock { state in
            guard state.stopReason == nil, !state.exited else { return nil }
            let id = state.nextCallID
            state.nextCallID &+= 1
            state.pending = (id, name.rawValue)
            state.answer = nil
            return id
        }
        guard let id else { throw .stopped(stopReason ?? "stopped") }
        let deadline = Clock.now + seconds
        let frame = Frame(.call, id: id, fields: .object([("call", .string(name.rawValue))] + fields), body: body)
        switch socket.send(frame, deadline: deadline) {
        case .sent:
            break
        case .tooLarge:
            state.withLock { $0.pending = nil }
            context.log.warning("\(name.rawValue) not sent: the message is over \(Frame.maxPayloadBytes) bytes")
            throw .status(WH_INVALID_VALUE.rawValue)
        case .timedOut:
            throw .stopped(stop("timed out in \(name.rawValue) after \(seconds.formatted1)s"))
        case .closed:
            // The child is going; its reader will say why.
            _ = answered.wait(timeout: .now() + 2)
            throw .stopped(stopReason ?? stop("closed its connection during \(name.rawValue)"))
        }
        while true {
            let remaining = deadline - Clock.now
            if remaining <= 0 || answered.wait(timeout: .now() + remaining) == .timedOut {
                throw .stopped(stop("timed out in \(name.rawValue) after \(seconds.formatted1)s"))
            }
            let outcome: Frame?? = state.withLock { state in
                if let answer = state.answer, answer.id == id {
                    state.answer = nil
                    state.pending = nil
                    return .some(answer)
                }
                return state.exited || state.stopReason != nil ? .some(nil) : nil
            }
            switch outcome {
            case let .some(answer?): return answer
            case .some(nil): throw .stopped(stopReason ?? "stopped")
            case nil: continue   // a stale wake-up
            }
        }
    }

    /// Stops the plugin for `reason` (the first reason given wins) and
    /// returns the reason that stands.
    @discardableResult
    func stop(_ reason: String) -> String {
        let standing = state.withLock { state -> String in
            if state.stopReason == nil && !state.closing { state.stopReason = reason }
            if !state.reaped { process.kill() }
            return state.stopReason ?? reason
        }
        // Said now, not when the child is reaped: the host may be about to exit.
        notifyStop()
        return standing
    }

    /// Logs the plugin's unexpected end and tells `onStop`, once.
    private func notifyStop() {
        let reason = state.withLock { state -> String? in
            guard !state.notified, !state.closing, let reason = state.stopReason else { return nil }
            state.notified = true
            return reason
        }
        guard let reason else { return }
        context.log.warning("stopped: \(reason)")
        onStop(reason)
    }

    /// Ends the plugin on the host's initiative: destroy, then the process.
    func close() {
        // Closing first: the child exits as soon as it has answered destroy.
        let running = state.withLock { state in
            state.closing = true
            return !state.exited && state.stopReason == nil
        }
        if running { _ = try? call(.destroy) }
        state.withLock { state in
            if !state.reaped { process.kill() }
        }
    }

    deinit {
        socket.close()
    }

    // MARK: The reader thread

    private func readUntilExit() {
        var decoder = FrameDecoder()
        var socketOpen = true, reportOpen = true, outputOpen = true
        var socketClosedAt: Double?
        while true {
            var fds = [
                pollfd(fd: socketOpen ? process.socket : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: reportOpen ? process.report : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: outputOpen ? process.output : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: process.exitDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let waitMilliseconds: Int32 = socketOpen && process.exitDescriptor >= 0 ? -1 : 100
            if poll(&fds, nfds_t(fds.count), waitMilliseconds) < 0 && errno != EINTR {
                stop("could not be watched: poll failed with \(SystemError(code: errno))")
                break
            }
            if fds[0].revents != 0 {
                socketOpen = readFrames(&decoder)
                if !socketOpen { socketClosedAt = Clock.now }
            }
            if fds[1].revents != 0 { reportOpen = drain(process.report, into: \.report, limit: ChildReport.limit) }
            if fds[2].revents != 0 { outputOpen = drainOutput() }
            if fds[3].revents != 0 || (process.exitDescriptor < 0 && !socketOpen && process.hasExited) { break }
            if let closedAt = socketClosedAt, Clock.now - closedAt > 1, !process.hasExited {
                // Alive but deaf: it closed its end of the conversation.
                stop("closed its connection to the host")
                socketClosedAt = nil
            }
        }
        while reportOpen { reportOpen = drain(process.report, into: \.report, limit: ChildReport.limit) }
        while outputOpen { outputOpen = drainOutput() }
        state.withLock { $0.reaped = true }
        finish(termination: process.reap())
    }

    /// Reads and handles whatever frames have arrived; false once the
    /// socket is closed or the child broke the protocol.
    private func readFrames(_ decoder: inout FrameDecoder) -> Bool {
        while true {
            switch socket.receive(into: &decoder) {
            case .closed: return false
            case .wouldBlock: return true
            case .received:
                do {
                    while let frame = try decoder.next() { handle(frame) }
                } catch {
                    stop("broke the protocol: \(error)")
                    return false
                }
            }
        }
    }

    private func handle(_ frame: Frame) {
        // A stopped plugin's last frames are not acted on: it is being killed.
        guard state.withLock({ $0.stopReason == nil }) else { return }
        switch frame.kind {
        case .hello:
            let version = frame.fields["protocol"]?.int64
            guard version == Int64(Frame.protocolVersion) else {
                stop("speaks protocol \(version.map(String.init) ?? "?"); this host speaks \(Frame.protocolVersion)")
                return
            }
            state.withLock { $0.hello = frame.fields }
            if let missing = frame.fields["sandbox"]?["missing"]?.string, !missing.isEmpty {
                let refused = frame.fields["sandbox"]?["complete"] == .bool(false) && !settings.allowWeakSandbox
                IsolationNotices.sayOnce("the sandbox is without \(missing); " + (refused
                    ? "isolated plugins are refused (--allow-weak-sandbox runs them with what is available)"
                    : "isolated plugins run with what is available"), log: context.runtime.log)
            }
        case .result:
            let accepted = state.withLock { state -> Bool in
                guard state.hello != nil, let pending = state.pending, pending.id == frame.id, state.answer == nil else { return false }
                state.answer = frame
                return true
            }
            if accepted { answered.signal() } else { stop("broke the protocol: an answer to no call (id \(frame.id))") }
        case .service:
            guard withinRate() else { return }
            if HostServiceProxy.isSlow(frame) {
                performSlow(frame)
            } else {
                perform(frame)
            }
        case .wake:
            guard withinRate() else { return }
            context.host.pointee.request_render?(context.host)
        case .call, .reply:
            stop("broke the protocol: sent a message only the host may send")
        }
    }

    private func perform(_ frame: Frame) {
        let reply: Frame
        do { reply = try proxy.perform(frame) } catch {
            stop("broke the protocol: \(error)")
            return
        }
        switch socket.send(reply, deadline: Clock.now + 5) {
        case .sent, .closed: break
        case .timedOut: stop("stopped reading the host's replies")
        case .tooLarge: stop("asked for a reply over \(Frame.maxPayloadBytes) bytes")
        }
    }

    /// An http GET may take seconds: it runs off this thread, at most a
    /// few at once, so answers and other calls keep flowing meanwhile.
    private func performSlow(_ frame: Frame) {
        let admitted = state.withLock { state -> Bool in
            guard state.slowCalls < Self.maxSlowCalls else { return false }
            state.slowCalls += 1
            return true
        }
        guard admitted else {
            context.log.warning("http GET refused: \(Self.maxSlowCalls) requests already in flight")
            _ = socket.send(Frame(.reply, id: frame.id, fields: ["result": .int(WH_HTTP_FAILED)]), deadline: Clock.now + 5)
            return
        }
        DispatchQueue.global(qos: .utility).async { [self] in
            perform(frame)
            state.withLock { $0.slowCalls -= 1 }
        }
    }

    /// Counts a service call against the per-second limit; false (and the
    /// plugin stopped) once it floods. Bus events have a limit of their own,
    /// which the context keeps (`PluginContext.publish`).
    private func withinRate() -> Bool {
        let now = Clock.now
        guard state.withLock({ $0.calls.add(at: now) }) > settings.maxServiceCallsPerSecond else { return true }
        stop("flooded the host: more than \(settings.maxServiceCallsPerSecond) service calls in a second")
        return false
    }

    /// Reads a pipe into a capped buffer; false at its end.
    private func drain(_ fd: Int32, into buffer: WritableKeyPath<State, [UInt8]>, limit: Int) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return true }
            guard count > 0 else { return false }
            state.withLock { state in
                let room = max(0, limit - state[keyPath: buffer].count)
                state[keyPath: buffer] += chunk[0..<min(count, room)]
            }
        }
    }

    /// What the plugin prints is logged, attributed to it; the tail is kept
    /// to explain a crash.
    private func drainOutput() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(process.output, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return true }
            guard count > 0 else { return false }
            let text = String(decoding: chunk[0..<count], as: UTF8.self)
            for line in text.split(separator: "\n") {
                context.log.info("printed: \(line.prefix(500))")
            }
            state.withLock { state in
                state.outputTail += chunk[0..<count]
                if state.outputTail.count > 8192 { state.outputTail.removeFirst(state.outputTail.count - 8192) }
            }
        }
    }

    private func finish(termination: ChildProcess.Termination) {
        let unexpected = state.withLock { state -> Bool in
            if state.stopReason == nil && !state.closing {
                state.stopReason = StopReason.describe(
                    termination, report: ChildReport(text: String(decoding: state.report, as: UTF8.self)),
                    call: state.pending?.name,
                    fatalError: StopReason.fatalError(in: String(decoding: state.outputTail, as: UTF8.self)),
                    settings: settings)
            }
            state.exited = true
            return !state.closing
        }
        process.closePipes()
        notifyStop()
        answered.signal()
        if unexpected {
            // The screen shows the plugin; let it show that it stopped.
            context.host.pointee.request_render?(context.host)
        }
    }
}

/// Things worth saying once per host process, not once per plugin.
enum IsolationNotices {
    private static let said = Locked<Set<String>>([])

    static func sayOnce(_ text: String, log: HostLog) {
        guard said.withLock({ $0.insert(text).inserted }) else { return }
        log.log(.warning, "isolation", text)
    }
}
