import Dispatch
import Glibc
import PluginABI

/// The reader thread: everything the child sends, answers, service calls,
/// wake-ups and reports, read whether or not a call is in flight.
extension IsolatedConnection {
    func readUntilExit() {
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
                    : "isolated plugins run with what is available"), log: context.hostLog)
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
}
