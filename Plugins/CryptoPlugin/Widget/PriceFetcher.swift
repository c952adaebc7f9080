import Dispatch
import Foundation
import Synchronization

/// Runs price fetches on background threads and hands their results to the
/// widget on the host's thread, asking the host to render when one arrives.
///
/// This is `Host.background` with two changes the widget needs: each fetch
/// has its own thread, and the fetches under way can be waited for. A fetch calls the host (the http service, then
/// `request_render`) through the instance's `wh_host`, which the host frees
/// after `destroy`; so `destroy` waits here until no fetch can touch it.
final class PriceFetcher: @unchecked Sendable {   // @unchecked: DispatchGroup is thread-safe but not marked Sendable
    struct Delivery: Sendable {
        let feed: Feed
        let result: Result<Decimal, PriceError>
    }

    private let source: any PriceSource
    private let host: Host
    private let inbox = Mutex<[Delivery]>([])
    private let running = DispatchGroup()

    init(source: any PriceSource, host: Host) {
        self.source = source
        self.host = host
    }

    func fetch(_ feed: Feed, from endpoint: Endpoint) {
        running.enter()
        // A thread of its own, not the global queue: a fetch blocks for up
        // to its timeout, and the global queue is only as wide as the CPU
        // count, so the third of three fetches on two CPUs would wait about
        // a second for libdispatch to grow the pool.
        let thread = Thread { [self] in
            let result = source.price(from: endpoint)
            inbox.withLock { $0.append(Delivery(feed: feed, result: result)) }
            host.requestRender()
            running.leave()
        }
        thread.name = "crypto fetch"
        thread.start()
    }

    /// The results that arrived since the last call, oldest first.
    func deliveries() -> [Delivery] {
        inbox.withLock { inbox in
            defer { inbox.removeAll() }
            return inbox
        }
    }

    /// Waits for every fetch under way, at most `milliseconds`; false if
    /// some were still running. The host bounds each fetch by its timeout,
    /// so a wait a little longer than that always suffices.
    @discardableResult
    func waitForAll(milliseconds: Int) -> Bool {
        running.wait(timeout: .now() + .milliseconds(milliseconds)) == .success
    }
}
