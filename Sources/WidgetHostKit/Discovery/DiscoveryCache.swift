
/// What discovery read from each plugin file, kept while the file stays the
/// same (as GStreamer's registry does), so a host that lists its plugin
/// directories again, as a long-running host does when a directory changes,
/// pays a stat per unchanged file instead of reading it. Safety is still
/// judged on every scan: a chmod changes no bytes but may make a file unsafe.
public final class DiscoveryCache: Sendable {
    private let entries = Locked<[String: (FileIdentity, FileContents)]>([:])

    public init() {}

    func contents(of path: String, identity: FileIdentity) -> FileContents? {
        entries.withLock { entries in
            guard let (known, contents) = entries[path], known == identity else { return nil }
            return contents
        }
    }

    func remember(_ contents: FileContents, of path: String, identity: FileIdentity) {
        entries.withLock { $0[path] = (identity, contents) }
    }
}
