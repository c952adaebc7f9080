import Glibc
import HostShim
import PluginABI

/// The watching thread: the child's reports, output and end, and on its
/// socket what it sends between calls (service calls from the plugin's
/// threads, render requests), which the child announces on the doorbell.
/// The socket itself is watched for the child's hang-up alone: during a call
/// the calling thread reads it, answer and all, and this thread does not wake.
extension IsolatedConnection {
    func readUntilExit() {
        let socket = process.socket
        if handOver < 0 { stop("could not be watched: no eventfd could be made (\(SystemError(code: handOverError)))") }
        _ = wh_shim_watch_add_hangup(watch, socket)
        for fd in [process.doorbell, handOver, process.report, process.output, process.exitDescriptor] where fd >= 0 {
            _ = wh_shim_watch_add(watch, fd)
        }
        var reportOpen = true, outputOpen = true, hungUp = false
        var socketClosedAt: Double?
        var ready = [Int32](repeating: -1, count: 6)
        while true {
            let socketOpen = state.withLock { $0.socketOpen }
            if !socketOpen && socketClosedAt == nil { socketClosedAt = Clock.now }
            // Once the child has hung up, the socket's end may be read by a
            // call's thread: look at it again every so often.
            let waitMilliseconds: Int32 = socketOpen && !hungUp && process.exitDescriptor >= 0 ? -1 : 100
            let count = wh_shim_watch_wait(watch, &ready, Int32(ready.count), waitMilliseconds)
            if count < 0 && errno != EINTR {
                stop("could not be watched: epoll_wait failed with \(SystemError(code: errno))")
                break
            }
            var exited = false
            for fd in ready.prefix(Int(max(0, count))) {
                if fd == process.doorbell {
                    let rings = drainDoorbell()
                    if rings == nil { _ = wh_shim_watch_remove(watch, fd) }
                    if !readBetweenCalls() { noteEmpty(rings: rings ?? 0) }
                } else if fd == handOver {
                    _ = wh_shim_watch_take_nudges(fd)
                    readBetweenCalls(handedOver: true)
                } else if fd == socket {
                    // Hung up (or failed): read it to its end, and watch it no more.
                    _ = wh_shim_watch_remove(watch, fd)
                    hungUp = true
                    readBetweenCalls()
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

    /// Empties the doorbell: its rings say only "read the socket". How
    /// many there were; nil once the child's end is closed (or the doorbell failed).
    private func drainDoorbell() -> Int? {
        var bytes = [UInt8](repeating: 0, count: 256), rings = 0
        while true {
            let count = recv(process.doorbell, &bytes, bytes.count, Int32(MSG_DONTWAIT))
            if count > 0 {
                rings += count
                continue
            }
            if count < 0 && errno == EINTR { continue }
            return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? rings : nil
        }
    }

    /// Reads what the child sent between calls, unless a call holds the
    /// socket: then a ring is noted, and the call hands it back when it lets
    /// the socket go (`handOver`), since what the ring announced may come
    /// after its answer. What a hand-over stands for came before the call
    /// that holds the socket now, so that call reads it if it is answered
    /// (one that ends without its answer hands back in any case): noting it
    /// again would have every call hand back to the next, for good. A call
    /// that started while this reading held the socket is told when it may
    /// take it. True if it read anything. Only the watching thread calls
    /// this, so no ring is noted while it reads.
    @discardableResult
    func readBetweenCalls(handedOver: Bool = false) -> Bool {
        let mine = state.withLock { state -> Bool in
            guard state.socketReader == nil else {
                if !handedOver { state.rang = true }
                return false
            }
            state.socketReader = .betweenCalls
            return true
        }
        guard mine else { return false }
        var outcome = FrameSocket.ReceiveOutcome.received, readAny = false
        while outcome == .received {
            outcome = readFrames(waiting: false)
            if outcome == .received { readAny = true }
        }
        let callWaits = state.withLock { state -> Bool in
            if outcome == .closed { state.socketOpen = false }
            state.socketReader = nil
            return state.pending != nil && state.answer == nil
        }
        if callWaits { answered.signal() }
        return readAny
    }

    /// Counts rings that found nothing to read, and stops the plugin once
    /// they flood: a child ringing for nothing would keep this thread busy.
    /// Each frame sent between calls rings about once, and its ring finds
    /// nothing only when the frame was read already, with others; so no
    /// more rings find nothing than frames come, which the service calls'
    /// limit bounds.
    private func noteEmpty(rings: Int) {
        let now = Clock.now
        guard state.withLock({ $0.emptyRings.add(rings, at: now) }) > settings.maxServiceCallsPerSecond else { return }
        stop("flooded the host: rang its doorbell more than \(settings.maxServiceCallsPerSecond) times in a second with nothing to read")
    }

    /// Reads what has arrived (`waiting`: blocking for a slice at most) and
    /// handles the frames it completes, by whichever thread holds the
    /// socket; `.closed` once the socket is closed or the child broke the protocol.
    func readFrames(waiting: Bool) -> FrameSocket.ReceiveOutcome {
        let outcome = socket.receive(into: &decoder.pointee, waiting: waiting)
        guard outcome == .received else { return outcome }
        do {
            while let frame = try decoder.pointee.next() { handle(frame) }
            return .received
        } catch {
            stop("broke the protocol: \(error)")
            return .closed
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
            return state.socketReader == .call ? .accepted : .acceptedForOtherThread
        }
        switch verdict {
        case .ignored, .accepted: break
        case .acceptedForOtherThread: answered.signal()
        case .refused: stop("broke the protocol: an answer to no call (id \(id))")
        }
    }
}
