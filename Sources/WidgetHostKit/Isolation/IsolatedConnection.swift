import Glibc
import HostShim
import PluginABI

/// The host's end of one isolated plugin's process: calls out with a
/// deadline each, and a thread of its own that watches the child (its
/// reports, output and end) and reads what it sends between calls (service
/// calls from the plugin's threads, render requests), when the child rings
/// its doorbell. During a call the calling thread takes the socket and
/// waits for its own answer in `recv`, serving what comes before it, so a
/// call costs the host two system calls and an answer wakes one thread.
///
/// The plugin is stopped, its process group killed, for any of: a deadline
/// passed, a frame over the size limit or otherwise malformed, a flood of
/// events or service calls, a forged service call. Its death, however it
/// comes, is explained once in words (`StopReason`) and handed to `onStop`.
final class IsolatedConnection: @unchecked Sendable {
    let pluginID: PluginID
    let context: PluginContext
    let settings: PluginRunSettings
    let process: PluginProcess
    let socket: FrameSocket
    let proxy: HostServiceProxy
    private let onStop: @Sendable (String) -> Void
    let state = Locked(State())
    /// Signalled once per answer and once when the child is gone.
    let answered = Semaphore()
    /// The epoll set the watching thread waits on: the doorbell, the pipes,
    /// the child's end, the socket for its hang-up, and `handOver`.
    let watch = wh_shim_watch_create()
    /// Made readable by a call that lets the socket go after the doorbell
    /// rang, or without its answer: the watching thread reads what may be
    /// left, not the calling thread (the host's main thread), which returns at once.
    let handOver: Int32
    /// Why `handOver` could not be made (the watching thread says it).
    let handOverError: Int32
    /// The frames read so far: only the thread holding the socket
    /// (`State.socketReader`) touches it. Behind a pointer, not in a stored
    /// `var`: that lock already makes access exclusive, and a class's `var`
    /// would pay a dynamic exclusivity check on every read of every call.
    let decoder = UnsafeMutablePointer<FrameDecoder>.allocate(capacity: 1)

    struct State {
        var nextCallID: UInt32 = 1
        var pending: (id: UInt32, name: PluginRunSettings.Call)?
        var answer: Frame?
        /// Who is reading the socket now, if anyone.
        var socketReader: SocketReader?
        /// The doorbell rang while a call held the socket: the call hands
        /// the socket back to the watching thread when it lets it go.
        var rang = false
        var socketOpen = true
        /// Service calls the reader handed to the thread waiting in `call`.
        var forCaller: [Frame] = []
        var hello: JSONValue?
        var stopReason: String?
        var exited = false
        /// How the child ended, once it is reaped.
        var termination: ChildProcess.Termination?
        /// Once the child is reaped its pid may be reused: never signal it again.
        var reaped = false
        /// The host ended the child itself: not a crash.
        var closing = false
        /// `onStop` has heard of this plugin's end.
        var notified = false
        /// `onStop` has returned: what it records (the quarantine) is on
        /// disk, so a caller may let the host exit.
        var told = false
        var slowCalls = 0
        var calls = PerSecondCounter()
        /// Doorbell rings that found nothing to read (`readUntilExit`).
        var emptyRings = PerSecondCounter()
        var report: [UInt8] = []
        var outputTail: [UInt8] = []
    }

    /// A call reading up to its answer, or the watching thread reading what
    /// came between calls.
    enum SocketReader { case call, betweenCalls }

    /// How long a call's thread waits in one `recv` before it looks at its deadline.
    static let receiveSlice = 0.025

    /// The most http calls one plugin may have waiting at once.
    static let maxSlowCalls = 8

