import Glibc

/// The one copy of a plugin that `install` reads, checks and installs: the
/// source is opened once, its bytes written into a file of our own in a
/// directory only we can enter (mode 0700) beside the target, and that file
/// is validated, inspected and then renamed into place. So what is installed
/// is what was checked, whatever happens to the source meanwhile; and the
/// validation cage, which may read the plugin's directory, reads only this
/// private one, not the directory the source came from (all of `$HOME`, for
/// a plugin kept there).
struct StagedPlugin {
    let directory: String
    let path: String

    init(copying source: String, into parent: String) throws(InstallCommand.InstallError) {
        let bytes: [UInt8]
        do { bytes = try FileSystem.contents(of: source) } catch { throw .init("cannot read \(source): \(error)") }
        var template = Array("\(parent)/.install.XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw .init("cannot write in \(parent): \(SystemError(code: errno))") }
        directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        path = directory + "/plugin.so"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        // The umask may have taken bits away; the installed file is 0644 whatever the source's mode.
        let written = descriptor >= 0 && FileSystem.writeAll(bytes, to: descriptor) && fchmod(descriptor, 0o644) == 0 && fsync(descriptor) == 0
        let reason = String(cString: strerror(errno))
        if descriptor >= 0 { close(descriptor) }
        guard written else {
            discard()
            throw .init("cannot copy \(source) into \(directory): \(reason)")
        }
    }

    /// Renames the checked copy over `target`: readers see the old file or the new.
    func install(as target: String) throws(InstallCommand.InstallError) {
        guard rename(path, target) == 0 else { throw .init("cannot install \(target): \(String(cString: strerror(errno)))") }
    }

    /// Removes the staging directory and whatever is left in it.
    func discard() {
        unlink(path)
        rmdir(directory)
    }
}
