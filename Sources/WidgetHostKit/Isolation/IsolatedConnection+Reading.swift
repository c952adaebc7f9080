import Glibc
import HostShim
import PluginABI

/// The watching thread: the child's reports, output and end, and on its
/// socket everything it sends (answers, service calls, wake-ups) while no
/// call has taken the socket to read its own answer.
extension IsolatedConnection {
    func readUntilExit() {
        let socket = process.socket
        _ = wh_shim_watch_add(watch, socket, 1)
        for fd in [process.report, process.output, process.exitDescriptor] where fd >= 0 { _ = wh_shim_watch_add(watch, fd, 0) }
        var reportOpen = true, outputOpen = true
        var socketClosedAt: Double?
        var ready = [Int32](repeating: -1, count: 4)
        while true {
            let socketOpen = state.withLock { $0.socketOpen }
            if !socketOpen && socketClosedAt == nil { socketClosedAt = Clock.now }
            let waitMilliseconds: Int32 = socketOpen && process.exitDescriptor >= 0 ? -1 : 100
            let count = wh_shim_watch_wait(watch, &ready, Int32(ready.count), waitMilliseconds)
            if count < 0 && errno != EINTR {
                stop("could not be watched: epoll_wait failed with \(SystemError(code: errno))")
                break
            }
            var exited = false
            for fd in ready.prefix(Int(max(0, count))) {
                if fd == socket {
                    readAsWatcher()
                } else if fd == process.report {
                    reportOpen = drain(process.report, into: \.report, limit: ChildReport.limit)
                    if !reportOpen { _ = wh_shim_watch_remove(watch, fd) }
                } else if fd == process.output {
                    outputOpen = drainOutput()
                    if !outputOpen { _ = wh_shim_watch_remove(watch, fd) }
                } else if fd == process.exitDescriptor {
                    exited = true
                }
            }
            if exited || (process.exitDescriptor < 0 && !state.withLock({ $0.socketOpen }) && process.hasExited) { break }
            if let closedAt = socketClosedAt, Clock.now - closedAt > 1, !process.hasExited {
                // Alive but deaf: it closed its end of the conversation.
                stop("closed its connection to the host")
                socketClosedAt = .infinity
            }
        }
        while reportOpen { reportOpen = drain(process.report, into: \.report, limit: ChildReport.limit) }
        while outputOpen { outputOpen = drainOutput() }
        state.withLock { $0.reaped = true }
        finish(termination: process.reap())
    }

    /// The socket is ready and this thread may read it, unless a caller has
    /// taken it for its call (it watches the socket again when it is done).
    private func readAsWatcher() {
        let mine = state.withLock { state -> Bool in
            guard state.socketReader == nil else { return false }
            state.socketReader = .watcher
            return true
        }
        guard mine else { return }
        let open = readFrames()
        state.withLock { state in
            state.socketReader = nil
            if !open { state.socketOpen = false }
        }
        _ = open ? wh_shim_watch_rearm(watch, process.socket) : wh_shim_watch_remove(watch, process.socket)
    }

    /// Reads what has arrived, once, and handles the frames it completes,
    /// by whichever thread holds the socket; false once the socket is
    /// closed or the child broke the protocol. Bytes still waiting make the
    /// socket ready again: the caller's next poll, or the watching thread's
    /// epoll once the socket is rearmed, comes back at once.
    func readFrames() -> Bool {
        switch socket.receive(into: &decoder.pointee) {
        case .closed: return false
        case .wouldBlock: return true
        case .received:
            do {
                while let frame = try decoder.pointee.next() { handle(frame) }
                return true
            } catch {
                stop("broke the protocol: \(error)")
                return false
            }
        }
    }

    private func handle(_ frame: consuming Frame) {
        // A stopped plugin's last frames are not acted on: it is being
        // killed. (An answer, on every call, is checked in the same lock that takes it.)
        if frame.kind != .result {
            guard state.withLock({ $0.stopReason == nil }) else { return }
        }
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
                    : "isolated plugins run with what is available"), log: context.hostLog)
            }
        case .result:
            accept(frame)
        case .service:
            guard withinRate() else { return }
            switch HostServiceProxy.placement(of: frame) {
            case .onReader: perform(frame)
            case .offReader: performSlow(frame)
            case .onWaitingCaller: performOnWaitingCaller(frame)
            }
        case .wake:
            guard withinRate() else { return }
            context.host.pointee.request_render?(context.host)
        case .call, .reply:
            stop("broke the protocol: sent a message only the host may send")
        }
    }

    /// An answer, for the call waiting for it; in one lock, as it comes on every call.
    private func accept(_ frame: consuming Frame) {
        enum Verdict { case ignored, accepted, acceptedForOtherThread, refused }
        let id = frame.id
        var incoming = Optional(frame)
        let verdict = state.withLock { state -> Verdict in
            guard state.stopReason == nil else { return .ignored }
            guard state.hello != nil, state.pending?.id == id, case .none = state.answer else { return .refused }
            // Moved in, not copied: it comes on every call.
            state.answer = incoming.take()
            // A caller reading its own answer looks at once; one waiting on
            // the watching thread's reading is woken.
            return state.socketReader == .caller ? .accepted : .acceptedForOtherThread
        }
        switch verdict {
        case .ignored, .accepted: break
        case .acceptedForOtherThread: answered.signal()
        case .refused: stop("broke the protocol: an answer to no call (id \(id))")
        }
    }
}
