import Glibc

/// Frames over one end of a stream socket. Whole frames are written under a
/// lock, so threads may send concurrently without interleaving. Writes use
/// MSG_NOSIGNAL: a peer that died is an error to handle, not a SIGPIPE that
/// ends this process.
final class FrameSocket: Sendable {
    enum SendOutcome: Equatable {
        case sent
        /// The peer stopped reading and the deadline passed.
        case timedOut
        /// The peer is gone.
        case closed
        /// The frame is over the protocol's limit; nothing was sent.
        case tooLarge
    }

    enum ReceiveOutcome: Equatable {
        case received
        case wouldBlock
        case closed
    }

    let fd: Int32
    /// Guards the writes, and the memory every frame is encoded into: one
    /// allocation kept, not one a frame.
    private let writing = Locked(FrameWriter())

    /// `receiveSlice` (seconds), for the host's end: a receive that waits
    /// gives up after a slice, so that the waiting thread can look at its
    /// deadline. The descriptor itself stays blocking: a call's thread waits
    /// for its answer in `recv` itself, one system call, not a `poll` and
    /// then a `recv`. Sends never block in the kernel (`send`).
    init(fd: Int32, receiveSlice: Double? = nil) {
        self.fd = fd
        if let receiveSlice {
            var slice = timeval(tv_sec: Int(receiveSlice), tv_usec: Int((receiveSlice - receiveSlice.rounded(.down)) * 1_000_000))
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &slice, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// Sends a whole frame. When the peer's buffer is full it calls
    /// `whenFull` (the child rings the host, which reads only when rung) and
    /// waits for room, with a `deadline` (monotonic seconds, `Clock.now`)
    /// only until then: a peer that stops reading cannot hold the host past it.
    func send(_ frame: Frame, deadline: Double? = nil, whenFull: (() -> Void)? = nil) -> SendOutcome {
        writing.withLock { send(frame, through: $0, deadline: deadline, whenFull: whenFull) }
    }

    /// The same, for a caller whose own lock already orders its sends: it
    /// passes the writer that lock guards, and this socket's lock is not taken.
    func send(_ frame: Frame, through writer: FrameWriter, deadline: Double? = nil, whenFull: (() -> Void)? = nil) -> SendOutcome {
        frame.encode(into: writer)
        // A large frame's memory is let go once it is sent.
        defer { writer.removeAll() }
        guard !Frame.isTooLarge(encoded: writer.count) else { return .tooLarge }
        let raw = writer.bytes
        var done = 0
        while done < raw.count {
            let count = Glibc.send(fd, raw.baseAddress! + done, raw.count - done, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            if count > 0 {
                done += count
                continue
            }
            if count < 0 && errno == EINTR { continue }
            guard count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) else { return .closed }
            if let deadline, Clock.now >= deadline { return .timedOut }
            whenFull?()
            var poll = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let wait = deadline.map { Int32(max(0, ($0 - Clock.now) * 1000)) + 1 } ?? -1
            if Glibc.poll(&poll, 1, wait) < 0 && errno != EINTR { return .closed }
            if poll.revents & Int16(POLLERR | POLLHUP) != 0 { return .closed }
        }
        return .sent
    }

    /// Reads what the socket holds into `decoder`. `waiting`: blocks until
    /// something arrives (on the host's end, for a slice at most: then
    /// `.wouldBlock`); otherwise takes only what is there.
    func receive(into decoder: inout FrameDecoder, waiting: Bool = true) -> ReceiveOutcome {
        let fd = fd, flags = waiting ? 0 : Int32(MSG_DONTWAIT)
        while true {
            let count = decoder.fill { room in recv(fd, room.baseAddress, room.count, flags) }
            if count > 0 { return .received }
            if count == 0 { return .closed }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .closed
        }
    }

    func close() {
        _ = Glibc.close(fd)
    }
}
