import Glibc

/// A self-pipe that any thread can poke and the main loop can wait on,
/// alone or together with the terminal's input.
public final class Wakeup: @unchecked Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    public init() {
        var fds: [Int32] = [0, 0]
        if pipe(&fds) != 0 { fds = [-1, -1] }
        for fd in fds where fd >= 0 {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Safe from any thread; pokes coalesce.
    public func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Waits up to `seconds` for a poke; true if there was one.
    @discardableResult
    public func wait(seconds: Double) -> Bool {
        var fd = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&fd, 1, Int32(max(seconds, 0) * 1000))
        drain()
        return ready > 0
    }

    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, buffer.count) > 0 {}
    }
}
