import Glibc

/// What earlier scans found, kept while what they read stays the same (as
/// GStreamer's registry does), so a host that lists its plugin directories
/// again, as a long-running host does when a directory changes, pays a stat
/// per unchanged file instead of reading it, sorting its directory again or
/// judging it again. Scans sharing a cache take turns.
public final class DiscoveryCache: Sendable {
    let memory = Locked(DiscoveryMemory(keepsContents: true))

    public init() {}
}

/// The state behind a `DiscoveryCache`; a scan without a cache uses a fresh
/// one that keeps no file contents (nothing would read them again).
struct DiscoveryMemory {
    let keepsContents: Bool
    /// What a file says, by its identity, not its path: it depends only on
    /// the file's bytes (and the services the host offers), and a file moved
    /// to another name or directory is still found here.
    var contents: [FileIdentity: FileContents] = [:]
    /// The services `contents` was judged against: another set judges again.
    var services: Set<String>?
    /// Each directory's last listing, by its path as the search path names it.
    var listings: [String: DirectoryListing] = [:]
    /// The last report, reused by a scan of the same search path that found
    /// every directory and every file as that report left them.
    var report: RememberedReport?
    /// How many directories were listed and files read: what the memory saves, counted.
    var reads = (listings: 0, files: 0)

    init(keepsContents: Bool) { self.keepsContents = keepsContents }
}

struct RememberedReport {
    let searchPath: SearchPath
    let allowInsecure: Bool
    /// Each directory's stamp, nil where it could not be listed: one that
    /// disappears (quietly, as a default directory may) changes the report.
    let stamps: [FileStamp?]
    let report: DiscoveryReport
}

/// One directory's plugin entries, in order, with what the last scan made of
/// each. The names hold while the directory's own stamp does (a name added,
/// removed or renamed in it changes its mtime and ctime); what an entry was
/// judged to be holds while its file's stamp and the directory's safety do.
struct DirectoryListing {
    let stamp: FileStamp
    var judgedUnder: Judgement
    var entries: [Entry]

    /// Under which the entries were judged: the directory's canonical path,
    /// the verdict on it and every directory above it, and --allow-insecure.
    struct Judgement: Equatable {
        let canonical: String
        let chain: String?
        let allowInsecure: Bool
    }

    struct Entry {
        let name: String
        let path: String
        /// The listing said a regular file, not a link: its verdict follows
        /// from its own stat. Any other kind is inspected on every scan.
        let isRegular: Bool
        var last: Verdict?
    }

    /// What an entry was found to be, and the stat of the file it was found in.
    struct Verdict {
        let stamp: FileStamp
        let candidate: PluginCandidate
    }

    /// A new listing of `directory`, taking each entry's last verdict from
    /// `previous` (both sorted the same way) where the name is still there.
    init(stamp: FileStamp, judgedUnder: Judgement,
         directory: String, found: [Discovery.Entry], previous: DirectoryListing?) {
        self.stamp = stamp
        self.judgedUnder = judgedUnder
        var old = previous?.entries[...] ?? []
        entries = found.map { entry in
            while let first = old.first, Discovery.utf8Precedes(first.name, entry.name) { old.removeFirst() }
            let kept = old.first.flatMap { $0.name.utf8.elementsEqual(entry.name.utf8) ? $0 : nil }
            return Entry(name: entry.name, path: kept?.path ?? join(directory, entry.name), isRegular: entry.isRegular, last: kept?.last)
        }
    }
}

/// A file's identity and what its safety depends on. A change to any of
/// these changes ctime, so the fields past `identity` say, not detect.
struct FileStamp: Equatable {
    let identity: FileIdentity
    let mode: mode_t, owner: uid_t, group: gid_t

    init(_ status: stat) {
        identity = FileIdentity(status)
        mode = status.st_mode
        owner = status.st_uid
        group = status.st_gid
    }

    /// Whether a change after `cutoff` would show in the stamp. The kernel
    /// stamps a change with a clock that ticks every few milliseconds, so a
    /// file changed again within the tick of its last change keeps its
    /// times (git calls such an entry "racily clean"): only a stamp older
    /// than the scan by a safe margin is trusted to say "unchanged" later.
    /// Times in whole seconds come from a file system that keeps no finer
    /// ones (vfat keeps 2 s): their tick is 2 s.
    func isSettled(before cutoff: Int64) -> Bool {
        let second: Int64 = 1_000_000_000
        let coarse = identity.modified % second == 0 && identity.changed % second == 0
        let limit = coarse ? cutoff - 2 * second : cutoff
        return identity.modified < limit && identity.changed < limit
    }

    /// Now, less the margin: stamps older than this are settled.
    static func settledCutoff() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec) - 100_000_000
    }
}
