import Glibc
import PluginABI

/// The plugin's service calls, run on its behalf through the proxy, within
/// the per-second limit; an http GET off the reader thread.
extension IsolatedConnection {
    func perform(_ frame: Frame) {
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
    func performSlow(_ frame: Frame) {
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
        // A thread of its own, not Dispatch's pool: at most `maxSlowCalls`
        // at once, and none left behind to wake an idle host.
        let started = Threads.start(name: "plugin-http") { [self] in
            perform(frame)
            state.withLock { $0.slowCalls -= 1 }
        }
        if !started {
            state.withLock { $0.slowCalls -= 1 }
            _ = socket.send(Frame(.reply, id: frame.id, fields: ["result": .int(WH_HTTP_FAILED)]), deadline: Clock.now + 5)
        }
    }

    /// A call that must run on the thread waiting for the plugin's answer
    /// (`Placement.onWaitingCaller`) is handed to it; with no call of the
    /// host's in flight the plugin is not inside one, and is refused.
    func performOnWaitingCaller(_ frame: Frame) {
        let handed = state.withLock { state -> Bool in
            guard state.pending != nil else { return false }
            state.forCaller.append(frame)
            return true
        }
        if handed {
            answered.signal()
        } else {
            _ = socket.send(Frame(.reply, id: frame.id, fields: ["result": .int(WH_CONTRACT_NOT_NOW)]), deadline: Clock.now + 5)
        }
    }

    /// Counts a service call against the per-second limit; false (and the
    /// plugin stopped) once it floods. Bus events have a limit of their own,
    /// which the context keeps (`PluginContext.publish`).
    func withinRate() -> Bool {
        let now = Clock.now
        guard state.withLock({ $0.calls.add(at: now) }) > settings.maxServiceCallsPerSecond else { return true }
        stop("flooded the host: more than \(settings.maxServiceCallsPerSecond) service calls in a second")
        return false
    }
}
