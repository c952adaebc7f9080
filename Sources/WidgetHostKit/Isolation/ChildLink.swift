import Glibc

/// The child's end of the socketpair. There is no reader thread: whoever
/// is waiting for a frame reads (the main thread for its next call, a
/// plugin thread for its service reply), one at a time, and hands frames
/// meant for the others to them. So the common path, a call read and
/// answered by the main thread, crosses no thread at all, and a plugin may
/// still call services from inside a call and from its own threads at
/// once. A watcher thread only waits for the host to hang up.
///
/// The host reads the socket in two ways: the thread making a call reads
/// it until its answer, and a watching thread reads what comes between
/// calls. That thread waits on the doorbell, not on the socket, so that an
/// answer wakes only the thread that waits for it: a frame the calling
/// thread will not read (any frame sent while no call is being served)
/// rings the bell once it is on the stream.
final class ChildLink: @unchecked Sendable {
    /// The process's one link, for the service tables' C functions.
    nonisolated(unsafe) static var shared: ChildLink?

    private let socket: FrameSocket
    private let doorbell: Int32
    /// Sends hold this lock, so that whether a frame is before the answer
    /// on the stream, and so whether to ring, is decided in the stream's
    /// order; and since it orders them, they encode into its writer, not
    /// the socket's.
    private let sending = Locked(FrameWriter())
    /// Whether a call is being served: from when it is taken to when its
    /// answer is sent. Only the main thread changes it. It turns false in
    /// `sending`'s lock, with the answer; it turns true outside it, when a
    /// call is taken, because a send that sees it false a moment too early
    /// only rings a bell the host did not need (a send that took the lock
    /// before the call was taken would ring all the same).
    private let serving = AtomicCell<Bool>(false)
    /// Guards everything below; waiters sleep on it. It makes every access
    /// exclusive, so the dynamic checks a class's `var` pays on each access
    /// (several on every call) are left out.
    private let condition = Condition()
    @exclusivity(unchecked) private var reading = false
    /// Touched by the reading thread alone, whether or not it holds the lock.
    @exclusivity(unchecked) private var decoder = FrameDecoder()
    @exclusivity(unchecked) private var calls = FIFOQueue<(id: UInt32, call: ChildCall)>()
    @exclusivity(unchecked) private var replies: [UInt32: Frame] = [:]
    @exclusivity(unchecked) private var nextServiceID: UInt32 = 1

    init(fd: Int32, doorbell: Int32) {
        socket = FrameSocket(fd: fd)
        self.doorbell = doorbell
    }

    /// Starts the thread that ends the process when the host hangs up, even
    /// while no one reads (the plugin busy in a call).
    func watchForHangUp() {
        let fd = socket.fd
        Threads.start(name: "host-watcher") {
            // POLLRDHUP (0x2000 on Linux; Glibc's module leaves it out), not
            // POLLIN: the watcher must never wake for, or take, a frame.
            var poll = pollfd(fd: fd, events: 0x2000, revents: 0)
            while Glibc.poll(&poll, 1, -1) < 0 && errno == EINTR {}
            Self.hostGone()
        }
    }

    /// The next call from the host, and the id its answer carries; blocks until one comes.
    func nextCall() -> (id: UInt32, call: ChildCall) {
        let call = waitFor { $0.calls.popFirst() }
        serving.store(true, ordering: .releasing)
        return call
    }

    func send(_ frame: Frame) {
        if sendAndRing(frame) == .closed { Self.hostGone() }
    }

    /// Sends a frame, and rings the doorbell if the host's calling thread
    /// may not read it: if no call is being served. Such a frame rings once
    /// it is sent, and each time the socket is full before that (a frame
    /// larger than the socket holds waits for the host to read). An answer
    /// never rings: the calling thread reads up to it, and so every frame before it.
    private func sendAndRing(_ frame: Frame) -> FrameSocket.SendOutcome {
        let (outcome, ring) = sending.withLock { writer in
            let serving = serving.load(ordering: .acquiring)
            let outcome = serving ? socket.send(frame, through: writer)
                : socket.send(frame, through: writer, whenFull: { self.ringDoorbell() })
            if frame.kind == .result {
                self.serving.store(false, ordering: .releasing)
                return (outcome, false)
            }
            return (outcome, outcome == .sent && !serving)
        }
        if ring { ringDoorbell() }
        return outcome
    }

    private func ringDoorbell() {
        // A full bell has rung already: the host will read.
        var byte: UInt8 = 1
        _ = Glibc.send(doorbell, &byte, 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
    }

    func answer(_ id: UInt32, _ answer: CallAnswer, body: [UInt8] = []) {
        send(Frame(answer: answer, id: id, body: body))
    }

    /// A render's or a query's answer: its status and output, or that the output overflowed.
    func answer(_ id: UInt32, output: OutputBuffer, status: Int32) {
        if output.overflowed { answer(id, .overflowed) } else { answer(id, .status(status), body: output.bytes) }
    }

    /// Calls a host service and waits for its reply; nil if the call cannot
    /// be sent (it is over the size limit).
    func service(_ service: String?, _ function: String, _ fields: [(String, JSONValue)], body: [UInt8] = []) -> Frame? {
        condition.lock()
        let id = nextServiceID
        nextServiceID &+= 1
        condition.unlock()
        var members: [(String, JSONValue)] = [("fn", .string(function))]
        if let service { members.append(("service", .string(service))) }
        switch sendAndRing(Frame(.service, id: id, fields: .object(members + fields), body: body)) {
        case .sent: return waitFor { $0.replies.removeValue(forKey: id) }
        case .tooLarge: return nil
        case .closed, .timedOut: Self.hostGone()
        }
    }

    /// Waits until `take` finds what the caller wants, reading frames while
    /// no other thread is. The frames a read completes are filed in the lock,
    /// one at a time, not gathered first.
    private func waitFor<T>(_ take: (ChildLink) -> T?) -> T {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let value = take(self) { return value }
            guard !reading else {
                condition.wait()
                continue
            }
            reading = true
            condition.unlock()
            let outcome = socket.receive(into: &decoder)
            condition.lock()
            reading = false
            guard outcome == .received else { Self.hostGone() }
            do {
                while let frame = try decoder.next() {
                    switch frame.kind {
                    case .call: if let call = frame.call { calls.append((frame.id, call)) }
                    case .reply: replies[frame.id] = frame
                    default: continue
                    }
                }
            } catch {
                Self.hostGone()
            }
            condition.broadcast()
        }
    }

    /// Without its host a plugin process has no reason to live; _exit skips
    /// the plugin's atexit handlers, which could hang.
    static func hostGone() -> Never {
        _exit(0)
    }
}