    init(process: PluginProcess, context: PluginContext, settings: PluginRunSettings, onStop: @escaping @Sendable (String) -> Void) {
        pluginID = context.pluginID
        self.process = process
        self.context = context
        self.settings = settings
        self.onStop = onStop
        socket = FrameSocket(fd: process.socket, receiveSlice: Self.receiveSlice)
        handOver = wh_shim_watch_nudge_create()
        handOverError = handOver < 0 ? errno : 0
        decoder.initialize(to: FrameDecoder())
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
    func call(_ call: consuming ChildCall) throws(WidgetCallError) -> Frame {
        let name = call.name
        let seconds = settings.deadline(name)
        // One lock for the call's id and the socket, which the call reads
        // itself unless the watching thread is reading it this moment (the
        // call then waits for what it reads).
        let started: (id: UInt32, ownsSocket: Bool)? = state.withLock { state in
            guard state.stopReason == nil, !state.exited else { return nil }
            let id = state.nextCallID
            state.nextCallID &+= 1
            state.pending = (id, name)
            state.answer = nil
            let ownsSocket = state.socketReader == nil && state.socketOpen
            if ownsSocket { state.socketReader = .call }
            return (id, ownsSocket)
        }
        guard let (id, ownsSocket) = started else { throw .stopped(stopReason ?? "stopped") }
        // The socket is let go in the lock that takes the answer, or else here.
        var holdsSocket = ownsSocket
        defer { if holdsSocket { letGoOfSocket() } }
        var readingSocket = ownsSocket
        var deadline = Clock.now + seconds
        // Time the plugin spends waiting on the host (a contract ask) is
        // given back, but only up to the call's ceiling: asking forever
        // must not hold the host forever.
        let ceilingSeconds = PluginRunSettings.ceiling(deadline: seconds), ceiling = deadline - seconds + ceilingSeconds
        switch socket.send(Frame(call: call, id: id), deadline: deadline) {
        case .sent:
            break
        case .tooLarge:
            state.withLock { $0.pending = nil }
            context.log.warning("\(name.rawValue) not sent: the message is over \(Frame.maxPayloadBytes) bytes")
            throw .status(WH_INVALID_VALUE.rawValue)
        case .timedOut:
            throw .stopped(stop("timed out in \(name.rawValue) after \(seconds.formatted1)s"))
        case .closed:
            // The child is going; its watching thread will say why (a
            // signal of `answered` left from earlier is no word of that).
            let until = Clock.now + 2
            while state.withLock({ !$0.exited && $0.stopReason == nil }), Clock.now < until { _ = answered.wait(seconds: until - Clock.now) }
            throw .stopped(stopReason ?? stop("closed its connection during \(name.rawValue)"))
        }
        var mustWait = true
        while true {
            if mustWait {
                let remaining = deadline - Clock.now
                if remaining <= 0 || !awaitNews(for: remaining, readingSocket: &readingSocket) {
                    throw .stopped(stop(deadline >= ceiling
                        ? "timed out in \(name.rawValue) after \(ceilingSeconds.formatted1)s, its ceiling with the time it waited on the host"
                        : "timed out in \(name.rawValue) after \(seconds.formatted1)s"))
                }
            }
            mustWait = true
            switch state.withLock({ news(for: id, holdingSocket: holdsSocket, in: &$0) }) {
            case let .answer(answer, rang):
                holdsSocket = false
                if rang { _ = wh_shim_watch_nudge(handOver) }
                return answer
            case .tookSocket:
                holdsSocket = true
                readingSocket = true
            case .gone:
                throw .stopped(stopReason ?? "stopped")
            case let .serve(frames):
                // The plugin waits on the host meanwhile: its time is not spent.
                let started = Clock.now
                for frame in frames { perform(frame) }
                deadline = min(deadline + Clock.now - started, ceiling)
                // The answer may have come while they ran.
                mustWait = false
            case .nothing:
                continue   // a stale wake-up
            }
        }
    }

    /// What a waiting call finds when it looks: one look, one lock.
    private enum News {
        /// With whether the doorbell rang while the call held the socket.
        case answer(Frame, rang: Bool)
        /// The socket was free (the reading that held it when the call
        /// started is done): the call now reads it.
        case tookSocket
        /// Service calls the reading thread handed to the caller.
        case serve([Frame])
        case gone
        case nothing
    }

    /// With the answer, the socket this call holds is let go.
    private func news(for id: UInt32, holdingSocket: Bool, in state: inout State) -> News {
        if !state.forCaller.isEmpty {
            defer { state.forCaller.removeAll() }
            return .serve(state.forCaller)
        }
        if state.answer?.id == id, let answer = state.answer.take() {
            state.pending = nil
            return .answer(answer, rang: holdingSocket && Self.letGo(&state))
        }
        let gone = state.exited || state.stopReason != nil
        if gone { return state.told || state.closing || state.stopReason == nil ? .gone : .nothing }
        if !holdingSocket && state.socketReader == nil && state.socketOpen {
            state.socketReader = .call
            return .tookSocket
        }
        return .nothing
    }

    /// Lets go of the socket a call held without its answer (it timed out,
    /// or its call was too large to send): the watching thread looks at the
    /// socket whether or not the doorbell rang meanwhile, since a hand-over
    /// it dropped while this call held the socket was this call's to read.
    private func letGoOfSocket() {
        _ = state.withLock { Self.letGo(&$0) }
        _ = wh_shim_watch_nudge(handOver)
    }

    /// True if the doorbell rang while the socket was held.
    private static func letGo(_ state: inout State) -> Bool {
        state.socketReader = nil
        defer { state.rang = false }
        return state.rang
    }

    /// Waits for something to look at: frames on the socket this thread
    /// holds (read and handled here; `receiveSlice` at most, the caller
    /// looks at its deadline between slices), or else a signal of
    /// `answered`, up to `seconds`. False when the time ran out. Once the
    /// socket closes the caller reads it no more: the watching thread sees the child end.
    private func awaitNews(for seconds: Double, readingSocket: inout Bool) -> Bool {
        guard readingSocket else { return answered.wait(seconds: seconds) }
        if readFrames(waiting: true) == .closed {
            state.withLock { $0.socketOpen = false }
            readingSocket = false
        }
        return true
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
        state.withLock { $0.told = true }
        answered.signal()
    }

    /// Ends the plugin on the host's initiative: destroy, then the process.
    func close() {
        try? destroy()
    }

    /// `close`, saying what destroy met (the validator checks it).
    func destroy() throws(WidgetCallError) {
        // Closing first: the child exits as soon as it has answered destroy.
        let running = state.withLock { state in
            state.closing = true
            return !state.exited && state.stopReason == nil
        }
        defer {
            state.withLock { state in
                if !state.reaped { process.kill() }
            }
        }
        if running { _ = try call(.destroy) }
    }

    /// How the child ended and what its cage reported, once it is reaped
    /// (waiting up to `seconds` for that); no termination if it is not yet.
    func ending(within seconds: Double) -> (ChildProcess.Termination?, ChildReport) {
        let until = Clock.now + seconds
        while state.withLock({ $0.termination == nil }) && Clock.now < until { usleep(10_000) }
        return state.withLock { ($0.termination, ChildReport(text: String(decoding: $0.report, as: UTF8.self))) }
    }

    deinit {
        socket.close()
        Glibc.close(watch)
        Glibc.close(handOver)
        decoder.deinitialize(count: 1)
        decoder.deallocate()
    }

    func finish(termination: ChildProcess.Termination) {
        let unexpected = state.withLock { state -> Bool in
            if state.stopReason == nil && !state.closing {
                state.stopReason = StopReason.describe(
                    termination, report: ChildReport(text: String(decoding: state.report, as: UTF8.self)),
                    call: state.pending?.name.rawValue,
                    fatalError: StopReason.fatalError(in: String(decoding: state.outputTail, as: UTF8.self)),
                    settings: settings)
            }
            state.exited = true
            state.termination = termination
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
