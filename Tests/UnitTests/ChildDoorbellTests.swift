import Glibc
import HostShim
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// The child's doorbell: the host's watching thread waits on it, not on the
/// socket, so a frame the calling thread will not read must ring it, and
/// the frames of a call (its answer, a service call made inside it) must
/// not, or every call would wake a second thread of the host's.
@Suite("Isolation: the child's doorbell")
struct ChildDoorbellTests {
    /// A child's link over real sockets, with the host's ends to look at.
    private final class Wiring {
        let link: ChildLink
        let host: FrameSocket
        let bell: Int32
        private let childEnds: [Int32]

        init() throws {
            var sockets: [Int32] = [-1, -1], bells: [Int32] = [-1, -1]
            guard wh_shim_socketpair_cloexec(&sockets) == 0, wh_shim_socketpair_cloexec(&bells) == 0 else {
                throw TestSupport.Failure("socketpair: \(errno)")
            }
            link = ChildLink(fd: sockets[1], doorbell: bells[1])
            host = FrameSocket(fd: sockets[0], receiveSlice: 0.05)
            bell = bells[0]
            childEnds = [sockets[1], bells[1]]
        }

        /// How many rings are waiting, taken.
        func rings() -> Int {
            var bytes = [UInt8](repeating: 0, count: 64)
            return max(0, recv(bell, &bytes, bytes.count, Int32(MSG_DONTWAIT)))
        }

        /// The host's side: the frames that have arrived, in order.
        func received() -> [Frame.Kind] {
            var decoder = FrameDecoder(), kinds: [Frame.Kind] = []
            while host.receive(into: &decoder, waiting: false) == .received {}
            while let frame = try? decoder.next() { kinds.append(frame.kind) }
            return kinds
        }

        /// Sends a call from the host's side and takes it on the child's.
        func serveCall() -> (id: UInt32, call: ChildCall) {
            _ = host.send(Frame(call: .action("tap", value: nil), id: 1), deadline: Clock.now + 5)
            return link.nextCall()
        }

        deinit {
            host.close()
            for fd in childEnds + [bell] { _ = close(fd) }
        }
    }

    @Test("a frame sent while no call is served rings once it is sent")
    func betweenCallsRings() throws {
        let wiring = try Wiring()
        wiring.link.send(Frame(.wake))
        #expect(wiring.rings() == 1)
        #expect(wiring.received() == [.wake])
    }

    @Test("inside a call, neither a frame of the plugin's nor the answer rings; after the answer, a frame rings again")
    func callFramesDoNotRing() throws {
        let wiring = try Wiring()
        let call = wiring.serveCall()
        wiring.link.send(Frame(.wake))
        wiring.link.answer(call.id, .ok)
        #expect(wiring.rings() == 0)
        #expect(wiring.received() == [.wake, .result])
        wiring.link.send(Frame(.wake))
        #expect(wiring.rings() == 1)
        #expect(wiring.received() == [.wake])
    }

    @Test("a frame larger than the socket holds, sent between calls, rings before the host has read any of it, and reading on each ring takes it whole")
    func largeFrameRingsWhenFull() throws {
        let wiring = try Wiring()
        let body = [UInt8](repeating: 7, count: 4 << 20)
        let link = wiring.link
        _ = Threads.start(name: "plugin-thread") { link.send(Frame(.service, id: 9, body: body)) }
        // As the host's watching thread does: wait on the bell, then read what is there.
        var decoder = FrameDecoder(), frame: Frame?, rang = true
        while frame == nil {
            var bell = pollfd(fd: wiring.bell, events: Int16(POLLIN), revents: 0)
            guard Glibc.poll(&bell, 1, 5000) == 1 else {
                rang = false
                break
            }
            _ = wiring.rings()
            while wiring.host.receive(into: &decoder, waiting: false) == .received {}
            frame = try decoder.next()
        }
        #expect(rang, "no ring, with \(decoder.pendingBytes) bytes of the frame read")
        // The rest, rung or not: a child's link ends its process when its socket closes, and here that is the test's.
        while frame == nil, wiring.host.receive(into: &decoder, waiting: true) != .closed { frame = try decoder.next() }
        #expect(frame?.id == 9 && frame?.body == body)
    }

    @Test("a receive that waits on the host's end gives up after its slice; one that does not wait returns at once")
    func hostReceiveIsBounded() throws {
        let wiring = try Wiring()
        var decoder = FrameDecoder()
        #expect(wiring.host.receive(into: &decoder, waiting: false) == .wouldBlock)
        #expect(wiring.host.receive(into: &decoder, waiting: true) == .wouldBlock)
        wiring.link.send(Frame(.wake))
        #expect(wiring.host.receive(into: &decoder, waiting: true) == .received)
        #expect(try decoder.next()?.kind == .wake)
    }
}
