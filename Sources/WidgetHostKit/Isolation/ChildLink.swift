import Glibc

/// The child's end of the socketpair. There is no reader thread: whoever
/// is waiting for a frame reads (the main thread for its next call, a
/// plugin thread for its service reply), one at a time, and hands frames
/// meant for the others to them. So the common path, a call read and
/// answered by the main thread, crosses no thread at all, and a plugin may
/// still call services from inside a call and from its own threads at
/// once. A watcher thread only waits for the host to hang up.
final class ChildLink: @unchecked Sendable {
    /// The process's one link, for the service tables' C functions.
    nonisolated(unsafe) static var shared: ChildLink?

    private let socket: FrameSocket
    /// Guards everything below; waiters sleep on it.
    private let condition = Condition()
    private var reading = false
    private var decoder = FrameDecoder()
    private var calls: [Frame] = []
    private var replies: [UInt32: Frame] = [:]
    private var nextServiceID: UInt32 = 1

    init(fd: Int32) {
        socket = FrameSocket(fd: fd, nonBlocking: false)
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

    /// The next call from the host; blocks until one comes.
    func nextCall() -> Frame {
        waitFor { $0.calls.isEmpty ? nil : $0.calls.removeFirst() }
    }

    func send(_ frame: Frame) {
        if socket.send(frame) == .closed { Self.hostGone() }
    }

    func answer(_ call: Frame, _ answer: CallAnswer, body: [UInt8] = []) {
        send(Frame(answer: answer, id: call.id, body: body))
    }

    /// A render's or a query's answer: its status and output, or that the output overflowed.
    func answer(_ call: Frame, output: OutputBuffer, status: Int32) {
        if output.overflowed { answer(call, .overflowed) } else { answer(call, .status(status), body: output.bytes) }
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
        switch socket.send(Frame(.service, id: id, fields: .object(members + fields), body: body)) {
        case .sent: return waitFor { $0.replies.removeValue(forKey: id) }
        case .tooLarge: return nil
        case .closed, .timedOut: Self.hostGone()
        }
    }

    /// Waits until `take` finds what the caller wants, reading frames while
    /// no other thread is.
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
            let frames = readFrames()
            condition.lock()
            reading = false
            for frame in frames {
                switch frame.kind {
                case .call: calls.append(frame)
                case .reply: replies[frame.id] = frame
                default: continue
                }
            }
            condition.broadcast()
        }
    }

    /// Blocks for the next bytes and returns every whole frame they finish.
    /// Only the thread holding the reading role calls this.
    private func readFrames() -> [Frame] {
        guard socket.receive(into: &decoder) == .received else { Self.hostGone() }
        var frames: [Frame] = []
        do {
            while let frame = try decoder.next() { frames.append(frame) }
        } catch {
            Self.hostGone()
        }
        return frames
    }

    /// Without its host a plugin process has no reason to live; _exit skips
    /// the plugin's atexit handlers, which could hang.
    static func hostGone() -> Never {
        _exit(0)
    }
}
