/// The instances the application and cached scopes hold, found the way a
/// plain `[ObjectIdentifier: Any]` finds them: keyed by the type alone, the
/// unnamed instances in one such dictionary and each type's named ones in
/// another, as a short list. A type is registered under a handful of names,
/// and comparing a short name (a small string compares as two words) costs
/// less than hashing it; a type held under very many names pays a
/// comparison per name. Inlinable, as `Registry.resolve` is, so that the
/// caller's resolve costs no call between the lock and the cast.
@usableFromInline
struct HeldInstances {
    @usableFromInline
    var unnamed: [ObjectIdentifier: Any] = [:]
    @usableFromInline
    var named: [ObjectIdentifier: Named] = [:]

    /// Names and instances in two arrays, not one of pairs: reading a pair
    /// copies both, where a lookup compares names and copies one instance.
    @usableFromInline
    struct Named {
        @usableFromInline
        var names: [String] = []
        @usableFromInline
        var instances: [Any] = []
    }

    @inlinable @inline(__always)
    func instance(for key: Key) -> Any? {
        guard let name = key.name else { return unnamed[key.type] }
        guard let list = named[key.type], let index = list.names.firstIndex(of: name) else { return nil }
        return list.instances[index]
    }

    subscript(key: Key) -> Any? {
        get { instance(for: key) }
        set {
            guard let name = key.name else {
                unnamed[key.type] = newValue
                return
            }
            var list = named.removeValue(forKey: key.type) ?? Named()
            if let index = list.names.firstIndex(of: name) {
                list.names.remove(at: index)
                list.instances.remove(at: index)
            }
            if let newValue {
                list.names.append(name)
                list.instances.append(newValue)
            }
            if !list.names.isEmpty { named[key.type] = list }
        }
    }
}
