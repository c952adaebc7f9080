import Foundation

/// A price read successfully, and when (host clock, milliseconds).
struct Quote: Equatable, Sendable {
    let price: Decimal
    let at: Int64
}

/// Everything the widget knows about one feed: the observable state its
/// screens are bound to. Only the host's thread touches it.
struct FeedState: Equatable {
    enum Fetching: Equatable {
        /// An automatic refresh: the screen keeps what it shows meanwhile.
        case quiet
        /// Asked for (Retrieve, Refresh, or the first load): the screen shows
        /// a loading indicator, which scripted runs wait for.
        case awaited
    }

    /// The last good price; kept through later failures, with its age.
    var lastGood: Quote?
    /// Why the latest attempt failed; nil once one succeeds.
    var failure: PriceError?
    var fetching: Fetching?
    /// When the latest attempt ended; automatic refresh counts from here,
    /// so a slow server never gets back-to-back requests.
    var settledAt: Int64?
    /// The last good price came from before a restart and no fetch has
    /// replaced it yet: shown as stale, with its age.
    var isStale = false

    /// A price kept from an earlier run.
    mutating func restore(_ quote: Quote) {
        lastGood = quote
        isStale = true
    }

    /// The latest good price, if the latest attempt gave one.
    var current: Quote? { failure == nil ? lastGood : nil }

    mutating func start(awaited: Bool) {
        if fetching == nil || awaited { fetching = awaited ? .awaited : .quiet }
    }

    mutating func settle(_ result: Result<Decimal, PriceError>, at now: Int64) {
        fetching = nil
        settledAt = now
        switch result {
        case let .success(price):
            lastGood = Quote(price: price, at: now)
            failure = nil
            isStale = false
        case let .failure(error):
            failure = error
        }
    }
}
