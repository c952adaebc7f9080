/// The open `/events` streams: each has its queue, a pipe to wake its
/// thread, and the screen its page shows, if it shows one (`/events?screen=
/// /w/trips/trip`); card events go to every stream, a screen's only to the
/// streams watching it. A stream whose client left is dropped at its next write.
final class EventHub: Sendable {
    private struct Listener {
        let wakeup: Wakeup
        let screen: String?
        var pending: [String] = []
    }

    private let listeners = Locked<[Int: Listener]>([:])
    private let nextID = Locked(0)

    /// Queues `event` for every stream, or only for those watching `screen`.
    func publish(_ event: String, screen: String? = nil) {
        let wakeups = listeners.withLock { listeners in
            var woken: [Wakeup] = []
            for key in listeners.keys where screen == nil || listeners[key]!.screen == screen {
                listeners[key]!.pending.append(event)
                woken.append(listeners[key]!.wakeup)
            }
            return woken
        }
        wakeups.forEach { $0.signal() }
    }

    var streams: Int { listeners.withLock { $0.count } }

    /// The screens open pages show, each once.
    var watchedScreens: Set<String> { listeners.withLock { Set($0.values.compactMap(\.screen)) } }

    func stream(watching screen: String?, _ out: EventStream) {
        let id = nextID.withLock { value in
            value += 1
            return value
        }
        let wakeup = Wakeup()
        listeners.withLock { $0[id] = Listener(wakeup: wakeup, screen: screen) }
        defer { listeners.withLock { $0[id] = nil } }
        // Sent once listening, so that a page (and a test) knows no later change can be missed.
        guard out.send(Array("event: ready\ndata: {}\n\n".utf8)) else { return }
        while true {
            // A comment every 15 s finds a client that went away without a word.
            wakeup.wait(seconds: 15)
            let pending = listeners.withLock { listeners in
                defer { listeners[id]?.pending = [] }
                return listeners[id]?.pending ?? []
            }
            let text = pending.isEmpty ? ": still here\n\n" : pending.joined()
            guard out.send(Array(text.utf8)) else { return }
        }
    }
}
