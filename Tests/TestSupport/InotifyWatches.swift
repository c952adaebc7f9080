import Foundation
import Glibc

extension TestSupport {
    /// Whether an inotify instance of this process watches `path`, as
    /// /proc/self/fdinfo lists each watch (by inode, in hex). A watcher sets
    /// its watches on its own thread and signals nothing when they are in
    /// place: a test waits for this instead of sleeping for a guess.
    static func isWatchedByInotify(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        let inode = "ino:" + String(status.st_ino, radix: 16) + " "
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fdinfo") else { return false }
        return descriptors.contains { descriptor in
            guard let info = try? String(contentsOfFile: "/proc/self/fdinfo/" + descriptor, encoding: .utf8) else { return false }
            return info.split(separator: "\n").contains { $0.hasPrefix("inotify wd:") && $0.contains(inode) }
        }
    }
}
