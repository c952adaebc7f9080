/// One scan report handed from the run's first configuration, which scans to
/// address short names, to the command's scan right after it: start-up then
/// lists the search path once. Handed over once a run, so every later scan (a
/// dashboard reloading its configuration, a directory that changed) reads
/// the directories again.
final class ScanHandOver: Sendable {
    private struct Left: Sendable {
        let searchPath: SearchPath
        let allowInsecure: Bool
        let report: DiscoveryReport
    }

    private enum State: Sendable {
        case empty
        case left(Left)
        case over
    }

    private let state = Locked<State>(.empty)

    /// Keeps the first report of the run; later ones are not kept.
    func leave(_ report: DiscoveryReport, for searchPath: SearchPath, allowInsecure: Bool) {
        state.withLock { state in
            guard case .empty = state else { return }
            state = .left(Left(searchPath: searchPath, allowInsecure: allowInsecure, report: report))
        }
    }

    /// The report left for this search path, if any; after it nothing is handed over.
    func take(for searchPath: SearchPath, allowInsecure: Bool) -> DiscoveryReport? {
        state.withLock { state in
            defer { state = .over }
            guard case let .left(found) = state, found.searchPath == searchPath, found.allowInsecure == allowInsecure else { return nil }
            return found.report
        }
    }
}
