/// The instances the application and cached scopes hold, found the way a
/// plain `[ObjectIdentifier: Any]` finds them: keyed by the type alone, the
/// unnamed instances in one such dictionary and each type's named ones in a
/// list in another. A type is registered under a handful of names, and
/// comparing a short name (a small string compares as two words) costs less
/// than hashing it, so a resolve by name costs about what one by type does.
/// A type held under very many names pays a comparison per name.
struct HeldInstances {
    private var unnamed: [ObjectIdentifier: Any] = [:]
    private var named: [ObjectIdentifier: [(name: String, instance: Any)]] = [:]

    subscript(key: Key) -> Any? {
        get {
            guard let name = key.name else { return unnamed[key.type] }
            return named[key.type]?.first { $0.name == name }?.instance
        }
        set {
            guard let name = key.name else {
                unnamed[key.type] = newValue
                return
            }
            var list = named.removeValue(forKey: key.type) ?? []
            list.removeAll { $0.name == name }
            if let newValue { list.append((name, newValue)) }
            if !list.isEmpty { named[key.type] = list }
        }
    }
}
