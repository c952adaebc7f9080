/// A render's parameters as the plugin reads them: JSON text ending in a
/// NUL. The last parameters are kept with their text, since a screen is
/// mostly rendered again with the same ones (none): making the text of `{}`
/// on every render was a fifth of the child's side of an isolated call.
/// Parameters that compare equal serialize alike (`JSONValue` compares
/// numbers by their text and objects member by member, in order).
struct ParameterText {
    private var value: JSONValue = .null
    private var text: [UInt8] = Array("null\0".utf8)

    /// Runs `body` with `params` as NUL-terminated JSON text, valid only inside it.
    mutating func with<R>(_ params: JSONValue, _ body: (UnsafePointer<CChar>) -> R) -> R {
        if params != value {
            // Large parameters' memory is let go once they change.
            if text.capacity > Frame.keptBytes { text = [] } else { text.removeAll(keepingCapacity: true) }
            params.serialize(appendingTo: &text)
            text.append(0)
            value = params
        }
        return text.withUnsafeBytes { body($0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
    }

    /// The memory the text holds, for a test.
    var capacity: Int { text.capacity }
}
