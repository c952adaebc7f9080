import HostShim

/// Marks the calls into plugin code that runs in this process, so that a
/// plugin that ends the process (`exit` from inside a call, or a crash)
/// is named in the host's last words, with the advice to isolate it
/// (`plugin_calls.c`). The mark is the calling thread's, and calls may nest.
enum PluginCall {
    /// Turns the last words on, for the rest of the process; the commands
    /// that run plugin code in process call it first.
    static func guardProcess() {
        _ = wh_shim_guard_plugin_calls()
    }

    /// Runs `body` marked as `plugin`'s `call`. `plugin` must stay valid
    /// until `body` returns.
    @inline(__always)
    static func during<T>(_ plugin: UnsafePointer<CChar>, _ call: StaticString, _ body: () -> T) -> T {
        // A literal's text is static and ends in NUL.
        let previous = wh_shim_plugin_call_begin(plugin, UnsafeRawPointer(call.utf8Start).assumingMemoryBound(to: CChar.self))
        defer { wh_shim_plugin_call_end(previous) }
        return body()
    }

    /// Marks this thread as inside `plugin`'s calls for good: an isolated
    /// plugin's main thread, which runs plugin code only for the host's
    /// calls (between them it waits for the next one).
    static func markForGood(_ plugin: UnsafePointer<CChar>) {
        _ = wh_shim_plugin_call_begin(plugin, "call")
    }

    /// Whether this thread is inside a call the host makes into plugin code
    /// (a contract may be asked only from there: contract.h's [in-call]).
    static var isInsideCall: Bool { wh_shim_plugin_call_current() != nil }
}
