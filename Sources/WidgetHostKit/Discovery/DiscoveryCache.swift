
/// What discovery read from each plugin file, kept while the file stays the
/// same (as GStreamer's registry does), so a host that lists its plugin
/// directories again, as a long-running host does when a directory changes,
/// pays a stat per unchanged file instead of reading it. Safety is still
/// judged on every scan: a chmod changes no bytes but may make a file unsafe.
public final class DiscoveryCache: Sendable {
    /// Keyed by the file's identity, not its path: what a file says depends
    /// only on its bytes, and five integers hash faster than a path.
    private let entries = Locked<[FileIdentity: FileContents]>([:])

    public init() {}

    func contents(identity: FileIdentity) -> FileContents? {
        entries.withLock { $0[identity] }
    }

    func remember(_ contents: FileContents, identity: FileIdentity) {
        entries.withLock { $0[identity] = contents }
    }
}
