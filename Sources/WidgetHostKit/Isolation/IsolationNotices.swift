/// Things worth saying once per host process, not once per plugin.
enum IsolationNotices {
    private static let said = Locked<Set<String>>([])

    static func sayOnce(_ text: String, log: HostLog) {
        guard said.withLock({ $0.insert(text).inserted }) else { return }
        log.log(.warning, "isolation", text)
    }
}
